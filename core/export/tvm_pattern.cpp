#include "export/tvm_pattern.h"

#include <cstring>
#include <unordered_map>

#include "export/python_text.h"
#include "ir/op.h"

namespace byoc {

namespace {

/// The Python value of a scalar constant, exact for its dtype.
std::string scalarValue(const TensorData& data) {
  const DType dtype = data.dtype();
  if (dtype == DType::Bool) return data.elementAsDouble(0) != 0 ? "True" : "False";
  if (dtype == DType::Int64) {
    int64_t value = 0;
    std::memcpy(&value, data.bytes().data(), sizeof value);
    return std::to_string(value);
  }
  if (isInteger(dtype)) return std::to_string(static_cast<int64_t>(data.elementAsDouble(0)));
  if (dtype == DType::Float64) return pythonFloat(data.elementAsDouble(0));
  return pythonFloat(static_cast<float>(data.elementAsDouble(0)));
}

/// A Relay type built in Python (`relay.TensorType([1, 3], "float32")`).
Result<std::string> typeAsPython(const Type& type) {
  if (!type) return makeError("has_type without a type has no TVM form");
  if (const auto* tensor = type->as<TensorTypeNode>()) {
    std::string dims;
    for (std::size_t i = 0; i < tensor->shape.size(); ++i)
      dims += (i ? ", " : "") + (tensor->shape[i] == kAnyDim ? std::string("relay.Any()") : std::to_string(tensor->shape[i]));
    return "relay.TensorType([" + dims + "], " + pythonString(dtypeName(tensor->dtype)) + ")";
  }
  auto list = [](const std::vector<Type>& types) -> Result<std::string> {
    std::string text = "[";
    for (std::size_t i = 0; i < types.size(); ++i) {
      BYOC_ASSIGN_OR_RETURN(std::string item, typeAsPython(types[i]));
      text += (i ? ", " : "") + item;
    }
    return text + "]";
  };
  if (const auto* tuple = type->as<TupleTypeNode>()) {
    BYOC_ASSIGN_OR_RETURN(std::string fields, list(tuple->fields));
    return "relay.TupleType(" + fields + ")";
  }
  const auto* function = type->as<FuncTypeNode>();
  BYOC_ASSIGN_OR_RETURN(std::string params, list(function->params));
  BYOC_ASSIGN_OR_RETURN(std::string ret, typeAsPython(function->ret));
  return "relay.FuncType(" + params + ", " + ret + ")";
}

class Translator {
 public:
  explicit Translator(const Pattern& root) : root_(root) {
    order_ = patternPostOrder(root_);
    uses_[root_.get()] = 1;
    for (const Pattern& node : order_)
      for (const Pattern& child : patternChildren(*node)) ++uses_[child.get()];
    assignNames();
  }

  Result<PythonPattern> run() {
    PythonPattern out;
    for (const Pattern& node : order_)
      if (isRedirected(node)) out.statements.push_back(names_.at(node.get()) + " = " + use("wildcard") + "()");
    for (const Pattern& node : order_) {
      auto name = names_.find(node.get());
      if (name == names_.end()) continue;
      if (isRedirected(node)) {
        BYOC_ASSIGN_OR_RETURN(std::string target, reference(node->as<WildcardPatternNode>()->redirect(), false));
        out.statements.push_back(name->second + ".redirect_to(" + target + ")");
      } else {
        BYOC_ASSIGN_OR_RETURN(std::string value, definition(node));
        out.statements.push_back(name->second + " = " + value);
      }
    }
    BYOC_ASSIGN_OR_RETURN(out.root, reference(root_, false));
    out.imports = std::move(imports_);
    return out;
  }

 private:
  static bool isRedirected(const Pattern& node) {
    const auto* wild = node->as<WildcardPatternNode>();
    return wild && wild->redirect();
  }

  bool needsName(const Pattern& node) const {
    return !node->name().empty() || uses_.at(node.get()) > 1 || isRedirected(node);
  }

