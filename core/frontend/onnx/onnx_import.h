#pragma once
/// \file
/// The ONNX importer: a serialised ONNX model (opsets 11–17 of the default domain) becomes a
/// module whose `@main` takes the graph inputs as parameters and returns the graph outputs (a
/// tuple when there are several). Ops are mapped onto the IR's Relay-named ops the way TVM's
/// importer maps them (see docs/onnx-import.md); initializers become constants named after them;
/// the provenance table records, for every imported node, its ONNX name and op type.
///
/// Errors are values whose location is the model file. Unsupported ops are reported all at once,
/// each with its number of nodes; a truncated or non-ONNX file is named as such.

#include <string>
#include <string_view>

#include "ir/module.h"
#include "support/result.h"

namespace byoc {

/// Loads the ONNX model at `path`; external data files are looked up in its directory.
Result<Module> loadOnnxFile(const std::string& path);

/// Imports the serialised `ModelProto` in `bytes`. `fileName` names the model in errors and
/// `externalDataDir` is where tensors stored outside the model are looked up.
Result<Module> importOnnxModel(std::string_view bytes, const std::string& fileName,
                               const std::string& externalDataDir);

/// True when `content` starts the way a serialised ONNX model does (used to recognise `.onnx`
/// files by content).
bool looksLikeOnnxModel(std::string_view content);

}  // namespace byoc
