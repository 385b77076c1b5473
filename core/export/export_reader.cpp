#include "export/export_reader.h"

#include <filesystem>

#include "export/module_params.h"
#include "export/safetensors.h"
#include "export/sha256.h"
#include "frontend/json_format.h"
#include "support/file_io.h"

namespace byoc {

namespace {

namespace fs = std::filesystem;

/// Reads the files of one export, each checked against the manifest's checksum.
class ExportFiles {
 public:
  ExportFiles(const fs::path& directory, const Manifest& manifest) : directory_(directory), manifest_(manifest) {}

  Result<std::string> read(const std::string& relative) const {
    const std::string path = (directory_ / relative).string();
    std::error_code error;
    if (!fs::exists(path, error)) return makeError("missing file, listed in manifest.json", {path});
    BYOC_ASSIGN_OR_RETURN(std::string content, readFile(path));
    auto expected = manifest_.files.find(relative);
    const std::string actual = sha256Hex(content);
    if (expected == manifest_.files.end()) return makeError("no checksum in manifest.json", {path});
    if (actual != expected->second)
      return makeError("checksum mismatch: manifest.json records SHA-256 " + expected->second + ", the file has " + actual, {path});
    return content;
  }

  std::string path(const std::string& relative) const { return (directory_ / relative).string(); }

 private:
  fs::path directory_;
  const Manifest& manifest_;
};

/// Loads one module file of the export with its constants taken from `params`.
Result<Module> loadExportedModule(const ExportFiles& files, const std::string& relative, const SafetensorsIndex& params,
                              const std::string& paramsPath) {
  BYOC_ASSIGN_OR_RETURN(std::string text, files.read(relative));
  const std::string path = files.path(relative);
  BYOC_ASSIGN_OR_RETURN(std::string resolved, internalizeConstants(text, params, path, paramsPath));
  return loadModuleJson(resolved, path);
}

}  // namespace

std::map<std::string, std::string> exportCodegens(const Manifest& manifest) {
  std::map<std::string, std::string> result;
  for (const ManifestTarget& target : manifest.targets) result[target.name] = target.codegen;
  for (const ManifestFunction& function : manifest.functions) result[function.compiler] = function.codegen;
  return result;
}

bool isExportDirectory(const std::string& path) {
  std::error_code error;
  return fs::is_directory(path, error) && fs::exists(fs::path(path) / kManifestFileName, error);
}

Result<Manifest> readExportManifest(const std::string& directory) {
  const std::string manifestPath = (fs::path(directory) / kManifestFileName).string();
  std::error_code error;
  if (!fs::is_directory(directory, error)) return makeError("not a directory", {directory});
  if (!fs::exists(manifestPath, error)) return makeError("missing file: an export directory holds a manifest.json", {manifestPath});
  BYOC_ASSIGN_OR_RETURN(std::string manifestText, readFile(manifestPath));
  return parseManifest(manifestText, manifestPath);
}

Result<LoadedExport> loadExport(const std::string& directory) {
  LoadedExport loaded;
  loaded.directory = directory;
  BYOC_ASSIGN_OR_RETURN(loaded.manifest, readExportManifest(directory));
  const Manifest& manifest = loaded.manifest;
  ExportFiles files(directory, manifest);

  for (const auto& [relative, digest] : manifest.files) BYOC_TRY(files.read(relative).status());
  BYOC_ASSIGN_OR_RETURN(std::string paramBytes, files.read(manifest.params));
  const std::string paramsPath = files.path(manifest.params);
  BYOC_ASSIGN_OR_RETURN(SafetensorsIndex params, parseSafetensors(paramBytes, paramsPath));

  BYOC_ASSIGN_OR_RETURN(loaded.module, loadExportedModule(files, manifest.hostModule, params, paramsPath));
  for (const ManifestFunction& function : manifest.functions) {
    BYOC_ASSIGN_OR_RETURN(Module artifact, loadExportedModule(files, function.artifact, params, paramsPath));
    Function body = artifact.find(function.name);
    if (!body) return makeError("expected the function @" + function.name, {files.path(function.artifact)});
    if (loaded.module.find(function.name))
      return makeError("@" + function.name + " is both in the host module and an artifact", {files.path(function.artifact)});
    loaded.module.set(function.name, body);
  }
  if (!loaded.module.find("main")) return makeError("the host module has no @main", {files.path(manifest.hostModule)});
  return loaded;
}

Result<std::unique_ptr<Executor>> createExportExecutor(const LoadedExport& loaded, int threads) {
  ExecutorOptions options;
  options.threads = threads;
  options.codegens = exportCodegens(loaded.manifest);
  return Executor::create(loaded.module, options);
}

}  // namespace byoc
