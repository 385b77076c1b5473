#pragma once
/// \file
/// Opening what a user names, for the command line and the app alike: a model file (ONNX, Relay
/// text, BYOC Studio JSON), an export directory or any file its manifest lists (which opens the
/// export: every checksum checked, none of its compiled code loaded), or the built-in demo. The
/// module comes back type-checked.

#include <memory>
#include <optional>
#include <string>

#include "export/export_reader.h"
#include "ir/module.h"
#include "support/result.h"

namespace byoc {

/// An opened model or export.
struct OpenedModel {
  /// The file or export directory opened (as given, or the export directory a listed file
  /// belongs to); empty for the demo.
  std::string path;
  /// The type-checked module: the model, or the export's partitioned module.
  Module module;
  /// The Relay text the module was parsed from, when its nodes are located in it and it was asked
  /// for (OpenOptions::keepSourceText); the demo always keeps it.
  std::optional<std::string> sourceText;
  /// The export opened; null for a model.
  std::shared_ptr<const LoadedExport> exported;
};

struct OpenOptions {
  /// Keep the text of a Relay model (to show it as written); a command that only runs the model
  /// does not need it.
  bool keepSourceText = false;
};

/// The export directory that opening `path` opens: `path` itself when it is an export directory,
/// else the directory of the export whose manifest lists `path` (its manifest.json, host.json,
/// host.relay, parameters or an artifact); nothing when `path` belongs to no export.
std::optional<std::string> exportDirectoryOf(const std::string& path);

/// Opens `path` (see the file comment). A directory that is no export is an error saying what an
/// export holds; other errors are the loader's or the type checker's.
Result<OpenedModel> openModel(const std::string& path, const OpenOptions& options = {});

/// The built-in demo (seed 000's loop of conv2d → bias_add → relu), type-checked.
Result<OpenedModel> openDemo();

/// The file of the model an export was made from, as its module's provenance names it; empty if
/// it names none.
std::string exportSourceFile(const LoadedExport& exported);

}  // namespace byoc