  /// Names from the pattern text first, then `p0`, `p1`, … for the unnamed shared nodes.
  void assignNames() {
    std::set<std::string> taken = tvmPatternApiNames();
    for (const Pattern& node : order_)
      if (needsName(node) && !node->name().empty()) names_.emplace(node.get(), uniquePythonName(node->name(), taken));
    int generated = 0;
    for (const Pattern& node : order_) {
      if (!needsName(node) || names_.count(node.get())) continue;
      std::string name;
      do name = "p" + std::to_string(generated++);
      while (taken.count(name));
      names_.emplace(node.get(), uniquePythonName(name, taken));
    }
  }

  /// `name`, noting that it is imported.
  std::string use(const char* name) {
    imports_.insert(name);
    return name;
  }

  /// The node where it is used: its variable, or its expression (in parentheses when it is an
  /// alternative followed by a call or a method).
  Result<std::string> reference(const Pattern& node, bool postfixPosition) {
    if (auto it = names_.find(node.get()); it != names_.end()) return it->second;
    BYOC_ASSIGN_OR_RETURN(std::string text, definition(node));
    if (postfixPosition && node->kind() == PatternKind::Alt) return "(" + text + ")";
    return text;
  }

  Result<std::string> list(const std::optional<std::vector<Pattern>>& items) {
    if (!items) return std::string("None");
    std::string text = "[";
    for (std::size_t i = 0; i < items->size(); ++i) {
      BYOC_ASSIGN_OR_RETURN(std::string item, reference((*items)[i], false));
      text += (i ? ", " : "") + item;
    }
    return text + "]";
  }

  /// `, inner` after a type, dtype or shape, omitted for a plain wildcard (TVM's default).
  Result<std::string> innerSuffix(const Pattern& inner) {
    if (inner->kind() == PatternKind::Wildcard && !names_.count(inner.get())) return std::string();
    BYOC_ASSIGN_OR_RETURN(std::string text, reference(inner, false));
    return ", " + text;
  }

  Result<std::string> expression(const Expr& expr) {
    if (const auto* op = expr->as<OpNode>()) return use("is_op") + "(" + pythonString(op->name()) + ")";
    if (const auto* global = expr->as<GlobalVarNode>())
      return makeError("@" + global->name +
                       " (a global function) has no TVM pattern: TVM's is_expr compares global functions by identity, "
                       "not by name");
    const auto* constant = expr->as<ConstantNode>();
    if (!constant || !constant->data.isScalar() || constant->data.dtype() == DType::BFloat16)
      return makeError("an expression pattern that is not an op, a global function or a scalar literal has no TVM form");
    return use("is_expr") + "(relay.const(" + scalarValue(constant->data) + ", " +
           pythonString(dtypeName(constant->data.dtype())) + "))";
  }

