#include "frontend/onnx/onnx_import.h"

#include <filesystem>
#include <limits>

#include "frontend/onnx/onnx_graph_importer.h"
#include "frontend/onnx/onnx_wire.h"
#include "support/file_io.h"

namespace byoc {

namespace {

/// The opsets of the default domain whose op semantics the converters follow.
constexpr int64_t kMinOpset = 11;
constexpr int64_t kMaxOpset = 20;

}  // namespace

Result<Module> importOnnxModel(std::string_view bytes, const std::string& fileName, const std::string& externalDataDir,
                               const OnnxImportProgress& progress) {
  Status wire = onnx_import::checkModelWireFormat(bytes);
  if (!wire) return makeError(wire.error().message, {fileName});
  if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    return makeError("the model takes " + std::to_string(bytes.size()) +
                         " bytes; protobuf reads at most 2 GiB, expected the weights stored as external data",
                     {fileName});
  onnx::ModelProto model;
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return makeError("corrupt ONNX model: the protobuf data inside the model cannot be decoded", {fileName});
  if (!model.has_graph()) return makeError("not an ONNX model: it has no graph", {fileName});
  std::optional<int64_t> opset;
  for (const auto& entry : model.opset_import())
    if (entry.domain().empty() || entry.domain() == "ai.onnx") opset = entry.version();
  if (!opset) return makeError("the model imports no version of the default ONNX domain", {fileName});
  if (*opset < kMinOpset || *opset > kMaxOpset)
    return makeError("opset " + std::to_string(*opset) + " is not supported; expected " + std::to_string(kMinOpset) +
                         " to " + std::to_string(kMaxOpset),
                     {fileName});
  return onnx_import::importGraph(model.graph(), *opset, fileName, externalDataDir, progress);
}

Result<Module> loadOnnxFile(const std::string& path, const OnnxImportProgress& progress) {
  BYOC_ASSIGN_OR_RETURN(std::string content, readFile(path));
  return importOnnxModel(content, path, std::filesystem::path(path).parent_path().string(), progress);
}

bool looksLikeOnnxModel(std::string_view content) { return onnx_import::startsLikeOnnxModel(content); }

}  // namespace byoc
