#include "target/predicate_check.h"

#include <string_view>

#include "ir/op.h"
#include "target/predicate_syntax.h"

namespace byoc {

namespace {

using predicate::Function;
using predicate::Node;

/// What a sub-expression is known to give before it is evaluated (`Any`: an attribute's value).
enum class Kind { Any, Bool, Number, String, List, None };

std::string describe(Kind kind) {
  switch (kind) {
    case Kind::Any: return "a value";
    case Kind::Bool: return "a condition";
    case Kind::Number: return "a number";
    case Kind::String: return "a string";
    case Kind::List: return "a list";
    case Kind::None: return "None";
  }
  return "a value";
}

/// What each function of the language gives.
Kind resultOf(Function function) {
  switch (function) {
    case Function::Op:
    case Function::DType: return Kind::String;
    case Function::Shape:
    case Function::ArgDTypes: return Kind::List;
    case Function::Rank:
    case Function::Numel:
    case Function::NumArgs: return Kind::Number;
    case Function::IsConstant:
    case Function::StaticShape: return Kind::Bool;
    case Function::Attr: return Kind::Any;
  }
  return Kind::Any;
}

class Checker {
 public:
  explicit Checker(std::span<const std::string> ops) : ops_(ops) {}

  /// The kind `node` gives; recursive over the tree, which the parser's nesting limit bounds.
  Result<Kind> kindOf(const Node& node) {
    switch (node.kind) {
      case Node::Kind::Literal: return literalKind(node.literal);
      case Node::Kind::List:
        for (const auto& child : node.children) BYOC_TRY(kindOf(*child).status());
        return Kind::List;
      case Node::Kind::Attribute:
        BYOC_TRY(checkAttribute(node, node.name));
        return Kind::Any;
      case Node::Kind::Call: return callKind(node);
      case Node::Kind::Not:
      case Node::Kind::And:
      case Node::Kind::Or:
        for (const auto& child : node.children) BYOC_TRY(condition(*child));
        return Kind::Bool;
      case Node::Kind::Compare: return compareKind(node);
      case Node::Kind::Index:
      case Node::Kind::Slice: return indexedKind(node);
      case Node::Kind::IfThenElse: {
        BYOC_TRY(condition(*node.children[0]));
        BYOC_ASSIGN_OR_RETURN(Kind whenTrue, kindOf(*node.children[1]));
        BYOC_ASSIGN_OR_RETURN(Kind whenFalse, kindOf(*node.children[2]));
        return whenTrue == whenFalse ? whenTrue : Kind::Any;
      }
    }
    return Kind::Any;
  }

  /// `node` must give a condition.
  Status condition(const Node& node) {
    BYOC_ASSIGN_OR_RETURN(Kind kind, kindOf(node));
    if (kind != Kind::Bool && kind != Kind::Any)
      return error(node, "expected a condition (True or False), found " + describe(kind));
    return Status::ok();
  }

 private:
  static Diagnostic error(const Node& node, const std::string& message) {
    return makeError(std::to_string(node.line) + ":" + std::to_string(node.column) + ": " + message);
  }

  /// `list[i]` gives any value and `list[a:b]` a list; the value must be a list, the bounds numbers.
  Result<Kind> indexedKind(const Node& node) {
    BYOC_ASSIGN_OR_RETURN(Kind value, kindOf(*node.children[0]));
    if (value != Kind::List && value != Kind::Any) return error(node, "expected a list to index, found " + describe(value));
    for (std::size_t i = 1; i < node.children.size(); ++i) {
      BYOC_ASSIGN_OR_RETURN(Kind bound, kindOf(*node.children[i]));
      const bool allowed = bound == Kind::Number || bound == Kind::Any || (node.kind == Node::Kind::Slice && bound == Kind::None);
      if (!allowed) return error(*node.children[i], "expected an integer index, found " + describe(bound));
    }
    return node.kind == Node::Kind::Slice ? Kind::List : Kind::Any;
  }

  static Kind literalKind(const AttrValue& value) {
    if (value.isBool()) return Kind::Bool;
    if (value.isInt() || value.isFloat()) return Kind::Number;
    if (value.isString()) return Kind::String;
    if (value.isList()) return Kind::List;
    return Kind::None;
  }

  /// `name`, an attribute of the call, must be an attribute of every op the call may be.
  Status checkAttribute(const Node& at, const std::string& name) const {
    for (const std::string& op : ops_) {
      const OpDef* def = OpRegistry::global().find(op);
      if (!def || def->field(name)) continue;
      std::string known;
      for (const AttrField& field : def->attrs) known += (known.empty() ? "" : ", ") + field.name;
      return error(at, "'" + name + "' is not an attribute of " + op +
                           (known.empty() ? " (it has none)" : " (it has " + known + ")"));
    }
    return Status::ok();
  }

  static Status checkPath(const Node& node) {
    if (node.kind != Node::Kind::Attribute) return error(node, "expected a path such as self, arg0 or arg1.arg0");
    if (!predicate::parsePath(node.name))
      return error(node, "expected a path such as self, arg0 or arg1.arg0, found '" + node.name + "'");
    return Status::ok();
  }

  Result<Kind> callKind(const Node& node) {
    Result<Function> function = predicate::resolveCall(node);
    if (!function) return error(node, function.error().message);
    if (*function == Function::Attr) {
      const Node& path = *node.children[0];
      BYOC_TRY(checkPath(path));
      if (predicate::parsePath(path.name)->empty()) BYOC_TRY(checkAttribute(path, node.children[1]->literal.asString()));
    } else if (!node.children.empty()) {
      BYOC_TRY(checkPath(*node.children[0]));
    }
    return resultOf(*function);
  }

  Result<Kind> compareKind(const Node& node) {
    BYOC_ASSIGN_OR_RETURN(Kind left, kindOf(*node.children[0]));
    BYOC_ASSIGN_OR_RETURN(Kind right, kindOf(*node.children[1]));
    const std::string& op = node.name;
    if (op == "in") {
      if (right != Kind::List && right != Kind::Any)
        return error(node, "'in' needs a list on its right, found " + describe(right));
    } else if (op != "==" && op != "!=") {
      auto numeric = [](Kind kind) { return kind == Kind::Number || kind == Kind::Any; };
      if (!numeric(left) || !numeric(right))
        return error(node, "'" + op + "' compares numbers, found " + describe(left) + " and " + describe(right));
    }
    return Kind::Bool;
  }

  std::span<const std::string> ops_;
};

}  // namespace

Status checkPredicate(const Predicate& predicate, std::span<const std::string> ops) {
  return Checker(ops).condition(predicate.syntax());
}

}  // namespace byoc
