#pragma once
/// \file
/// The manifest of an export directory (`manifest.json`, see docs/export-format.md): what produced
/// it, for which targets, the external functions with their symbols, codegens and artifacts, the
/// signature of `@main`, and the SHA-256 of every other file.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "support/result.h"

namespace byoc {

/// Version of the export format this build writes and the newest it reads. Version 2 stores dnnl
/// external functions as kernel graphs; version 1 exports (every artifact IR) still load.
inline constexpr int kExportFormatVersion = 2;
/// The oldest version of the export format this build reads.
inline constexpr int kOldestExportFormatVersion = 1;
/// The name of the manifest inside an export directory.
inline constexpr std::string_view kManifestFileName = "manifest.json";

/// A target the module was partitioned for.
struct ManifestTarget {
  std::string name;     ///< The target's name, the `Compiler` value of its regions.
  std::string codegen;  ///< The codegen its regions run on.
};

/// One offloaded region: a global function compiled by `codegen`, stored in `artifact`.
struct ManifestFunction {
  std::string name;      ///< Global function name.
  std::string symbol;    ///< Its `global_symbol`.
  std::string compiler;  ///< Its `Compiler` (or `Codegen`) attribute.
  std::string codegen;   ///< The codegen that builds it at load.
  std::string artifact;  ///< Relative path of its artifact file.
  /// For a codegen that keeps regions compiled (a plugin's): the codegen's version, and the
  /// relative paths of the compiled files, all in one folder (empty for the others).
  std::string codegenVersion;
  std::vector<std::string> compiled;
};

/// A tensor of the signature of `@main`.
struct ManifestTensor {
  std::string name;            ///< Parameter name (empty for outputs).
  std::string dtype;           ///< Relay spelling (`float32`).
  std::vector<int64_t> shape;  ///< Dimensions, outermost first.
};

/// Everything `manifest.json` holds.
struct Manifest {
  int formatVersion = kExportFormatVersion;  ///< The version the directory was written in.
  std::string producer;  ///< `byoc-studio <version>`.
  std::vector<ManifestTarget> targets;     ///< The targets it was partitioned for, in priority order.
  std::string hostModule;  ///< Relative path of the host module (JSON form).
  std::string hostText;    ///< Relative path of its Relay text, for people.
  std::string params;      ///< Relative path of the parameters (safetensors).
  std::vector<ManifestFunction> functions;  ///< The external functions, in module order.
  std::vector<ManifestTensor> inputs;       ///< The parameters of `@main`, tuples flattened.
  std::vector<ManifestTensor> outputs;      ///< The results of `@main`, tuples flattened.
  /// Relative path → SHA-256 hex digest, for every file but the manifest.
  std::map<std::string, std::string> files;
};

/// The manifest as indented JSON.
std::string writeManifest(const Manifest& manifest);

/// Parses `text`; errors name `fileName` and the JSON path of the bad value. A format version
/// outside `kOldestExportFormatVersion`..`kExportFormatVersion` and a file path that leaves the
/// directory are rejected.
Result<Manifest> parseManifest(std::string_view text, std::string_view fileName);

}  // namespace byoc
