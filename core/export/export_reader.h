#pragma once
/// \file
/// Loading an export directory written by `exportModule` (export_writer.h): the manifest is read
/// first, every file it lists is checked against its SHA-256, the parameters are indexed, and the
/// host module is rebuilt with each external function taken from its artifact.
///
/// Every failure names the file and what is wrong: a missing file, a checksum mismatch, a newer
/// format version, a truncated parameter file, offsets past the data, an artifact that references
/// a constant the parameters do not hold.

#include <map>
#include <memory>
#include <string>

#include "export/manifest.h"
#include "ir/module.h"
#include "runtime/executor.h"
#include "support/result.h"

namespace byoc {

/// A loaded export: its manifest and the whole partitioned module.
struct LoadedExport {
  std::string directory;
  Manifest manifest;
  Module module;
};

/// `Compiler` value → codegen, as `manifest` records for its targets and external functions.
std::map<std::string, std::string> exportCodegens(const Manifest& manifest);

/// Whether `path` looks like an export directory (a directory holding a manifest.json).
bool isExportDirectory(const std::string& path);

/// Reads and checks only the manifest of the export in `directory`.
Result<Manifest> readExportManifest(const std::string& directory);

/// Loads the export in `directory`, checking every checksum.
Result<LoadedExport> loadExport(const std::string& directory);

/// Builds the executor of a loaded export, each external function through its recorded codegen.
Result<std::unique_ptr<Executor>> createExportExecutor(const LoadedExport& loaded, int threads = 1);

}  // namespace byoc
