#include "export/tvm_predicate.h"

#include <utility>
#include <vector>

#include "export/python_text.h"
#include "target/predicate_syntax.h"

namespace byoc {

namespace {

using predicate::Node;

/// Python precedence levels, loosest first: `x if c else y`, `or`, `and`, `not`, comparisons,
/// and primaries (calls, literals, subscripts).
enum Level : int { kConditional, kOr, kAnd, kNot, kComparison, kPrimary };

/// What a rule value is known to be before it is computed, which decides whether plain Python
/// operators mean the same as the rule language's.
enum class Known { Bool, Number, String, IntList, List, Unknown };

/// A translated sub-expression.
struct Py {
  std::string text;
  Level level;
  Known known;
};

/// The helpers, each with the helpers it calls, in the order they are written.
struct Helper {
  const char* name;
  std::vector<const char*> calls;
  const char* source;
};

const std::vector<Helper>& helperTable() {
  static const std::vector<Helper> helpers = {
      {"_bool", {},
       "def _bool(value):\n"
       "    \"\"\"`value`, which a condition needs to be True or False.\"\"\"\n"
       "    if not isinstance(value, bool):\n"
       "        raise ValueError(\"expected a condition (True or False), found %r\" % (value,))\n"
       "    return value\n"},
      {"_number", {},
       "def _number(value):\n"
       "    \"\"\"`value`, which an ordering needs to be a number.\"\"\"\n"
       "    if isinstance(value, bool) or not isinstance(value, (int, float)):\n"
       "        raise ValueError(\"expected a number, found %r\" % (value,))\n"
       "    return value\n"},
      {"_same", {},
       "def _same(a, b):\n"
       "    \"\"\"Equality of rule values: numbers by value (1 == 1.0), lists item by item, True only with True.\"\"\"\n"
       "    if isinstance(a, bool) or isinstance(b, bool):\n"
       "        return isinstance(a, bool) and isinstance(b, bool) and a == b\n"
       "    if isinstance(a, list) and isinstance(b, list):\n"
       "        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))\n"
       "    return a == b\n"},
      {"_in", {"_same"},
       "def _in(item, items):\n"
       "    \"\"\"Whether `items`, a list, holds a value equal to `item`.\"\"\"\n"
       "    if not isinstance(items, list):\n"
       "        raise ValueError(\"'in' needs a list on its right, found %r\" % (items,))\n"
       "    return any(_same(item, x) for x in items)\n"},
      {"_op_name", {},
       "def _op_name(expr):\n"
       "    \"\"\"The name of the op `expr` calls, or \\\"\\\" when it is not a call of an op.\"\"\"\n"
       "    if isinstance(expr, relay.Call) and isinstance(expr.op, tvm.ir.Op):\n"
       "        return expr.op.name\n"
       "    return \"\"\n"},
      {"_tensor_type", {},
       "def _tensor_type(expr):\n"
       "    \"\"\"The checked type of `expr`, which must be a tensor type.\"\"\"\n"
       "    if not isinstance(expr.checked_type, relay.TensorType):\n"
       "        raise ValueError(\"expected a typed tensor, found %s\" % (expr.checked_type,))\n"
       "    return expr.checked_type\n"},
      {"_shape", {"_tensor_type"},
       "def _shape(expr):\n"
       "    \"\"\"The shape of a typed tensor as a list of ints, -1 for a dimension that is not known.\"\"\"\n"
       "    return [int(dim) if isinstance(dim, tvm.tir.IntImm) else -1 for dim in _tensor_type(expr).shape]\n"},
      {"_numel", {"_shape"},
       "def _numel(expr):\n"
       "    \"\"\"The number of elements of a typed tensor, -1 when a dimension is not known.\"\"\"\n"
       "    count = 1\n"
       "    for dim in _shape(expr):\n"
       "        if dim < 0:\n"
       "            return -1\n"
       "        count *= dim\n"
       "    return count\n"},
      {"_value", {},
       "def _value(value):\n"
       "    \"\"\"A TVM attribute value as a Python value: bool, int, float, str, list or None.\"\"\"\n"
       "    if isinstance(value, tvm.tir.IntImm):\n"
       "        return bool(value.value) if value.dtype == \"bool\" else int(value.value)\n"
       "    if isinstance(value, tvm.tir.FloatImm):\n"
       "        return float(value.value)\n"
       "    if isinstance(value, str):\n"
       "        return str(value)\n"
       "    if isinstance(value, (tvm.ir.Array, list, tuple)):\n"
       "        return [_value(item) for item in value]\n"
       "    return value\n"},
      {"_attr", {"_value"},
       "def _attr(expr, name):\n"
       "    \"\"\"The attribute `name` of the call `expr`, or None when it has none.\"\"\"\n"
       "    if not isinstance(expr, relay.Call) or expr.attrs is None or name not in expr.attrs.keys():\n"
       "        return None\n"
       "    value = _value(expr.attrs[name])\n"
       "    if isinstance(value, int) and any(field.name == name and field.type_info == \"bool\"\n"
       "                                      for field in expr.attrs.list_field_info()):\n"
       "        return bool(value)  # TVM hands bool fields over as 0 or 1\n"
       "    return value\n"},
      {"_num_args", {},
       "def _num_args(expr):\n"
       "    \"\"\"The number of arguments of the call `expr`, 0 when it is not a call.\"\"\"\n"
       "    return len(expr.args) if isinstance(expr, relay.Call) else 0\n"},
      {"_arg_dtypes", {},
       "def _arg_dtypes(expr):\n"
       "    \"\"\"The dtypes of the arguments of the call `expr` that are typed tensors.\"\"\"\n"
       "    if not isinstance(expr, relay.Call):\n"
       "        return []\n"
       "    return [arg.checked_type.dtype for arg in expr.args if isinstance(arg.checked_type, relay.TensorType)]\n"},
      {"_static_shape", {},
       "def _static_shape(expr):\n"
       "    \"\"\"Whether `expr` and the arguments of the call `expr` have no unknown (Any) dimension.\"\"\"\n"
       "    types = [expr.checked_type] + ([arg.checked_type for arg in expr.args] if isinstance(expr, relay.Call) else [])\n"
       "    while types:\n"
       "        ty = types.pop()\n"
       "        if isinstance(ty, relay.TupleType):\n"
       "            types.extend(ty.fields)\n"
       "        elif isinstance(ty, relay.TensorType) and not all(isinstance(dim, tvm.tir.IntImm) for dim in ty.shape):\n"
       "            return False\n"
       "    return True\n"},
  };
  return helpers;
}

class Translator {
 public:
  Result<PythonCondition> run(const Node& root) {
    BYOC_ASSIGN_OR_RETURN(Py value, translate(root));
    std::string text = condition(value, kConditional);
    return PythonCondition{std::move(text), std::move(helpers_)};
  }

