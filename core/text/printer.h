#pragma once
/// \file
/// Printer of the Relay text format, laid out the way TVM prints (temporaries `%0`, `%1`, …
/// numbered in the order TVM numbers them, scopes for `if` branches and functions).

#include <string>

#include "ir/expr.h"
#include "ir/module.h"

namespace byoc {

struct PrintOptions {
  /// Append `/* ty=… */` after each typed expression, as TVM does.
  bool showTypes = false;
  /// Append the metadata section with the values of non-scalar constants.
  bool showMetadata = true;
};

/// `#[version = "0.0.5"]` followed by every function as `def @name(…) { … }`.
std::string printModule(const Module& module, const PrintOptions& options = {});
/// `#[version = "0.0.5"]` followed by one expression (a function prints as `fn (…) { … }`).
std::string printExpr(const Expr& expr, const PrintOptions& options = {});

}  // namespace byoc
