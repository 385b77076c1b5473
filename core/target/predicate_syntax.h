#pragma once
/// \file
/// The syntax tree of a parsed predicate (target/predicate.h), read-only. The evaluator walks it,
/// and so can anything that translates a rule into another language.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/attrs.h"

namespace byoc::predicate {

/// One node of a parsed predicate.
struct Node {
  /// `Compare` holds its operator in `name` ("==", "!=", "<", "<=", ">", ">=", "in"); `not in` is
  /// `Not(Compare "in")`. `Attribute` is a bare name: an attribute of the call, or a path
  /// (`self`, `arg1.arg0`) where a function expects one. `Call` names the function in `name`.
  /// `Index` is `value[index]`; `Slice` is `value[start:stop]`, a bound left out being a None literal.
  enum class Kind { Literal, List, Attribute, Call, Not, And, Or, Compare, IfThenElse, Index, Slice };
  Kind kind;
  AttrValue literal;                          ///< Literal
  std::string name;                           ///< Attribute name, function name, or comparison operator
  std::vector<std::shared_ptr<const Node>> children;
  int line = 1;
  int column = 1;
};

/// The functions of the language, as errors list them.
inline constexpr std::string_view kFunctionList =
    "op, dtype, shape, rank, numel, attr, is_constant, num_args, arg_dtypes or static_shape";

/// The argument indices a path names, outermost first: `self` and `result` → {}, `arg1.arg0` →
/// {1, 0}; nothing if `name` is not a path.
std::optional<std::vector<std::size_t>> parsePath(std::string_view name);

}  // namespace byoc::predicate
