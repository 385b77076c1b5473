#pragma once
/// \file
/// Progress of a pipeline run on a worker thread: the instrument reports each pass as it starts.
/// (Stopping a run is the context's job: see `PassContext::cancel`.)

#include <functional>
#include <memory>
#include <string>

#include "pass/pass.h"

namespace byoc {

/// Called before each pass with its name and nesting depth (0 for the outermost invocation).
using PassProgressCallback = std::function<void(const std::string& pass, int depth)>;

/// The instrument, calling `progress` (which must not be empty).
std::shared_ptr<PassInstrument> makeProgressInstrument(PassProgressCallback progress);

}  // namespace byoc
