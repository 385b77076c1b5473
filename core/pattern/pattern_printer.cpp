#include "pattern/pattern_printer.h"

#include <set>
#include <unordered_map>

#include "ir/op.h"
#include "text/scalar_literal.h"

namespace byoc {

namespace {

class Printer {
 public:
  explicit Printer(const Pattern& root) : root_(root) {
    collect();
    assignNames();
  }

  std::string run() {
    std::string text;
    for (const Pattern& node : order_) {
      if (!names_.count(node.get())) continue;
      text += names_.at(node.get()) + " = " + definition(node) + ";\n";
    }
    return text + reference(root_, false);
  }

 private:
  /// Post-order over the pattern graph, counting uses (the root counts as one).
  void collect() {
    order_ = patternPostOrder(root_);
    uses_[root_.get()] = 1;
    for (const Pattern& node : order_)
      for (const Pattern& child : patternChildren(*node)) ++uses_[child.get()];
  }

  bool needsName(const Pattern& node) const {
    if (!node->name().empty() || uses_.at(node.get()) > 1) return true;
    const auto* wild = node->as<WildcardPatternNode>();
    return wild && wild->redirect();
  }

  void assignNames() {
    std::set<std::string> taken;
    for (const Pattern& node : order_)
      if (needsName(node) && !node->name().empty()) taken.insert(node->name());
    std::set<std::string> given;
    int generated = 0;
    for (const Pattern& node : order_) {
      if (!needsName(node)) continue;
      std::string name = node->name();
      if (name.empty()) {
        do name = "p" + std::to_string(generated++);
        while (taken.count(name) || OpRegistry::global().find(name));
      } else if (given.count(name)) {
        int suffix = 2;
        while (given.count(name + "_" + std::to_string(suffix)) || taken.count(name + "_" + std::to_string(suffix)))
          ++suffix;
        name += "_" + std::to_string(suffix);
      }
      given.insert(name);
      names_.emplace(node.get(), name);
    }
  }

  /// The node as a use: its name if it has one, else its inline text, in parentheses in a
  /// postfix position when it is an alternative or a literal (`0.1` would read as a float, not
  /// item 1 of the literal 0).
  std::string reference(const Pattern& node, bool postfixPosition) const {
    if (auto it = names_.find(node.get()); it != names_.end()) return it->second;
    std::string text = definition(node);
    if (postfixPosition && (node->kind() == PatternKind::Alt || isLiteral(node))) return "(" + text + ")";
    return text;
  }

  static bool isLiteral(const Pattern& node) {
    const auto* expr = node->as<ExprPatternNode>();
    return expr && expr->expr->as<ConstantNode>();
  }

  std::string list(const std::optional<std::vector<Pattern>>& items) const {
    if (!items) return "..";
    std::string text;
    for (std::size_t i = 0; i < items->size(); ++i) text += (i ? ", " : "") + reference((*items)[i], false);
    return text;
  }

  bool isPlainWildcard(const Pattern& node) const {
    return node->kind() == PatternKind::Wildcard && !names_.count(node.get());
  }

  std::string innerSuffix(const Pattern& inner) const {
    return isPlainWildcard(inner) ? std::string() : ", " + reference(inner, false);
  }

  static std::string exprText(const Expr& expr) {
    if (const auto* op = expr->as<OpNode>()) return op->name();
    if (const auto* global = expr->as<GlobalVarNode>()) return "@" + global->name;
    if (const auto* constant = expr->as<ConstantNode>())
      if (auto literal = constantPatternText(constant->data)) return *literal;
    return "<expression>";
  }

