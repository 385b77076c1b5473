#include "export/manifest.h"

#include <filesystem>

#include <nlohmann/json.hpp>

#include "export/artifact_file_name.h"
#include "support/json_document.h"
#include "support/limits.h"

namespace byoc {

namespace {

using json = nlohmann::json;

constexpr std::string_view kFormatName = "byoc-export";

json tensorsToJson(const std::vector<ManifestTensor>& tensors) {
  json list = json::array();
  for (const ManifestTensor& tensor : tensors) {
    json entry = {{"dtype", tensor.dtype}, {"shape", tensor.shape}};
    if (!tensor.name.empty()) entry["name"] = tensor.name;
    list.push_back(std::move(entry));
  }
  return list;
}

/// A relative path that stays inside the export directory: no leading '/', no ".." part, not empty.
bool isContainedPath(const std::string& path) {
  if (path.empty() || path.front() == '/') return false;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    std::string_view part(path.data() + start, slash - start);
    if (part.empty() || part == "." || part == "..") return false;
    start = slash + 1;
  }
  return true;
}

/// Reads fields of the manifest, naming the JSON path of a bad value.
class ManifestReader {
 public:
  explicit ManifestReader(std::string_view fileName) : fileName_(fileName) {}

  Result<Manifest> read(const json& root) {
    if (!root.is_object()) return fail("", "expected a JSON object");
    Manifest manifest;
    BYOC_ASSIGN_OR_RETURN(std::string format, string(root, "", "format"));
    if (format != kFormatName) return fail("/format", "expected \"" + std::string(kFormatName) + "\", found \"" + format + "\"");
    BYOC_ASSIGN_OR_RETURN(int64_t version, integer(root, "", "format_version"));
    if (version > kExportFormatVersion)
      return fail("/format_version", "format version " + std::to_string(version) + " is newer than this program reads (" +
                                         std::to_string(kExportFormatVersion) + ")");
    if (version < kOldestExportFormatVersion)
      return fail("/format_version", "format version " + std::to_string(version) + " is not one this program reads (" +
                                         std::to_string(kOldestExportFormatVersion) + " to " +
                                         std::to_string(kExportFormatVersion) + ")");
    manifest.formatVersion = static_cast<int>(version);
    BYOC_ASSIGN_OR_RETURN(manifest.producer, string(root, "", "producer"));
    BYOC_ASSIGN_OR_RETURN(const json* targets, array(root, "", "targets"));
    for (std::size_t i = 0; i < targets->size(); ++i) {
      const std::string path = "/targets/" + std::to_string(i);
      ManifestTarget target;
      BYOC_ASSIGN_OR_RETURN(target.name, string((*targets)[i], path, "name"));
      BYOC_ASSIGN_OR_RETURN(target.codegen, string((*targets)[i], path, "codegen"));
      manifest.targets.push_back(std::move(target));
    }
    BYOC_ASSIGN_OR_RETURN(manifest.hostModule, filePath(root, "", "host_module"));
    BYOC_ASSIGN_OR_RETURN(manifest.hostText, filePath(root, "", "host_text"));
    BYOC_ASSIGN_OR_RETURN(manifest.params, filePath(root, "", "params"));
    BYOC_ASSIGN_OR_RETURN(const json* functions, array(root, "", "external_functions"));
    for (std::size_t i = 0; i < functions->size(); ++i) {
      const std::string path = "/external_functions/" + std::to_string(i);
      const json& entry = (*functions)[i];
      ManifestFunction function;
      BYOC_ASSIGN_OR_RETURN(function.name, string(entry, path, "name"));
      BYOC_ASSIGN_OR_RETURN(function.symbol, string(entry, path, "symbol"));
      BYOC_ASSIGN_OR_RETURN(function.compiler, string(entry, path, "compiler"));
      BYOC_ASSIGN_OR_RETURN(function.codegen, string(entry, path, "codegen"));
      BYOC_ASSIGN_OR_RETURN(function.artifact, filePath(entry, path, "artifact"));
      if (entry.contains("compiled")) BYOC_TRY(readCompiled(entry, path, function));
      manifest.functions.push_back(std::move(function));
    }
    BYOC_ASSIGN_OR_RETURN(manifest.inputs, tensors(root, "inputs"));
    BYOC_ASSIGN_OR_RETURN(manifest.outputs, tensors(root, "outputs"));
    BYOC_ASSIGN_OR_RETURN(const json* files, object(root, "", "files"));
    for (const auto& [name, digest] : files->items()) {
      const std::string path = "/files/" + name;
      if (!isContainedPath(name)) return fail(path, "expected a relative path inside the export directory");
      if (!digest.is_string() || digest.get<std::string>().size() != 64 ||
          digest.get<std::string>().find_first_not_of("0123456789abcdef") != std::string::npos)
        return fail(path, "expected a SHA-256 digest (64 lowercase hex digits)");
      manifest.files[name] = digest.get<std::string>();
    }
    for (const std::string& referenced : referencedFiles(manifest))
      if (!manifest.files.count(referenced)) return fail("/files", "no checksum for \"" + referenced + "\"");
    return manifest;
  }

 private:
  static std::vector<std::string> referencedFiles(const Manifest& manifest) {
    std::vector<std::string> files = {manifest.hostModule, manifest.hostText, manifest.params};
    for (const ManifestFunction& function : manifest.functions) {
      files.push_back(function.artifact);
      files.insert(files.end(), function.compiled.begin(), function.compiled.end());
    }
    return files;
  }

