#pragma once
/// \file
/// Driving the main window in tests: opening a model and waiting for its picture, and the demo
/// module and built-in targets the panels are fed with.

#include <QString>
#include <memory>

#include "window/main_window.h"
#include "ir/module.h"
#include "target/target.h"

namespace byoc::testing {

/// Opens `path` (the demo when empty) in `window` and waits until its graph is laid out; false on
/// failure or timeout.
bool openAndLayOut(ui::MainWindow& window, const QString& path = {});

/// Shows `window` at 1400×900, as the tests look at it, and opens `path` in it (openAndLayOut).
bool showAndOpen(ui::MainWindow& window, const QString& path = {});

/// Runs the relay flow for `target` on the model open in `window` and shows its last step; false on
/// failure or timeout.
bool partitionAndShowLastStep(ui::MainWindow& window, const QString& target);

/// The built-in demo, type-checked; fails the test run if it cannot be opened.
Module demoModule();

/// The built-in target `name`; fails the test run if it cannot be loaded.
std::shared_ptr<const Target> builtinTarget(const char* name);

}  // namespace byoc::testing
