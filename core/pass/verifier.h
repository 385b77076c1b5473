#pragma once
/// \file
/// The module verifier: invariants every pass must keep, checked between passes in tests
/// (and on demand in the GUI and CLI).
///
/// - types: every expression but ops carries a checked type, and running `InferType` again
///   would change nothing (the types are consistent with the graph);
/// - scoping: every variable a function uses is bound in it (a parameter or a `let`), so
///   no pass left a dangling reference behind when it moved code around;
/// - origins: every expression but ops maps back to the loaded model;
/// - annotations: `annotation.compiler_begin` / `compiler_end` are balanced per target: the
///   values of a region of target T flow only into T's nodes or into `compiler_end(T)`, a
///   `compiler_end(T)` closes only values of a region of T, a `compiler_begin` opens a region
///   only on a value outside every region, no node mixes values of two regions, no function
///   returns a value still inside a region, and no region takes a value computed from its own
///   output (the dataflow between regions is acyclic, so every region can be outlined).
/// The error names the check, the node and its function, at the node's source location
/// when the module's provenance knows it.

#include <memory>

#include "ir/module.h"
#include "pass/pass.h"
#include "support/result.h"

namespace byoc {

/// Which invariants `verifyModule` checks.
struct VerifyOptions {
  bool types = true;
  bool scoping = true;
  bool origins = true;
  bool annotations = true;
};

/// Checks `module`; the first violation found is the error.
Status verifyModule(const Module& module, const VerifyOptions& options = {});

/// An instrument running `verifyModule` after every pass, and checking the pass's claim of no
/// change (the very same function nodes must come back); a violation fails that pass with the
/// message `after PASS: …`.
std::shared_ptr<PassInstrument> makeVerifierInstrument(VerifyOptions options = {});

}  // namespace byoc
