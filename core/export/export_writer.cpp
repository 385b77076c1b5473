#include "export/export_writer.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <utility>

#include "export/module_params.h"
#include "export/sha256.h"
#include "export/signature.h"
#include "export/staging.h"
#include "frontend/json_format.h"
#include "ir/function_attrs.h"
#include "kernel_graph/kernel_graph_json.h"
#include "pass/infer_type.h"
#include "runtime/dnnl/kernel_graph_builder.h"
#include "runtime/dnnl/kernel_rules.h"
#include "runtime/runtime_module.h"
#include "support/file_io.h"
#include "text/printer.h"

namespace byoc {

namespace {

namespace fs = std::filesystem;

std::string codegenFor(const std::string& compiler, const std::vector<ManifestTarget>& targets) {
  for (const ManifestTarget& target : targets)
    if (target.name == compiler) return target.codegen.empty() ? "reference" : target.codegen;
  return findCodegen(compiler) ? compiler : "reference";
}

/// Applies to every kernel of `graph`, the region `name` of `module`, the checks the artifact's
/// reader applies, so that an export never holds a kernel graph it cannot load. Errors are located
/// at the kernel's IR node.
Status checkKernels(const kernel_graph::KernelGraph& graph, const Module& module, const std::string& name) {
  const kernel_graph::KernelRules rules = dnnl_backend::kernelRules();
  for (const kernel_graph::KernelNode& node : graph.nodes) {
    if (node.kind != kernel_graph::KernelNodeKind::Kernel) continue;
    const Status accepted = rules.check(graph, node);
    if (!accepted) return graph.locate(node, makeError("@" + name + " (dnnl): " + accepted.error().message), &module);
  }
  return Status::ok();
}

/// The artifact of the external function `name`, its constants collected into `params`: the kernel
/// graph for the dnnl codegen (the one given in `options`, else read from the function), the
/// function's IR in the JSON form for the others.
Result<std::string> artifactOf(const Module& module, const std::string& name, const Function& function,
                               const std::string& codegen, const ExportOptions& options, ParamCollector& params) {
  auto given = options.kernelGraphs.find(name);
  if (given != options.kernelGraphs.end()) {
    if (codegen != "dnnl")
      return makeError("@" + name + " is defined by a kernel graph, which only the dnnl codegen runs, not \"" + codegen + "\"");
    return kernel_graph::writeKernelGraphJson(*given->second, params);
  }
  if (codegen == "dnnl") {
    BYOC_ASSIGN_OR_RETURN(kernel_graph::KernelGraph graph, dnnl_backend::buildKernelGraph(function, &module));
    BYOC_TRY(checkKernels(graph, module, name));
    return kernel_graph::writeKernelGraphJson(graph, params);
  }
  Module artifact;
  artifact.set(name, function);
  return params.externalize(saveModuleJson(artifact));
}

/// The files of the compiled region `name` for codegens that keep regions compiled (plugins), under
/// `artifacts/<name>/`; nothing for the others. A plugin codegen that is not loaded is an error.
Result<CodegenArtifact> compiledFilesOf(const Module& module, const std::string& name, const Function& function,
                                        ManifestFunction& entry) {
  const Codegen* codegen = findCodegen(entry.codegen);
  if (!codegen && entry.codegen.starts_with("plugin:"))
    return makeError("@" + name + ": the codegen " + entry.codegen +
                     " is not loaded; give the plugin with --plugin PATH or put it on BYOC_PLUGIN_PATH");
  if (!codegen || !codegen->compile) return CodegenArtifact{};
  Result<CodegenArtifact> artifact = codegen->compile(function, CodegenOptions{1, &module});
  if (!artifact) {
    Diagnostic error = artifact.error();
    error.message = "@" + name + " (" + entry.codegen + "): " + error.message;
    return error;
  }
  entry.codegenVersion = codegen->version;
  for (const auto& file : artifact->files) entry.compiled.push_back("artifacts/" + name + "/" + file.first);
  return artifact;
}

/// Writes the files of one export into a directory, recording their checksums.
class ExportWriter {
 public:
  ExportWriter(const fs::path& directory, const ExportOptions& options, Manifest& manifest)
      : directory_(directory), options_(options), manifest_(manifest) {}

  Status write(const std::string& relative, const std::string& content, bool checksum = true) {
    const fs::path path = directory_ / relative;
    std::error_code error;
    fs::create_directories(path.parent_path(), error);
    if (error) return makeError("cannot create the directory: " + error.message(), {path.parent_path().string()});
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);  // less the umask
    if (fd < 0) return makeError(std::string("cannot create: ") + std::strerror(errno), {path.string()});
    if (Status written = writeToDescriptor(fd, content, path.string()); !written) {
      ::close(fd);
      return written;
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) return makeError(std::string("flush failed: ") + std::strerror(errno), {path.string()});
    if (checksum) manifest_.files[relative] = sha256Hex(content);
    return options_.onFileWritten ? options_.onFileWritten(relative) : Status::ok();
  }

