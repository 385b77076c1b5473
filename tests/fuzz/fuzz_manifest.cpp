/// \file
/// libFuzzer target: `parseManifest` on arbitrary bytes must return a value or an error, never
/// crash or read out of bounds.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "export/manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  byoc::Result<byoc::Manifest> manifest =
      byoc::parseManifest(std::string_view(reinterpret_cast<const char*>(data), size), "manifest.json");
  if (manifest) (void)byoc::writeManifest(*manifest);
  return 0;
}
