/// \file
/// `byoc export-tvm`: a target as a TVM Python module (export/tvm_python.h), printed, or written
/// atomically to `-o OUT.py`.

#include <iostream>

#include "commands.h"
#include "export/tvm_python.h"
#include "support/file_io.h"
#include "session/partitioning.h"

namespace byoc::cli {

int runExportTvm(const Options& options) {
  const std::string targetName = *options.value("--target");
  Result<Target> target = openTarget(targetName);
  if (!target) return reportError(target.error());
  Result<std::string> python = targetAsTvmPython(*target);
  if (!python) {
    Diagnostic error = python.error();
    error.location.file = targetName;
    return reportError(error);
  }
  std::optional<std::string> out = options.value("-o");
  if (!out) {
    std::cout << *python;
    return 0;
  }
  Status written = writeFileAtomic(*out, *python);
  return written ? 0 : reportError(written.error());
}

}  // namespace byoc::cli