 private:
  fs::path directory_;
  const ExportOptions& options_;
  Manifest& manifest_;
};

/// The error that refuses to replace `out`, saying why and what to do instead.
Diagnostic refuseToReplace(const fs::path& out, const std::string& why) {
  return makeError("not replacing this directory: " + why + "; choose another output directory, or move this one away first",
                   {out.string()});
}

/// The relative paths of the files an export of `manifest` consists of: its manifest and every
/// file the manifest lists.
std::set<std::string> exportFilesOf(const Manifest& manifest) {
  std::set<std::string> files = {std::string(kManifestFileName)};
  for (const auto& [relative, digest] : manifest.files) files.insert(relative);
  return files;
}

/// The folders (relative paths) that hold `files`, innermost first.
std::vector<fs::path> foldersOf(const std::set<std::string>& files) {
  std::set<fs::path> folders;
  for (const std::string& file : files)
    for (fs::path folder = fs::path(file).parent_path(); !folder.empty(); folder = folder.parent_path()) folders.insert(folder);
  std::vector<fs::path> innermostFirst(folders.begin(), folders.end());
  std::sort(innermostFirst.begin(), innermostFirst.end(), [](const fs::path& a, const fs::path& b) {
    return std::distance(a.begin(), a.end()) > std::distance(b.begin(), b.end());
  });
  return innermostFirst;
}

/// Checks that the directory `out` holds nothing but `files` (regular files, relative paths) in
/// their folders: no other file, folder or link.
Status checkHoldsOnly(const fs::path& out, const std::set<std::string>& files) {
  std::set<std::string> folders;
  for (const fs::path& folder : foldersOf(files)) folders.insert(folder.generic_string());
  std::error_code error;
  fs::recursive_directory_iterator it(out, error);  // never follows links
  for (; !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    const std::string relative = it->path().lexically_relative(out).generic_string();
    const fs::file_status status = it->symlink_status(error);
    if (error) break;
    if (fs::is_directory(status) && folders.count(relative)) continue;
    if (fs::is_regular_file(status) && files.count(relative)) continue;
    return refuseToReplace(out, "it holds \"" + relative + "\", which is not a file its manifest.json lists");
  }
  if (error) return refuseToReplace(out, "cannot list its content (" + error.message() + ")");
  return Status::ok();
}

/// Refuses an `out` that exists and is not a directory (a file, a device, a symbolic link).
Status checkDirectoryOrAbsent(const fs::path& out) {
  std::error_code error;
  const fs::file_status status = fs::symlink_status(out, error);
  if (!fs::exists(status)) return Status::ok();
  if (fs::is_symlink(status)) return refuseToReplace(out, "it is a symbolic link");
  if (!fs::is_directory(status)) return makeError("exists and is not a directory; not replacing it", {out.string()});
  return Status::ok();
}

/// Checks that this process may remove `files` from the export `out` (write access to `out` and its
/// folders), so that a replaced export is never swapped aside and then left there as a hidden copy.
Status checkRemovable(const fs::path& out, const std::set<std::string>& files) {
  std::vector<fs::path> folders = foldersOf(files);
  folders.emplace_back();  // `out` itself
  for (const fs::path& folder : folders) {
    const fs::path path = (out / folder).lexically_normal();
    if (::faccessat(AT_FDCWD, path.c_str(), W_OK | X_OK, AT_EACCESS) != 0)
      return refuseToReplace(out, "its files cannot be removed from \"" + (folder.empty() ? fs::path(".") : folder).generic_string() +
                                      "\" (" + std::strerror(errno) + ")");
  }
  return Status::ok();
}

/// The files (relative paths) of the existing `out` that replacing it removes: none when `out`
/// does not exist or is an empty directory; the files of the export when `out` is verifiably an
/// export (a manifest of this format, and nothing but that manifest and the files it lists).
/// Anything else is refused.
Result<std::set<std::string>> replaceableContent(const fs::path& out) {
  BYOC_TRY(checkDirectoryOrAbsent(out));
  std::error_code error;
  if (!fs::exists(fs::symlink_status(out, error)) || fs::is_empty(out, error)) return std::set<std::string>();
  const fs::path manifestPath = out / kManifestFileName;
  if (!fs::is_regular_file(fs::symlink_status(manifestPath, error)))
    return makeError("exists and is not an export directory (no manifest.json); not replacing it", {out.string()});
  Result<std::string> text = readFile(manifestPath.string());
  if (!text) return refuseToReplace(out, "its manifest.json cannot be read (" + text.error().message + ")");
  Result<Manifest> manifest = parseManifest(*text, manifestPath.string());
  if (!manifest) return refuseToReplace(out, "its manifest.json is not the manifest of an export (" + manifest.error().message + ")");
  std::set<std::string> files = exportFilesOf(*manifest);
  BYOC_TRY(checkHoldsOnly(out, files));
  BYOC_TRY(checkRemovable(out, files));
  return files;
}

/// Removes the replaced export that `publish` moved to `old`: the `files` it was verified to
/// consist of, the folders that become empty, and `old` itself once empty. Anything that appeared
/// there since stays, and then the error names the folder left behind.
Status removeReplacedExport(const fs::path& old, const std::set<std::string>& files, const fs::path& out) {
  std::error_code ignored;
  for (const std::string& file : files) fs::remove(old / file, ignored);
  for (const fs::path& folder : foldersOf(files)) fs::remove(old / folder, ignored);  // only if empty
  std::error_code error;
  fs::remove(old, error);
  if (!error) return Status::ok();
  return makeError("the export is written, but the previous one could not be removed from " + old.string() + " (" +
                       error.message() + "); remove it by hand",
                   {out.string()});
}

/// Moves the complete `staged` directory to `out`, swapping atomically with an existing `out`;
/// the old content ends up at `staged`.
Status publish(const fs::path& staged, const fs::path& out) {
  std::error_code error;
  if (fs::exists(out, error)) {
    if (::renameat2(AT_FDCWD, staged.c_str(), AT_FDCWD, out.c_str(), RENAME_EXCHANGE) != 0)
      return makeError(std::string("cannot replace the directory: ") + std::strerror(errno), {out.string()});
    return Status::ok();
  }
  if (std::rename(staged.c_str(), out.c_str()) != 0)
    return makeError(std::string("cannot create the directory: ") + std::strerror(errno), {out.string()});
  return Status::ok();
}

}  // namespace