  /// The node's own text, with its children as references.
  std::string definition(const Pattern& pattern) const {
    const PatternNode& node = *pattern;
    switch (node.kind()) {
      case PatternKind::Wildcard: {
        const Pattern& target = node.as<WildcardPatternNode>()->redirect();
        return target ? reference(target, false) : "*";
      }
      case PatternKind::Expr: return exprText(node.as<ExprPatternNode>()->expr);
      case PatternKind::Var: {
        const std::string& name = node.as<VarPatternNode>()->varName;
        return name.empty() ? "var" : "%" + name;
      }
      case PatternKind::Constant: return "const";
      case PatternKind::Call: {
        const auto& call = *node.as<CallPatternNode>();
        return reference(call.callee, true) + "(" + list(call.args) + ")";
      }
      case PatternKind::Function: {
        const auto& function = *node.as<FunctionPatternNode>();
        return "fn(" + list(function.params) + ") { " + reference(function.body, false) + " }";
      }
      case PatternKind::Tuple: {
        const auto& tuple = *node.as<TuplePatternNode>();
        if (tuple.fields && tuple.fields->size() == 1) return "(" + reference(tuple.fields->front(), false) + ",)";
        return "(" + list(tuple.fields) + ")";
      }
      case PatternKind::TupleGetItem: {
        const auto& item = *node.as<TupleGetItemPatternNode>();
        return reference(item.tuple, true) + "." + (item.index < 0 ? std::string("*") : std::to_string(item.index));
      }
      case PatternKind::Alt: {
        const auto& either = *node.as<AltPatternNode>();
        return reference(either.left, false) + " | " + reference(either.right, true);
      }
      case PatternKind::Attr: {
        const auto& attr = *node.as<AttrPatternNode>();
        std::string text = reference(attr.pattern, true) + "{";
        bool first = true;
        for (const auto& [key, value] : attr.attrs.entries()) {
          text += (first ? "" : ", ") + key + "=" + value.str();
          first = false;
        }
        return text + "}";
      }
      case PatternKind::Type: {
        const auto& typed = *node.as<TypePatternNode>();
        return "has_type(" + typeToString(typed.type) + innerSuffix(typed.pattern) + ")";
      }
      case PatternKind::DType: {
        const auto& typed = *node.as<DTypePatternNode>();
        return "has_dtype(" + std::string(dtypeName(typed.dtype)) + innerSuffix(typed.pattern) + ")";
      }
      case PatternKind::Shape: {
        const auto& shaped = *node.as<ShapePatternNode>();
        std::string dims;
        for (std::size_t i = 0; i < shaped.shape.size(); ++i)
          dims += (i ? ", " : "") + (shaped.shape[i] == kAnyDim ? std::string("?") : std::to_string(shaped.shape[i]));
        return "has_shape([" + dims + "]" + innerSuffix(shaped.pattern) + ")";
      }
      case PatternKind::Dominator: {
        const auto& dom = *node.as<DominatorPatternNode>();
        return "dominates(" + reference(dom.parent, false) + ", " + reference(dom.path, false) + ", " +
               reference(dom.child, false) + ")";
      }
      case PatternKind::If: {
        const auto& branch = *node.as<IfPatternNode>();
        return "if(" + reference(branch.cond, false) + ", " + reference(branch.thenBranch, false) + ", " +
               reference(branch.elseBranch, false) + ")";
      }
      case PatternKind::Let: {
        const auto& let = *node.as<LetPatternNode>();
        return "let(" + reference(let.var, false) + ", " + reference(let.value, false) + ", " +
               reference(let.body, false) + ")";
      }
    }
    return "?";
  }

  Pattern root_;
  std::vector<Pattern> order_;
  std::unordered_map<const PatternNode*, int> uses_;
  std::unordered_map<const PatternNode*, std::string> names_;
};

}  // namespace

std::optional<std::string> constantPatternText(const TensorData& data) {
  if (data.isScalar()) return scalarLiteralText(data);
  const Shape& shape = data.shape();
  const int64_t count = data.numElements();
  if (count == 0) return std::nullopt;
  const std::size_t width = dtypeSize(data.dtype());
  std::string text = "const(";
  for (int64_t i = 0; i < count; ++i) {
    // The lists that open at element i are those of the trailing dimensions i is the first of.
    int64_t block = 1;
    std::size_t opening = 0;
    for (std::size_t d = shape.size(); d-- > 0 && i % (block *= shape[d]) == 0;) ++opening;
    if (i > 0) text += ", ";
    text.append(opening, '[');
    std::optional<std::string> item =
        scalarLiteralText(TensorData::fromBytes(data.dtype(), {}, data.bytes().subspan(static_cast<std::size_t>(i) * width, width)));
    if (!item) return std::nullopt;
    text += *item;
    block = 1;
    std::size_t closing = 0;
    for (std::size_t d = shape.size(); d-- > 0 && (i + 1) % (block *= shape[d]) == 0;) ++closing;
    text.append(closing, ']');
  }
  return text + ")";
}

std::string printPattern(const Pattern& pattern) { return Printer(pattern).run(); }

}  // namespace byoc
