#pragma once
/// \file
/// Writing a partitioned module as an export directory (docs/export-format.md):
///
///   manifest.json           format and producer versions, targets, external functions, signature, checksums
///   host.json, host.relay   the module without its external functions (JSON form; Relay text for people)
///   params.safetensors      every constant, referenced by key from the JSON files
///   artifacts/<name>.json   one per external function in its codegen's own form: the kernel graph
///                           for dnnl (kernel_graph/kernel_graph_json.h), the IR in the JSON form otherwise
///
/// Writing is atomic: everything goes to a staging folder beside OUT (export/staging.h), which then
/// replaces OUT in one step. On any failure OUT is unchanged and the staging folder is removed; the
/// staging folders of OUT left by a killed export are removed by the next export. An export holds
/// the lock of OUT throughout (export/staging.h): a second export of the same OUT meanwhile fails
/// with a message.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "export/manifest.h"
#include "ir/module.h"
#include "kernel_graph/kernel_graph.h"
#include "support/result.h"

namespace byoc {

/// What `exportModule` records besides the module.
struct ExportOptions {
  /// `byoc-studio <version>`, recorded as the producer.
  std::string producer;
  /// The targets the module was partitioned for; a function's `Compiler` is looked up here for its
  /// codegen (else the built-in codegen of that name, else `reference`).
  std::vector<ManifestTarget> targets;
  /// Kernel graphs that define external functions of the module (an export loaded back, whose
  /// dnnl functions only declare their signatures), by global name: written as they are.
  std::map<std::string, std::shared_ptr<const kernel_graph::KernelGraph>> kernelGraphs;
  /// Called after each file is written into the temporary directory (its relative path); an error
  /// stops the export, leaving OUT as it was. Progress and cancellation go through it.
  std::function<Status(const std::string& file)> onFileWritten;
};

/// Writes `module` (partitioned, with `@main`; type-checked here) to the directory `out`. An
/// existing `out` is replaced only if it is empty or verifiably an export: a manifest.json of this
/// format, and nothing but that manifest and the files it lists. Anything else is refused and left
/// untouched. Of a replaced export only the files its manifest lists and the folders that become
/// empty are removed.
Status exportModule(const Module& partitioned, const ExportOptions& options, const std::string& out);

}  // namespace byoc
