/// \file
/// libFuzzer target: `importOnnxModel` on arbitrary bytes must return a module or an error, never
/// crash, hang or read out of bounds. External data is looked up in an empty directory made for
/// the run. A module it imports is typed and printed, as the CLI does with a loaded model.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "frontend/onnx/onnx_import.h"
#include "pass/infer_type.h"
#include "support/result.h"
#include "text/printer.h"

namespace {

/// An empty directory, so that a model naming external data finds none of the run's files.
const std::string& externalDataDir() {
  static const std::string dir = [] {
    std::string pattern = "/tmp/byoc-fuzz-onnx-XXXXXX";
    BYOC_CHECK(mkdtemp(pattern.data()) != nullptr, "cannot create a directory in /tmp");
    return pattern;
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  byoc::Result<byoc::Module> module = byoc::importOnnxModel(bytes, "input.onnx", externalDataDir());
  if (!module) return 0;
  byoc::Result<byoc::Module> typed = byoc::inferTypes(*module);
  (void)byoc::printModule(typed ? *typed : *module, {.showTypes = typed.isOk()});
  return 0;
}
