#pragma once
/// \file
/// Replacing variables by expressions throughout a graph (binding parameters to values).

#include <unordered_map>

#include "ir/expr.h"

namespace byoc {

/// Variable → the expression that replaces it.
using VarBindings = std::unordered_map<const VarNode*, Expr>;

/// `expr` with every use of a bound variable replaced by its value; unchanged parts are shared.
Expr substitute(const Expr& expr, const VarBindings& bindings);

}  // namespace byoc
