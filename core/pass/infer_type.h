#pragma once
/// \file
/// InferType: computes the checked type of every expression of every function.
///
/// Input: any module whose variables are annotated where their types cannot be derived
/// (function parameters, and the variables of recursive let-bound functions unless the
/// function has a full signature). Output: the same module with every node's type set;
/// nodes already carrying the right type are kept, so a second run changes nothing.
/// Errors name the node's source location (from the module's provenance) and what did not fit.

#include "ir/module.h"
#include "pass/pass.h"
#include "pass/registry.h"
#include "support/result.h"

namespace byoc {

/// How much of a typed module InferType recomputes.
enum class TypeReuse {
  KeepUnchanged,  ///< a node whose children did not change keeps its type
  RecomputeAll,   ///< every type is computed again (what a verifier needs)
  /// A typed node that refers to no global function keeps its type and everything under it is
  /// left unvisited: for a module typed by `inferTypes` that a pass then changed (the nodes it
  /// built are untyped), this types only the new nodes. What passes use.
  KeepTypedSubgraphs,
};

/// Types every function of `module`. Given a pass context, stops with its `cancelled` error between
/// functions once it is cancelled.
Result<Module> inferTypes(const Module& module, TypeReuse reuse = TypeReuse::KeepUnchanged,
                          const PassContext* context = nullptr);

/// The `InferType` pass; passes retyping their own output use `TypeReuse::KeepTypedSubgraphs`.
PassPtr createInferTypePass(TypeReuse reuse = TypeReuse::KeepUnchanged);

/// Metadata and factory for the registry.
PassRegistration inferTypeRegistration();

}  // namespace byoc
