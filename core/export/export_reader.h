#pragma once
/// \file
/// Loading an export directory written by `exportModule` (export_writer.h): the manifest is read
/// first, every file it lists is checked against its SHA-256, the parameters are indexed, and the
/// host module is rebuilt with each external function taken from its artifact (a kernel graph
/// for dnnl, the function's IR otherwise; docs/export-format.md).
///
/// Loading an export runs none of the native code it may hold: the compiled files of a region a
/// codegen plugin compiled are read and checked, and are loaded (through their plugin, in its
/// host) only when the export is run with `CompiledRegions::Trust`.
///
/// Every failure names the file and what is wrong: a missing file, a checksum mismatch, a newer
/// format version, a truncated parameter file, offsets past the data, an artifact that references
/// a constant the parameters do not hold, a kernel graph that does not hold together.

#include <map>
#include <memory>
#include <string>

#include "export/manifest.h"
#include "ir/module.h"
#include "kernel_graph/kernel_graph.h"
#include "runtime/executor.h"
#include "support/result.h"

namespace byoc {

/// A loaded export: its manifest, the partitioned module and the kernel graphs of its dnnl
/// external functions. Such a function's entry in `module` only declares its signature (its
/// body is a free variable `%kernel_graph` of the result type): the graph is its definition.
struct LoadedExport {
  std::string directory;
  Manifest manifest;
  Module module;
  /// Global name → the kernel graph of that dnnl external function.
  std::map<std::string, std::shared_ptr<const kernel_graph::KernelGraph>> kernelGraphs;
  /// Global name → the compiled files of that external function (a plugin codegen's), which lie
  /// in the folder `compiledFolders` names. Read and checked, never loaded by `loadExport`.
  std::map<std::string, CodegenArtifact> compiled;
  std::map<std::string, std::string> compiledFolders;
};

/// `Compiler` value → codegen, as `manifest` records for its targets and external functions.
std::map<std::string, std::string> exportCodegens(const Manifest& manifest);

/// Whether `path` looks like an export directory (a directory holding a manifest.json).
bool isExportDirectory(const std::string& path);

/// `error` located in the export `directory`: an error that names another file (the model the
/// export was made from, through the module's provenance) is moved to `directory`, that place kept
/// as a note. A tampered export is reported where it is.
Diagnostic locatedInExport(Diagnostic error, const std::string& directory);

/// Reads and checks only the manifest of the export in `directory`.
Result<Manifest> readExportManifest(const std::string& directory);

/// Loads the export in `directory`, checking every checksum, every compiled file's name, the types
/// of the module (computed again) and that the manifest records the signature of its `@main`. No
/// codegen or plugin is needed, and none of the export's compiled code is loaded.
Result<LoadedExport> loadExport(const std::string& directory);

/// What becomes of the regions a codegen plugin compiled when an export is built to run.
enum class CompiledRegions {
  /// Compiled again from their IR through their plugin: the export's compiled files do not run.
  Rebuild,
  /// The export's compiled files loaded as they are through their plugin, which must be loaded in
  /// the version that compiled them: for exports whose files the user trusts.
  Trust,
  /// Built from their IR on the reference codegen: no plugin code runs at all (`byoc verify`).
  Reference,
};

/// The options that run a loaded export: each external function through its recorded codegen, the
/// kernel graphs compiled by the dnnl codegen (the options share the graphs), and plugin-compiled
/// regions as `compiled` says.
ExecutorOptions exportExecutorOptions(const LoadedExport& loaded, CompiledRegions compiled = CompiledRegions::Rebuild, int threads = 1);

/// Builds the executor of a loaded export with `exportExecutorOptions`.
Result<std::unique_ptr<Executor>> createExportExecutor(const LoadedExport& loaded, CompiledRegions compiled = CompiledRegions::Rebuild,
                                                       int threads = 1);

}  // namespace byoc
