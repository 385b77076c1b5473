#pragma once
/// \file
/// Writing a partitioned model as an export directory (docs/export-format.md), for the command
/// line (`byoc export`) and the app's File > Export Partitioned Module alike. An opened export
/// exported again keeps its targets' codegens and its kernel graphs.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ir/module.h"
#include "session/opened_model.h"
#include "support/result.h"
#include "target/target.h"

namespace byoc {

/// Where and how to write an export.
struct ExportRequest {
  /// The directory to write (replaced only if it is an export directory or empty).
  std::string directory;
  /// Recorded in the manifest, e.g. "byoc-studio 0.1.0".
  std::string producer;
  /// Told each file written; its error (a cancel, a signal) stops the export with nothing written.
  std::function<Status(const std::string& file)> onFileWritten;
};

/// Writes `partitioned`, the module of `opened` partitioned for `targets`, as `request` says.
Status exportPartitioned(const OpenedModel& opened, const Module& partitioned,
                         const std::vector<std::shared_ptr<const Target>>& targets, const ExportRequest& request);

}  // namespace byoc