  /// The codegen version and the compiled files of a function, all in one folder.
  Status readCompiled(const json& entry, const std::string& path, ManifestFunction& function) const {
    BYOC_ASSIGN_OR_RETURN(function.codegenVersion, string(entry, path, "codegen_version"));
    BYOC_ASSIGN_OR_RETURN(const json* compiled, array(entry, path, "compiled"));
    if (static_cast<int64_t>(compiled->size()) > limits::kMaxPluginArtifactFiles)
      return fail(path + "/compiled", "at most " + std::to_string(limits::kMaxPluginArtifactFiles) + " files");
    for (std::size_t k = 0; k < compiled->size(); ++k) {
      const std::string item = path + "/compiled/" + std::to_string(k);
      const json& file = (*compiled)[k];
      if (!file.is_string() || !isContainedPath(file.get<std::string>()))
        return fail(item, "expected a relative path inside the export directory");
      const std::string relative = file.get<std::string>();
      if (std::string problem = artifactFileNameProblem(std::filesystem::path(relative).filename().string()); !problem.empty())
        return fail(item, problem);
      if (!function.compiled.empty() && std::filesystem::path(relative).parent_path() != std::filesystem::path(function.compiled[0]).parent_path())
        return fail(item, "the compiled files of a function lie in one folder");
      function.compiled.push_back(relative);
    }
    return Status::ok();
  }

  Diagnostic fail(const std::string& path, const std::string& message) const {
    return makeError((path.empty() ? std::string() : path + ": ") + message, {fileName_});
  }

  Result<const json*> member(const json& object, const std::string& path, const char* key, json::value_t type,
                             const char* expected) const {
    if (!object.is_object()) return fail(path, "expected an object");
    auto found = object.find(key);
    if (found == object.end()) return fail(path + "/" + key, "missing");
    const bool matches = type == json::value_t::number_integer ? found->is_number_integer() : found->type() == type;
    if (!matches) return fail(path + "/" + key, std::string("expected ") + expected);
    return &*found;
  }
  Result<std::string> string(const json& object, const std::string& path, const char* key) const {
    BYOC_ASSIGN_OR_RETURN(const json* value, member(object, path, key, json::value_t::string, "a string"));
    return value->get<std::string>();
  }
  Result<std::string> filePath(const json& object, const std::string& path, const char* key) const {
    BYOC_ASSIGN_OR_RETURN(std::string value, string(object, path, key));
    if (!isContainedPath(value)) return fail(path + "/" + key, "expected a relative path inside the export directory");
    return value;
  }
  Result<int64_t> integer(const json& object, const std::string& path, const char* key) const {
    BYOC_ASSIGN_OR_RETURN(const json* value, member(object, path, key, json::value_t::number_integer, "an integer"));
    return value->get<int64_t>();
  }
  Result<const json*> array(const json& object, const std::string& path, const char* key) const {
    return member(object, path, key, json::value_t::array, "an array");
  }
  Result<const json*> object(const json& parent, const std::string& path, const char* key) const {
    return member(parent, path, key, json::value_t::object, "an object");
  }
  Result<std::vector<ManifestTensor>> tensors(const json& root, const char* key) const {
    BYOC_ASSIGN_OR_RETURN(const json* list, array(root, "", key));
    std::vector<ManifestTensor> result;
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string path = "/" + std::string(key) + "/" + std::to_string(i);
      const json& entry = (*list)[i];
      ManifestTensor tensor;
      if (entry.is_object() && entry.contains("name")) {
        BYOC_ASSIGN_OR_RETURN(tensor.name, string(entry, path, "name"));
      }
      BYOC_ASSIGN_OR_RETURN(tensor.dtype, string(entry, path, "dtype"));
      BYOC_ASSIGN_OR_RETURN(const json* shape, array(entry, path, "shape"));
      for (const json& dim : *shape) {
        if (!dim.is_number_integer()) return fail(path + "/shape", "expected integers");
        tensor.shape.push_back(dim.get<int64_t>());
      }
      result.push_back(std::move(tensor));
    }
    return result;
  }

  std::string fileName_;
};

}  // namespace

std::string writeManifest(const Manifest& manifest) {
  json root;
  root["format"] = kFormatName;
  root["format_version"] = manifest.formatVersion;
  root["producer"] = manifest.producer;
  json targets = json::array();
  for (const ManifestTarget& target : manifest.targets) targets.push_back({{"name", target.name}, {"codegen", target.codegen}});
  root["targets"] = std::move(targets);
  root["host_module"] = manifest.hostModule;
  root["host_text"] = manifest.hostText;
  root["params"] = manifest.params;
  json functions = json::array();
  for (const ManifestFunction& function : manifest.functions) {
    json entry = {{"name", function.name},
                  {"symbol", function.symbol},
                  {"compiler", function.compiler},
                  {"codegen", function.codegen},
                  {"artifact", function.artifact}};
    if (!function.compiled.empty()) {
      entry["codegen_version"] = function.codegenVersion;
      entry["compiled"] = function.compiled;
    }
    functions.push_back(std::move(entry));
  }
  root["external_functions"] = std::move(functions);
  root["inputs"] = tensorsToJson(manifest.inputs);
  root["outputs"] = tensorsToJson(manifest.outputs);
  root["files"] = manifest.files;
  return root.dump(2) + "\n";
}

Result<Manifest> parseManifest(std::string_view text, std::string_view fileName) {
  BYOC_ASSIGN_OR_RETURN(json root, parseJsonDocument(text, fileName));
  return ManifestReader(fileName).read(root);
}

}  // namespace byoc
