#include "frontend/loader.h"

#include <filesystem>

#include "frontend/json_format.h"
#include "frontend/onnx/onnx_import.h"
#include "support/file_io.h"
#include "text/parser.h"

namespace byoc {

namespace {

enum class ModelKind { RelayText, Json, Onnx, Unknown };

ModelKind kindOf(const std::string& path, std::string_view content) {
  std::string extension = std::filesystem::path(path).extension().string();
  if (extension == ".relay" || extension == ".txt") return ModelKind::RelayText;
  if (extension == ".json") return ModelKind::Json;
  if (extension == ".onnx") return ModelKind::Onnx;
  if (looksLikeOnnxModel(content)) return ModelKind::Onnx;
  std::size_t first = content.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return ModelKind::Unknown;
  if (content[first] == '{') return ModelKind::Json;
  if (content.substr(first, 9) == "#[version" || content.substr(first, 3) == "def" || content.substr(first, 2) == "fn")
    return ModelKind::RelayText;
  return ModelKind::Unknown;
}

}  // namespace

Result<Module> loadModuleFile(const std::string& path) {
  BYOC_ASSIGN_OR_RETURN(std::string content, readFile(path));
  switch (kindOf(path, content)) {
    case ModelKind::RelayText: return parseModule(content, path);
    case ModelKind::Json: return loadModuleJson(content, path);
    case ModelKind::Onnx: return importOnnxModel(content, path, std::filesystem::path(path).parent_path().string());
    case ModelKind::Unknown: break;
  }
  return makeError("unknown model format; expected Relay text (.relay, .txt), BYOC Studio JSON (.json) or ONNX (.onnx)", {path});
}

}  // namespace byoc
