#pragma once
/// \file
/// Structural equality and hashing of expressions and modules, up to renaming of bound
/// variables (alpha-equivalence). Checked types are not compared; annotations are.

#include <cstddef>

#include "ir/expr.h"

namespace byoc {

class Module;

/// True when `lhs` and `rhs` have the same graph structure, ops, attributes, constants and
/// annotations, with variables matched one-to-one.
bool structuralEqual(const Expr& lhs, const Expr& rhs);
/// The same over modules: same function names, in the same order, structurally equal.
bool structuralEqual(const Module& lhs, const Module& rhs);

/// A hash consistent with `structuralEqual`.
std::size_t structuralHash(const Expr& expr);
std::size_t structuralHash(const Module& module);

}  // namespace byoc
