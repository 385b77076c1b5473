#include "export/export_reader.h"

#include <filesystem>

#include "export/module_params.h"
#include "export/safetensors.h"
#include "export/sha256.h"
#include "export/signature.h"
#include "frontend/json_format.h"
#include "ir/function_attrs.h"
#include "kernel_graph/kernel_graph_json.h"
#include "pass/infer_type.h"
#include "runtime/dnnl/dnnl_module.h"
#include "runtime/dnnl/kernel_rules.h"
#include "support/file_io.h"
#include "support/safe_path.h"

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
    if (!fs::exists(fs::symlink_status(path, error))) return makeError("missing file, listed in manifest.json", {path});
    Result<ContainedFile> file = resolveInside(directory_.string(), relative);
    if (!file) return makeError(file.error().message, {path});
    BYOC_ASSIGN_OR_RETURN(std::string content, readFile(file->path));
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

/// Loads the module `text` of the export file `path` with its constants taken from `params`.
Result<Module> loadExportedModule(const std::string& text, const std::string& path, const SafetensorsIndex& params,
                                  const std::string& paramsPath) {
  BYOC_ASSIGN_OR_RETURN(std::string resolved, internalizeConstants(text, params, path, paramsPath));
  return loadModuleJson(resolved, path);
}

/// The function that declares `graph`'s signature in the loaded module: typed parameters, the
/// external function's attributes, and a free variable `%kernel_graph` of the result type as body.
Function declarationOf(const kernel_graph::KernelGraph& graph, const ManifestFunction& function) {
  const Type functionType = graph.functionType();
  const auto* type = functionType->as<FuncTypeNode>();
  const std::vector<std::string> names = graph.inputNames();
  std::vector<Var> params;
  for (std::size_t i = 0; i < names.size(); ++i) params.push_back(VarNode::make(names[i], type->params[i]));
  Attrs attrs;
  attrs.set(attr::kCompiler, function.compiler);
  attrs.set(attr::kGlobalSymbol, function.symbol);
  return FunctionNode::make(std::move(params), VarNode::make("kernel_graph", type->ret), type->ret, std::move(attrs));
}

/// Whether `file` names a file inside `directory` (lexically).
bool isInside(const std::string& file, const std::string& directory) {
  const fs::path relative = fs::path(file).lexically_normal().lexically_relative(fs::path(directory).lexically_normal());
  return !relative.empty() && *relative.begin() != "..";
}

/// The compiled files of `function`, read (each checksum checked) but not loaded.
Status readCompiled(const ExportFiles& files, const ManifestFunction& function, LoadedExport& loaded) {
  CodegenArtifact& artifact = loaded.compiled[function.name];
  for (const std::string& relative : function.compiled) {
    BYOC_ASSIGN_OR_RETURN(std::string bytes, files.read(relative));
    artifact.files.emplace_back(fs::path(relative).filename().string(), std::move(bytes));
  }
  loaded.compiledFolders[function.name] = fs::path(files.path(function.compiled.front())).parent_path().string();
  return Status::ok();
}

/// Loads the compiled files of `function` through the plugin that compiled them, which must be
/// in the version that did.
Result<std::unique_ptr<RuntimeModule>> loadCompiled(const ManifestFunction& function, const CodegenArtifact& artifact,
                                                    const std::string& folder, const std::string& manifestPath,
                                                    const std::string& symbol, const CodegenOptions& options) {
  // The executor has found the codegen before it asks for the region.
  const Codegen* codegen = findCodegen(function.codegen);
  if (!codegen || !codegen->load)
    return makeError("@" + function.name + " has compiled files, which the codegen " + function.codegen + " does not load", {manifestPath});
  if (codegen->version != function.codegenVersion)
    return makeError("@" + function.name + " was compiled by " + function.codegen + " " + function.codegenVersion +
                         ", the loaded plugin is version " + codegen->version + "; export the model again",
                     {manifestPath});
  // The executor's module is type-checked; the region's type is what the plugin's outputs are checked against.
  const Function typed = options.module ? options.module->find(function.name) : Function();
  if (!typed) return makeError("@" + function.name + " is not in the module");
  return codegen->load(typed, symbol, artifact, folder, options);
}

}  // namespace

