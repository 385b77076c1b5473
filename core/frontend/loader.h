#pragma once
/// \file
/// Opens a model file of any supported kind, chosen by extension or content:
/// Relay text (`.relay`, `.txt`, or text starting with `#[version`), native JSON (`.json`),
/// ONNX (`.onnx`, or content starting as a serialised ONNX model does).

#include <string>

#include "ir/module.h"
#include "support/result.h"

namespace byoc {

/// Loads the model at `path`; the error names the file and what was wrong.
Result<Module> loadModuleFile(const std::string& path);

}  // namespace byoc
