#include "session/opened_model.h"

#include <algorithm>
#include <filesystem>

#include "builtin_resources.h"
#include "frontend/loader.h"
#include "pass/infer_type.h"
#include "support/file_io.h"
#include "text/parser.h"

namespace byoc {

namespace {

namespace fs = std::filesystem;

/// Whether the manifest of the export in `directory` names `relative` (or it is the manifest).
bool listedIn(const std::string& directory, const std::string& relative) {
  if (relative == kManifestFileName) return true;
  Result<Manifest> manifest = readExportManifest(directory);
  return manifest && (manifest->files.count(relative) || relative == manifest->hostText);
}

Result<OpenedModel> openExport(const std::string& directory) {
  BYOC_ASSIGN_OR_RETURN(LoadedExport loaded, loadExport(directory));
  BYOC_ASSIGN_OR_RETURN(Module typed, inferTypes(loaded.module));
  return OpenedModel{directory, std::move(typed), std::nullopt, std::make_shared<const LoadedExport>(std::move(loaded))};
}

/// Whether some node of `module` is located at a line of its file (a text format, not ONNX).
bool locatedInText(const Module& module) {
  const auto& provenance = module.provenance();
  return provenance && std::any_of(provenance->locations.begin(), provenance->locations.end(),
                                   [](const auto& entry) { return entry.second.line > 0; });
}

}  // namespace

std::optional<std::string> exportDirectoryOf(const std::string& path) {
  if (isExportDirectory(path)) return path;
  const fs::path file = fs::absolute(fs::path(path)).lexically_normal();
  // The manifest sits beside the file or one folder up (artifacts/).
  fs::path directory = file.parent_path();
  for (int up = 0; up < 2 && !directory.empty(); ++up, directory = directory.parent_path()) {
    if (!isExportDirectory(directory.string())) continue;
    if (listedIn(directory.string(), file.lexically_relative(directory).generic_string())) return directory.string();
  }
  return std::nullopt;
}

Result<OpenedModel> openModel(const std::string& path, const OpenOptions& options) {
  if (std::optional<std::string> directory = exportDirectoryOf(path)) return openExport(*directory);
  std::error_code error;
  if (fs::is_directory(path, error)) return readExportManifest(path).error();  // says what an export holds
  BYOC_ASSIGN_OR_RETURN(Module module, loadModuleFile(path));
  std::optional<std::string> source;
  if (options.keepSourceText && locatedInText(module)) {
    if (Result<std::string> text = readFile(path)) source = std::move(text).value();
  }
  BYOC_ASSIGN_OR_RETURN(Module typed, inferTypes(module));
  return OpenedModel{path, std::move(typed), std::move(source), nullptr};
}

Result<OpenedModel> openDemo() {
  std::optional<std::string_view> text = findBuiltinResource(kDemoModelName);
  if (!text) return makeError("the built-in demo model is missing");
  // Named as its file, without the folder it has among the built-in resources.
  BYOC_ASSIGN_OR_RETURN(Module module, parseModule(*text, "demo.relay"));
  BYOC_ASSIGN_OR_RETURN(Module typed, inferTypes(module));
  return OpenedModel{{}, std::move(typed), std::string(*text), nullptr};
}

std::string exportSourceFile(const LoadedExport& exported) {
  const auto& provenance = exported.module.provenance();
  std::string file;
  if (provenance) {
    for (const auto& [id, location] : provenance->locations)
      if (!location.file.empty() && (file.empty() || location.file < file)) file = location.file;
  }
  return file;
}

}  // namespace byoc
