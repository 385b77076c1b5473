#pragma once
/// \file
/// The ONNX importer: a serialised ONNX model (opsets 11–20 of the default domain) becomes a
/// module whose `@main` takes the graph inputs as parameters and returns the graph outputs (a
/// tuple when there are several). Ops are mapped onto the IR's Relay-named ops the way TVM's
/// importer maps them (see docs/onnx-import.md); initializers become constants named after them;
/// the provenance table records, for every imported node, its ONNX name and op type.
///
/// Errors are values whose location is the model file. Unsupported ops are reported all at once,
/// each with its number of nodes; a truncated or non-ONNX file is named as such.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "ir/module.h"
#include "support/result.h"

namespace byoc {

/// Called after each imported node with the number of nodes done and their total, from the thread
/// that imports. Returning false cancels the import, which then fails with "import cancelled".
using OnnxImportProgress = std::function<bool(std::size_t done, std::size_t total)>;

/// Loads the ONNX model at `path`; external data files are looked up in its directory.
Result<Module> loadOnnxFile(const std::string& path, const OnnxImportProgress& progress = {});

/// Imports the serialised `ModelProto` in `bytes`. `fileName` names the model in errors and
/// `externalDataDir` is where tensors stored outside the model are looked up.
Result<Module> importOnnxModel(std::string_view bytes, const std::string& fileName,
                               const std::string& externalDataDir, const OnnxImportProgress& progress = {});

/// True when `content` starts the way a serialised ONNX model does (used to recognise `.onnx`
/// files by content).
bool looksLikeOnnxModel(std::string_view content);

}  // namespace byoc