Diagnostic locatedInExport(Diagnostic error, const std::string& directory) {
  if (isInside(error.location.file, directory)) return error;
  if (!error.location.file.empty())
    error.notes.push_back("the node comes from " + error.location.str() + " of the model the export was made from");
  error.location = {directory};
  return error;
}

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
  if (!fs::exists(fs::symlink_status(manifestPath, error)))
    return makeError("missing file: an export directory holds a manifest.json", {manifestPath});
  Result<ContainedFile> file = resolveInside(directory, kManifestFileName);
  if (!file) return makeError(file.error().message, {manifestPath});
  BYOC_ASSIGN_OR_RETURN(std::string manifestText, readFile(file->path));
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

  BYOC_ASSIGN_OR_RETURN(std::string hostText, files.read(manifest.hostModule));
  BYOC_ASSIGN_OR_RETURN(loaded.module, loadExportedModule(hostText, files.path(manifest.hostModule), params, paramsPath));
  for (const ManifestFunction& function : manifest.functions) {
    BYOC_ASSIGN_OR_RETURN(std::string text, files.read(function.artifact));
    const std::string path = files.path(function.artifact);
    Function body;
    if (kernel_graph::isKernelGraphJson(text)) {
      if (function.codegen != "dnnl")
        return makeError("a kernel graph, which only the dnnl codegen runs, for codegen \"" + function.codegen + "\"", {path});
      BYOC_ASSIGN_OR_RETURN(kernel_graph::KernelGraph graph, kernel_graph::readKernelGraphJson(text, path, params, paramsPath, dnnl_backend::kernelRules()));
      body = declarationOf(graph, function);
      loaded.kernelGraphs[function.name] = std::make_shared<const kernel_graph::KernelGraph>(std::move(graph));
    } else {
      BYOC_ASSIGN_OR_RETURN(Module artifact, loadExportedModule(text, path, params, paramsPath));
      body = artifact.find(function.name);
    }
    if (!body) return makeError("expected the function @" + function.name, {path});
    if (!function.compiled.empty()) BYOC_TRY(readCompiled(files, function, loaded));
    if (loaded.module.find(function.name))
      return makeError("@" + function.name + " is both in the host module and an artifact", {files.path(function.artifact)});
    loaded.module.set(function.name, body);
  }
  if (!loaded.module.find("main")) return makeError("the host module has no @main", {files.path(manifest.hostModule)});
  Result<Module> typed = inferTypes(loaded.module, TypeReuse::RecomputeAll);
  if (!typed) return locatedInExport(typed.error(), directory);
  BYOC_TRY(checkSignature(manifest, typed->find("main"), files.path(std::string(kManifestFileName))));
  return loaded;
}

ExecutorOptions exportExecutorOptions(const LoadedExport& loaded, CompiledRegions compiled, int threads) {
  ExecutorOptions options;
  options.threads = threads;
  options.codegens = exportCodegens(loaded.manifest);
  for (const auto& [name, graph] : loaded.kernelGraphs)
    options.loadedRegions[name] = [graph = graph](const std::string& symbol, const CodegenOptions& codegenOptions) {
      return dnnl_backend::buildDnnlModule(*graph, symbol, codegenOptions);
    };
  const std::string manifestPath = (fs::path(loaded.directory) / kManifestFileName).string();
  for (const ManifestFunction& function : loaded.manifest.functions) {
    auto artifact = loaded.compiled.find(function.name);
    if (artifact == loaded.compiled.end()) continue;
    if (compiled == CompiledRegions::Reference) options.codegens[function.compiler] = "reference";
    if (compiled != CompiledRegions::Trust) continue;
    options.loadedRegions[function.name] = [function, manifestPath, artifact = artifact->second,
                                            folder = loaded.compiledFolders.at(function.name)](
                                               const std::string& symbol, const CodegenOptions& codegenOptions) {
      return loadCompiled(function, artifact, folder, manifestPath, symbol, codegenOptions);
    };
  }
  return options;
}

Result<std::unique_ptr<Executor>> createExportExecutor(const LoadedExport& loaded, CompiledRegions compiled, int threads) {
  Result<std::unique_ptr<Executor>> executor = Executor::create(loaded.module, exportExecutorOptions(loaded, compiled, threads));
  if (!executor) return locatedInExport(executor.error(), loaded.directory);
  return executor;
}

}  // namespace byoc
