#pragma once
/// \file
/// What a pass step changed, in a few words for the timeline: the differences in the number of
/// global functions, composite functions, annotation calls and other calls between two modules.

#include <QString>

#include "ir/module.h"

namespace byoc::ui {

/// Counts of the things the partitioning passes add and remove.
struct ModuleCounts {
  int functions = 0;    ///< global functions
  int composites = 0;   ///< function literals with a `Composite` attribute
  int annotations = 0;  ///< calls of annotation.compiler_begin / compiler_end
  int calls = 0;        ///< every other call
};

/// The counts of `module` (nodes shared between functions are counted once).
ModuleCounts countModule(const Module& module);

/// `+2 composites, −6 calls`, listing only the counts that differ, in the order of ModuleCounts;
/// empty when none does.
QString describeChange(const ModuleCounts& before, const ModuleCounts& after);

}  // namespace byoc::ui