Status exportModule(const Module& partitioned, const ExportOptions& options, const std::string& out) {
  fs::path outPath = fs::path(out).lexically_normal();
  if (!outPath.has_filename()) outPath = outPath.parent_path();  // `OUT/` names OUT
  if (outPath.empty() || outPath.filename() == "." || outPath.filename() == "..")
    return makeError("expected the name of a new or export directory", {out});
  BYOC_TRY(checkDirectoryOrAbsent(outPath));  // before a lock file is made beside a device or a file
  // Held until the replaced export is removed: what is replaced is what was checked.
  BYOC_ASSIGN_OR_RETURN(const ExportLock lock, ExportLock::acquire(outPath));
  BYOC_ASSIGN_OR_RETURN(const std::set<std::string> replaced, replaceableContent(outPath));
  BYOC_ASSIGN_OR_RETURN(Module module, inferTypes(partitioned));
  Function main = module.find("main");
  if (!main) return makeError("the module has no @main");

  Manifest manifest;
  manifest.producer = options.producer;
  manifest.targets = options.targets;
  manifest.hostModule = "host.json";
  manifest.hostText = "host.relay";
  manifest.params = "params.safetensors";
  signatureOf(main, manifest.inputs, manifest.outputs);

  removeStaleStaging(outPath);
  BYOC_ASSIGN_OR_RETURN(StagingDirectory staging, StagingDirectory::createBeside(outPath));
  ExportWriter writer(staging.path(), options, manifest);
  ParamCollector params;
  Module host = module;
  for (const auto& [name, function] : module.functions()) {
    const std::string compiler = regionCompiler(*function);
    if (compiler.empty()) continue;
    const std::string symbol = globalSymbol(*function);
    ManifestFunction entry{name, symbol.empty() ? name : symbol, compiler,
                           codegenFor(compiler, options.targets), "artifacts/" + name + ".json", {}, {}};
    BYOC_ASSIGN_OR_RETURN(std::string artifactJson, artifactOf(module, name, function, entry.codegen, options, params));
    BYOC_TRY(writer.write(entry.artifact, artifactJson));
    BYOC_ASSIGN_OR_RETURN(CodegenArtifact compiled, compiledFilesOf(module, name, function, entry));
    for (std::size_t i = 0; i < compiled.files.size(); ++i) BYOC_TRY(writer.write(entry.compiled[i], compiled.files[i].second));
    manifest.functions.push_back(std::move(entry));
    host.erase(name);
  }
  BYOC_ASSIGN_OR_RETURN(std::string hostJson, params.externalize(saveModuleJson(host)));
  BYOC_TRY(writer.write(manifest.hostModule, hostJson));
  BYOC_TRY(writer.write(manifest.hostText, printModule(host)));
  BYOC_TRY(writer.write(manifest.params, params.safetensors()));
  BYOC_TRY(writer.write(std::string(kManifestFileName), writeManifest(manifest), /*checksum=*/false));
  BYOC_TRY(staging.unmark());
  BYOC_TRY(publish(staging.path(), outPath));
  return removeReplacedExport(staging.release(), replaced, outPath);
}

}  // namespace byoc
