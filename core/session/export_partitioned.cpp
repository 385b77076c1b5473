#include "session/export_partitioned.h"

#include <algorithm>

#include "export/export_writer.h"
#include "runtime/reference_check.h"

namespace byoc {

Status exportPartitioned(const OpenedModel& opened, const Module& partitioned,
                         const std::vector<std::shared_ptr<const Target>>& targets, const ExportRequest& request) {
  ExportOptions options;
  options.producer = request.producer;
  options.onFileWritten = request.onFileWritten;
  if (opened.exported) {
    options.targets = opened.exported->manifest.targets;
    options.kernelGraphs = opened.exported->kernelGraphs;
  }
  for (const auto& target : targets) {
    auto same = std::find_if(options.targets.begin(), options.targets.end(),
                             [&](const ManifestTarget& recorded) { return recorded.name == target->name; });
    if (same != options.targets.end()) same->codegen = targetCodegen(*target);
    else options.targets.push_back({target->name, targetCodegen(*target)});
  }
  return exportModule(partitioned, options, request.directory);
}

}  // namespace byoc