  /// The node's own expression, with its children as references.
  Result<std::string> definition(const Pattern& pattern) {
    const PatternNode& node = *pattern;
    switch (node.kind()) {
      case PatternKind::Wildcard: return use("wildcard") + "()";  // a redirected one is always named
      case PatternKind::Expr: return expression(node.as<ExprPatternNode>()->expr);
      case PatternKind::Var: {
        const std::string& name = node.as<VarPatternNode>()->varName;
        return use("is_var") + "(" + (name.empty() ? std::string() : pythonString(name)) + ")";
      }
      case PatternKind::Constant: return use("is_constant") + "()";
      case PatternKind::Call: {
        const auto& call = *node.as<CallPatternNode>();
        BYOC_ASSIGN_OR_RETURN(std::string callee, reference(call.callee, true));
        if (!call.args) return callee + "(None)";
        BYOC_ASSIGN_OR_RETURN(std::string args, list(call.args));
        return callee + "(" + args.substr(1, args.size() - 2) + ")";
      }
      case PatternKind::Function: {
        const auto& function = *node.as<FunctionPatternNode>();
        BYOC_ASSIGN_OR_RETURN(std::string params, list(function.params));
        BYOC_ASSIGN_OR_RETURN(std::string body, reference(function.body, false));
        return use("FunctionPattern") + "(" + params + ", " + body + ")";
      }
      case PatternKind::Tuple: {
        BYOC_ASSIGN_OR_RETURN(std::string fields, list(node.as<TuplePatternNode>()->fields));
        return use("is_tuple") + "(" + fields + ")";
      }
      case PatternKind::TupleGetItem: {
        const auto& item = *node.as<TupleGetItemPatternNode>();
        BYOC_ASSIGN_OR_RETURN(std::string tuple, reference(item.tuple, false));
        return use("is_tuple_get_item") + "(" + tuple + (item.index < 0 ? "" : ", " + std::to_string(item.index)) + ")";
      }
      case PatternKind::Alt: {
        const auto& either = *node.as<AltPatternNode>();
        BYOC_ASSIGN_OR_RETURN(std::string left, reference(either.left, false));
        BYOC_ASSIGN_OR_RETURN(std::string right, reference(either.right, true));
        return left + " | " + right;
      }
      case PatternKind::Attr: {
        const auto& attr = *node.as<AttrPatternNode>();
        BYOC_ASSIGN_OR_RETURN(std::string inner, reference(attr.pattern, true));
        std::string dict;
        for (const auto& [key, value] : attr.attrs.entries())
          dict += (dict.empty() ? "" : ", ") + pythonString(key) + ": " + pythonValue(value);
        return inner + ".has_attr({" + dict + "})";
      }
      case PatternKind::Type: {
        const auto& typed = *node.as<TypePatternNode>();
        BYOC_ASSIGN_OR_RETURN(std::string type, typeAsPython(typed.type));
        BYOC_ASSIGN_OR_RETURN(std::string inner, innerSuffix(typed.pattern));
        return use("has_type") + "(" + type + inner + ")";
      }
      case PatternKind::DType: {
        const auto& typed = *node.as<DTypePatternNode>();
        BYOC_ASSIGN_OR_RETURN(std::string inner, innerSuffix(typed.pattern));
        return use("has_dtype") + "(" + pythonString(dtypeName(typed.dtype)) + inner + ")";
      }
      case PatternKind::Shape: {
        const auto& shaped = *node.as<ShapePatternNode>();
        std::string dims;
        for (std::size_t i = 0; i < shaped.shape.size(); ++i)
          dims += (i ? ", " : "") + (shaped.shape[i] == kAnyDim ? std::string("relay.Any()") : std::to_string(shaped.shape[i]));
        BYOC_ASSIGN_OR_RETURN(std::string inner, innerSuffix(shaped.pattern));
        return use("has_shape") + "([" + dims + "]" + inner + ")";
      }
      case PatternKind::Dominator: {
        const auto& dom = *node.as<DominatorPatternNode>();
        return call("dominates", {dom.parent, dom.path, dom.child});
      }
      case PatternKind::If: {
        const auto& branch = *node.as<IfPatternNode>();
        return call("is_if", {branch.cond, branch.thenBranch, branch.elseBranch});
      }
      case PatternKind::Let: {
        const auto& let = *node.as<LetPatternNode>();
        return call("is_let", {let.var, let.value, let.body});
      }
    }
    return makeError(std::string("a pattern of kind ") + patternKindName(node.kind()) + " has no TVM form");
  }

  /// `function(a, b, c)` over references to `args`.
  Result<std::string> call(const char* function, const std::vector<Pattern>& args) {
    BYOC_ASSIGN_OR_RETURN(std::string text, list(args));
    return use(function) + "(" + text.substr(1, text.size() - 2) + ")";
  }

  Pattern root_;
  std::vector<Pattern> order_;
  std::unordered_map<const PatternNode*, int> uses_;
  std::unordered_map<const PatternNode*, std::string> names_;
  std::set<std::string> imports_;
};

}  // namespace

Result<PythonPattern> patternAsPython(const Pattern& pattern) { return Translator(pattern).run(); }

const std::set<std::string>& tvmPatternApiNames() {
  static const std::set<std::string> names = {
      "FunctionPattern", "dominates", "has_attr", "has_dtype", "has_shape", "has_type", "is_constant",
      "is_expr",         "is_if",     "is_let",   "is_op",     "is_tuple",  "is_tuple_get_item", "is_var",
      "relay",           "tvm",       "wildcard"};
  return names;
}

}  // namespace byoc
