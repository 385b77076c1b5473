#pragma once
/// \file
/// The predicate language of targets: conditions over one call, used by op-support rules
/// (`nn.conv2d when dtype(arg0) == "float32" and groups == 1`) and by pattern checks.
///
/// Grammar (keywords are lower case):
///   expr       := "if" expr "then" expr "else" expr | or
///   or         := and ("or" and)*
///   and        := not ("and" not)*
///   not        := "not" not | comparison
///   comparison := operand (("==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not" "in") operand)?
///   operand    := literal | "[" (expr ("," expr)*)? "]" | "(" expr ")" | name "(" args ")" | name
///   literal    := integer | float | "string" | True | False | None
/// A bare name is an attribute of the call (`groups`); a path names a node relative to the call:
/// `self`, `arg0`, `arg1.arg0` (argument 0 of argument 1), …
/// Functions: op(path) → op name ("" if not an op call); dtype(path); shape(path); rank(path);
/// numel(path); attr(path, "name"); is_constant(path); num_args(path); arg_dtypes(path) → list of the
/// argument dtypes; static_shape(path) → whether the node and its arguments have only known
/// dimensions (no `?`). `path` defaults to `self` when omitted.

#include <memory>
#include <string>
#include <string_view>

#include "ir/attrs.h"
#include "ir/expr.h"
#include "support/result.h"

namespace byoc {

namespace predicate {
struct Node;
}

/// A parsed condition. Cheap to copy (shares the syntax tree).
class Predicate {
 public:
  /// Parses `text`; errors are `line:column: found X, expected Y`, with `where` prefixed.
  /// `firstColumn` is the column of the text's first character (when it is part of a longer line).
  static Result<Predicate> parse(std::string_view text, std::string_view where = {}, int firstColumn = 1);

  /// Evaluates the condition on `call` (which should be type-checked); a value that is not a
  /// bool, or a path that does not exist, is an error naming the sub-expression.
  Result<bool> evaluate(const Expr& call) const;

  /// The text it was parsed from.
  const std::string& text() const { return text_; }
  /// The syntax tree (target/predicate_syntax.h), for tools that translate conditions.
  const predicate::Node& syntax() const { return *root_; }

 private:
  std::shared_ptr<const predicate::Node> root_;
  std::string text_;
};

}  // namespace byoc
