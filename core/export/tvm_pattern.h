#pragma once
/// \file
/// A dataflow pattern (pattern/pattern.h) as Python building the same pattern with TVM's
/// `tvm.relay.dataflow_pattern` API: `is_op`, `wildcard`, `is_constant`, `is_var`, `is_expr`,
/// `is_tuple`, `is_tuple_get_item`, `|`, `has_attr`, `has_type`, `has_dtype`, `has_shape`,
/// `dominates`, `is_if`, `is_let`, `FunctionPattern`.
///
/// A node reached more than once, or named in the pattern text, is bound to a Python variable so
/// that the very same pattern node is shared, as the pattern language requires; a recursive
/// pattern declares its wildcard first and closes the cycle with `redirect_to`.
/// Errors name the node that has no TVM form: an expression pattern other than an op or a scalar
/// literal (TVM compares global functions by identity), or a type pattern without a type.

#include <set>
#include <string>
#include <vector>

#include "pattern/pattern.h"
#include "support/result.h"

namespace byoc {

/// Python statements and an expression that build one pattern.
struct PythonPattern {
  /// Statements binding the shared and named nodes, in an order where each name is bound before
  /// it is used (one statement per entry, no indentation).
  std::vector<std::string> statements;
  /// The expression of the root pattern.
  std::string root;
  /// The names it uses from `tvm.relay.dataflow_pattern`.
  std::set<std::string> imports;
};

/// Translates `pattern`.
Result<PythonPattern> patternAsPython(const Pattern& pattern);

/// The names a translated pattern relies on (`tvm`, `relay` and every name of the dataflow pattern
/// API it may import), which generated code must never rebind.
const std::set<std::string>& tvmPatternApiNames();

}  // namespace byoc
