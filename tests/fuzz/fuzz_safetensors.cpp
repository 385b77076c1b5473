/// \file
/// libFuzzer target: `parseSafetensors` on arbitrary bytes must return a value or an error, and
/// every tensor it accepts must lie inside the data it was given.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "export/safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  byoc::Result<byoc::SafetensorsIndex> index = byoc::parseSafetensors(bytes, "params.safetensors");
  if (!index) return 0;
  for (const byoc::SafetensorsEntry& entry : index->entries) {
    const std::string_view tensor = index->bytesOf(entry);
    if (tensor.data() < bytes.data() || tensor.data() + tensor.size() > bytes.data() + bytes.size()) std::abort();
    if (index->find(entry.name) == nullptr) std::abort();
  }
  return 0;
}
