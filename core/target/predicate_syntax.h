#pragma once
/// \file
/// The syntax tree of a parsed predicate (target/predicate.h), read-only, and the table of the
/// language's functions. The evaluator walks the tree, and so do the checker and anything that
/// translates a rule into another language; all of them take the functions from the one table.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/attrs.h"
#include "support/result.h"

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

/// The functions of the language.
enum class Function { Op, DType, Shape, Rank, Numel, Attr, IsConstant, NumArgs, ArgDTypes, StaticShape };

/// One function: its name and the most arguments it takes. `attr` takes a path and an attribute
/// name in quotes; every other function takes a path, `self` when left out.
struct FunctionSpec {
  std::string_view name;
  Function function;
  std::size_t maxArgs;
};

inline constexpr FunctionSpec kFunctions[] = {
    {"op", Function::Op, 1},          {"dtype", Function::DType, 1},          {"shape", Function::Shape, 1},
    {"rank", Function::Rank, 1},      {"numel", Function::Numel, 1},          {"attr", Function::Attr, 2},
    {"is_constant", Function::IsConstant, 1}, {"num_args", Function::NumArgs, 1}, {"arg_dtypes", Function::ArgDTypes, 1},
    {"static_shape", Function::StaticShape, 1},
};

/// The functions' names as errors list them: `op, dtype, … or static_shape`.
std::string functionList();

/// The function the Call node `call` names, its arguments checked against it (their number, and
/// attr's form). The error's message says what is wrong; the caller places it at `call`.
Result<Function> resolveCall(const Node& call);

/// The argument indices a path names, outermost first: `self` and `result` → {}, `arg1.arg0` →
/// {1, 0}; nothing if `name` is not a path.
std::optional<std::vector<std::size_t>> parsePath(std::string_view name);

}  // namespace byoc::predicate
