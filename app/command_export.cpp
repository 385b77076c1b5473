/// \file
/// `byoc export`: load, partition for the `--target`s, write the export directory `-o OUT`. SIGINT
/// or SIGTERM during the write stops it: OUT stays as it was, no staging folder is left, and the
/// exit status is 128 + the signal.
/// `byoc verify`: load an export directory (every checksum and compiled file name checked) and build
/// its executor, regions a plugin compiled built from their IR on the reference codegen: verifying
/// runs no code the export carries and no plugin.

#include <csignal>
#include <cstring>
#include <iostream>

#include "commands.h"
#include "export/export_reader.h"
#include "session/export_partitioned.h"
#include "model_input.h"
#include "version.h"

namespace byoc::cli {

namespace {

/// The signal (SIGINT or SIGTERM) that asked a running export to stop, or 0.
volatile std::sig_atomic_t stopSignal = 0;

extern "C" void requestStop(int signal) { stopSignal = signal; }

/// While it lives, SIGINT and SIGTERM ask the export to stop at its next file: it then removes its
/// staging folder and leaves OUT as it was. A second signal ends the process at once (the next
/// export removes the staging folder it leaves).
class StopOnSignal {
 public:
  StopOnSignal() {
    struct sigaction action {};
    action.sa_handler = requestStop;
    action.sa_flags = SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, &previousInt_);
    ::sigaction(SIGTERM, &action, &previousTerm_);
  }
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;
  ~StopOnSignal() {
    ::sigaction(SIGINT, &previousInt_, nullptr);
    ::sigaction(SIGTERM, &previousTerm_, nullptr);
  }

 private:
  struct sigaction previousInt_ {};
  struct sigaction previousTerm_ {};
};

}  // namespace

int runExport(const Options& options) {
  Result<OpenedModel> opened = openInput(options);
  if (!opened) return reportError(opened.error());
  Result<PartitionedModel> partitioned = partitionForTargets(options, opened->module);
  if (!partitioned) return reportError(partitioned.error());
  const std::string out = *options.value("-o");
  ExportRequest request{out, std::string("byoc-studio ") + BYOC_STUDIO_VERSION, [](const std::string&) -> Status {
                          return stopSignal ? Status(makeError("interrupted by SIG" + std::string(sigabbrev_np(stopSignal)) +
                                                               "; nothing was written"))
                                            : Status::ok();
                        }};
  Status written = [&] {
    StopOnSignal stopOnSignal;
    return exportPartitioned(*opened, partitioned->module, partitioned->targets, request);
  }();
  if (stopSignal) {
    if (!written) reportError(makeError(written.error().message, {out}));
    return 128 + stopSignal;
  }
  if (!written) return reportError(written.error());
  Result<Manifest> manifest = readExportManifest(out);
  if (!manifest) return reportError(manifest.error());
  std::cout << "wrote " << out << ": " << manifest->functions.size() << " external function(s), "
            << manifest->files.size() + 1 << " files\n";
  for (const ManifestFunction& function : manifest->functions)
    std::cout << "  @" << function.name << "  codegen=" << function.codegen << "  " << function.artifact << "\n";
  return 0;
}

int runVerify(const Options& options) {
  Result<LoadedExport> loaded = loadExport(*options.file);
  if (!loaded) return reportError(loaded.error());
  Result<std::unique_ptr<Executor>> executor = createExportExecutor(*loaded, CompiledRegions::Reference);
  if (!executor) return reportError(executor.error());
  std::cout << "ok: " << loaded->manifest.files.size() << " checksums match, " << (*executor)->regions().size()
            << " artifact(s) built\n";
  for (const RegionInfo& region : (*executor)->regions())
    std::cout << "  " << region.label() << "  codegen=" << region.codegen << "\n";
  for (const ManifestFunction& function : loaded->manifest.functions)
    if (!function.compiled.empty())
      std::cout << "  @" << function.name << ": " << function.compiled.size() << " file(s) compiled by " << function.codegen << " "
                << function.codegenVersion << " checked, not loaded; its IR built on the reference codegen\n";
  return 0;
}

}  // namespace byoc::cli
