#pragma once
/// \file
/// Pass steps written by hand, for tests of the timeline and overlays.
///
/// A test writes a module the way a pass would leave it (tests/data/ui/steps/*.relay) and
/// `snapshotFromText` gives its nodes the origins a pass would have kept: the k-th call of an op
/// or of a local variable such as `%while_loop` (in post-order over the module) gets the origin of
/// the k-th such call in the loaded module; every other node gets no origin. The step files
/// therefore keep the loaded model's order of calls of each op and variable.

#include <string>

#include "ir/module.h"

namespace byoc::testing {

/// Parses and type-checks `text`, then maps its op calls onto `loaded`'s; fails the test on bad input.
Module snapshotFromText(const std::string& text, const Module& loaded);

/// Parses and type-checks `text`; fails the test on bad input.
Module typedModuleFromText(const std::string& text, const std::string& fileName = "in.relay");

}  // namespace byoc::testing
