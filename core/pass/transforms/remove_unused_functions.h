#pragma once
/// \file
/// RemoveUnusedFunctions: drops the global functions no entry function reaches.
///
/// Input: any module. Output: the module without the functions that are not reachable, through
/// `@name` references, from the entry function (option `entry_function`, default `main`).
/// Nothing else changes.

#include "pass/registry.h"

namespace byoc {

/// `module` keeping only what `entry` reaches.
Module removeUnusedFunctions(const Module& module, const std::string& entry = "main");

/// The pass.
PassPtr createRemoveUnusedFunctionsPass(std::string entry = "main");

/// Metadata and factory for the registry.
PassRegistration removeUnusedFunctionsRegistration();

}  // namespace byoc