 private:
  static Diagnostic error(const Node& node, const std::string& message) {
    return makeError(std::to_string(node.line) + ":" + std::to_string(node.column) + ": " + message);
  }

  std::string helper(const char* name, const std::string& arguments) {
    helpers_.insert(name);
    return std::string(name) + "(" + arguments + ")";
  }

  /// `value` as an operand needing at least `level`.
  static std::string at(const Py& value, Level level) {
    return value.level < level ? "(" + value.text + ")" : value.text;
  }

  /// `value` where a condition (True or False) is needed.
  std::string condition(const Py& value, Level level) {
    return value.known == Known::Bool ? at(value, level) : helper("_bool", value.text);
  }

  /// `value` needing at least `level`, and in parentheses also when it is an `and` (which Python
  /// would not need under an `or` or in a branch of `x if c else y`, but readers do).
  static std::string grouped(const Py& value, Level level) {
    return value.level == kAnd ? "(" + value.text + ")" : at(value, level);
  }

  /// `value` where a condition is needed, as `grouped`.
  std::string readable(const Py& value, Level level) {
    return value.known == Known::Bool ? grouped(value, level) : condition(value, level);
  }

  /// `value` where an ordering needs a number.
  std::string number(const Py& value) {
    return value.known == Known::Number ? at(value, kPrimary) : helper("_number", value.text);
  }

