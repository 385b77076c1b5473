#pragma once
/// \file
/// Small helpers the passes share about functions: their attributes, and rebuilding one
/// over a new body.

#include <string>
#include <string_view>
#include <vector>

#include "ir/expr.h"
#include "ir/traversal.h"

namespace byoc {

/// True when `attrs` has `name` set to a non-zero integer or `true` (`Primitive=1`, `Inline=1`).
bool hasNonzeroAttr(const Attrs& attrs, std::string_view name);

/// True for functions passes must not look into: fused or outlined (`Primitive=1`) or owned
/// by an external codegen (`Compiler=…`).
bool isPrimitiveOrExternal(const FunctionNode& function);

/// Whether anything under `function` calls one of the ops named in `ops`.
bool callsAnyOf(const Function& function, const std::vector<std::string>& ops);

/// `function` over `body`: the very same node when `body` is its body; otherwise a new function
/// with the same parameters, return type, attributes and origin, and no checked type.
Function withBody(const Function& function, const Expr& body);

/// The type type inference gives a function of `params` returning `results` (the one result, or
/// a tuple of them): what a call of an outlined function can carry from the start, so that the
/// nodes rebuilt above the call keep their types. Null when a parameter or result is untyped.
Type outlinedFunctionType(const std::vector<Var>& params, const std::vector<Expr>& results);

/// A mutator that leaves primitive and external functions (see `isPrimitiveOrExternal`) untouched.
class OpaqueFunctionSkippingMutator : public ExprMutator {
 protected:
  bool shouldDescend(const Expr& node) override;
};

}  // namespace byoc
