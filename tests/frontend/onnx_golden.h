#pragma once
/// \file
/// An imported ONNX model as its golden text: what the import tests compare with their
/// tests/data/frontend/onnx/*.expected files.

#include <string>

#include "frontend/onnx/onnx_import.h"
#include "pass/infer_type.h"
#include "text/printer.h"

namespace byoc::testing {

/// `bytes` imported as `file`, type-checked and printed with types; or the first error, so that a
/// comparison with the golden text shows it.
inline std::string importedText(const std::string& bytes, const std::string& file) {
  Result<Module> module = importOnnxModel(bytes, file, "");
  if (!module) return "error: " + module.error().str();
  Result<Module> typed = inferTypes(*module);
  if (!typed) return "error: " + typed.error().str();
  return printModule(*typed, {.showTypes = true, .showMetadata = false});
}

}  // namespace byoc::testing
