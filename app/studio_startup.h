#pragma once
/// \file
/// What byoc-studio does once a model is open, as its command line asks: the saved steps or the
/// partition shown after it and the step shown first, the Run panel's input shapes and a run, a
/// pattern added to the target's table. An option that cannot be followed is one error line on
/// stderr and exit status 2.

#include "studio_options.h"
#include "window/main_window.h"

namespace byoc::studio {

/// Connects the actions `options` ask for to `window`'s signals.
void scheduleStartupActions(ui::MainWindow& window, const StudioOptions& options);

}  // namespace byoc::studio