  /// The Python expression a path names, starting from `expr`.
  static Result<std::string> path(const Node& node) {
    if (node.kind != Node::Kind::Attribute) return error(node, "expected a path such as self, arg0 or arg1.arg0");
    std::optional<std::vector<std::size_t>> steps = predicate::parsePath(node.name);
    if (!steps) return error(node, "expected a path such as self, arg0 or arg1.arg0, found '" + node.name + "'");
    std::string text = "expr";
    for (std::size_t index : *steps) text += ".args[" + std::to_string(index) + "]";
    return text;
  }

  Result<Py> translate(const Node& node) {
    switch (node.kind) {
      case Node::Kind::Literal: {
        const AttrValue& value = node.literal;
        Known known = value.isBool() ? Known::Bool
                      : (value.isInt() || value.isFloat()) ? Known::Number
                      : value.isString() ? Known::String
                                         : Known::Unknown;
        return Py{pythonValue(value), kPrimary, known};
      }
      case Node::Kind::List: {
        std::string text = "[";
        bool ints = true;
        for (std::size_t i = 0; i < node.children.size(); ++i) {
          const Node& item = *node.children[i];
          BYOC_ASSIGN_OR_RETURN(Py value, translate(item));
          ints = ints && item.kind == Node::Kind::Literal && item.literal.isInt();
          text += (i ? ", " : "") + value.text;
        }
        return Py{text + "]", kPrimary, ints ? Known::IntList : Known::List};
      }
      case Node::Kind::Attribute:
        return Py{helper("_attr", "expr, " + pythonString(node.name)), kPrimary, Known::Unknown};
      case Node::Kind::Call:
        return function(node);
      case Node::Kind::Not: {
        const Node& operand = *node.children[0];
        if (operand.kind == Node::Kind::Compare && operand.name == "in") return membership(operand, true);
        BYOC_ASSIGN_OR_RETURN(Py value, translate(operand));
        return Py{"not " + condition(value, kNot), kNot, Known::Bool};
      }
      case Node::Kind::And:
      case Node::Kind::Or: {
        const bool isAnd = node.kind == Node::Kind::And;
        BYOC_ASSIGN_OR_RETURN(Py left, translate(*node.children[0]));
        BYOC_ASSIGN_OR_RETURN(Py right, translate(*node.children[1]));
        if (isAnd) return Py{condition(left, kAnd) + " and " + condition(right, kNot), kAnd, Known::Bool};
        return Py{readable(left, kOr) + " or " + readable(right, kAnd), kOr, Known::Bool};
      }
      case Node::Kind::Compare:
        return node.name == "in" ? membership(node, false) : compare(node);
      case Node::Kind::IfThenElse: {
        BYOC_ASSIGN_OR_RETURN(Py test, translate(*node.children[0]));
        BYOC_ASSIGN_OR_RETURN(Py then, translate(*node.children[1]));
        BYOC_ASSIGN_OR_RETURN(Py otherwise, translate(*node.children[2]));
        return Py{grouped(then, kNot) + " if " + readable(test, kNot) + " else " + grouped(otherwise, kNot), kConditional,
                  then.known == otherwise.known ? then.known : Known::Unknown};
      }
      case Node::Kind::Index:
      case Node::Kind::Slice:
        return indexed(node);
    }
    return error(node, "cannot be written in Python");
  }

  /// `value[i]` and `value[a:b]`: Python's own indexing and slicing, which the rule language follows.
  Result<Py> indexed(const Node& node) {
    BYOC_ASSIGN_OR_RETURN(Py value, translate(*node.children[0]));
    std::string bounds;
    for (std::size_t i = 1; i < node.children.size(); ++i) {
      const Node& bound = *node.children[i];
      if (i > 1) bounds += ":";
      if (bound.kind == Node::Kind::Literal && bound.literal.isNone()) continue;
      BYOC_ASSIGN_OR_RETURN(Py text, translate(bound));
      bounds += at(text, kConditional);
    }
    // An item of a list of ints (a shape) is a number; a slice keeps what its list is.
    const bool ints = value.known == Known::IntList;
    const Known known = node.kind == Node::Kind::Slice ? (ints ? Known::IntList : Known::List) : (ints ? Known::Number : Known::Unknown);
    return Py{at(value, kPrimary) + "[" + bounds + "]", kPrimary, known};
  }

