#pragma once
/// \file
/// Progress and cancellation of a pipeline run on a worker thread.
///
/// The instrument reports each pass as it starts, and after each pass checks a shared flag: once
/// the flag is set, the pass that just finished fails with `cancelled after PASS`, so the
/// pipeline stops between passes and the caller keeps the last complete module (a snapshot
/// recorder placed before this instrument has it).

#include <atomic>
#include <functional>
#include <memory>
#include <string>

#include "pass/pass.h"

namespace byoc {

/// Called before each pass with its name and nesting depth (0 for the pipeline itself).
using PassProgressCallback = std::function<void(const std::string& pass, int depth)>;

/// The instrument. `cancel` may be set from any thread; `progress` may be empty.
std::shared_ptr<PassInstrument> makeProgressInstrument(PassProgressCallback progress,
                                                       std::shared_ptr<const std::atomic<bool>> cancel);

}  // namespace byoc