  Result<Py> function(const Node& node) {
    Result<predicate::Function> function = predicate::resolveCall(node);
    if (!function) return error(node, function.error().message);
    using predicate::Function;
    std::string target = "expr";
    if (!node.children.empty()) {
      BYOC_ASSIGN_OR_RETURN(target, path(*node.children[0]));
    }
    switch (*function) {
      case Function::Attr:
        return Py{helper("_attr", target + ", " + pythonString(node.children[1]->literal.asString())), kPrimary, Known::Unknown};
      case Function::Op: return Py{helper("_op_name", target), kPrimary, Known::String};
      case Function::DType: return Py{helper("_tensor_type", target) + ".dtype", kPrimary, Known::String};
      case Function::Shape: return Py{helper("_shape", target), kPrimary, Known::IntList};
      case Function::Rank: return Py{"len(" + helper("_tensor_type", target) + ".shape)", kPrimary, Known::Number};
      case Function::Numel: return Py{helper("_numel", target), kPrimary, Known::Number};
      case Function::IsConstant: return Py{"isinstance(" + target + ", relay.Constant)", kPrimary, Known::Bool};
      case Function::NumArgs: return Py{helper("_num_args", target), kPrimary, Known::Number};
      case Function::ArgDTypes: return Py{helper("_arg_dtypes", target), kPrimary, Known::List};
      case Function::StaticShape: return Py{helper("_static_shape", target), kPrimary, Known::Bool};
    }
    return error(node, "unknown function '" + node.name + "'");  // every function is handled above
  }

  /// Whether Python's `==` on these operands means the rule language's equality.
  static bool plainEquality(const Py& left, const Py& right) {
    if (left.known == Known::String || right.known == Known::String) return true;
    return left.known == right.known &&
           (left.known == Known::Number || left.known == Known::Bool || left.known == Known::IntList);
  }

  Result<Py> compare(const Node& node) {
    BYOC_ASSIGN_OR_RETURN(Py left, translate(*node.children[0]));
    BYOC_ASSIGN_OR_RETURN(Py right, translate(*node.children[1]));
    const std::string& op = node.name;
    if (op == "==" || op == "!=") {
      if (plainEquality(left, right))
        return Py{at(left, kPrimary) + " " + op + " " + at(right, kPrimary), kComparison, Known::Bool};
      std::string same = helper("_same", left.text + ", " + right.text);
      return op == "==" ? Py{same, kPrimary, Known::Bool} : Py{"not " + same, kNot, Known::Bool};
    }
    return Py{number(left) + " " + op + " " + number(right), kComparison, Known::Bool};
  }

  /// `item in items`, or `not in` when `negated`.
  Result<Py> membership(const Node& node, bool negated) {
    BYOC_ASSIGN_OR_RETURN(Py item, translate(*node.children[0]));
    BYOC_ASSIGN_OR_RETURN(Py items, translate(*node.children[1]));
    const bool plain = (item.known == Known::String && (items.known == Known::List || items.known == Known::IntList)) ||
                       (item.known == Known::Number && items.known == Known::IntList);
    if (plain)
      return Py{at(item, kPrimary) + (negated ? " not in " : " in ") + at(items, kPrimary), kComparison, Known::Bool};
    std::string test = helper("_in", item.text + ", " + items.text);
    return negated ? Py{"not " + test, kNot, Known::Bool} : Py{test, kPrimary, Known::Bool};
  }

  std::set<std::string> helpers_;
};

}  // namespace

Result<PythonCondition> predicateAsPython(const Predicate& predicate) { return Translator().run(predicate.syntax()); }

std::string pythonConditionHelpers(const std::set<std::string>& helpers) {
  std::set<std::string> needed = helpers;
  // Close over the helpers' own calls; each helper calls only helpers listed before it or itself.
  for (auto it = helperTable().rbegin(); it != helperTable().rend(); ++it)
    if (needed.count(it->name))
      for (const char* called : it->calls) needed.insert(called);
  std::string text;
  for (const Helper& helper : helperTable())
    if (needed.count(helper.name)) text += std::string(helper.source) + "\n\n";
  return text;
}

}  // namespace byoc
