#include "pattern/pattern.h"

#include <unordered_set>

#include "ir/op.h"
#include "support/result.h"

namespace byoc {

Pattern wildcard() { return makeRef<WildcardPatternNode>(); }

Pattern isExpr(Expr expr) { return makeRef<ExprPatternNode>(std::move(expr), std::string()); }

Pattern isOp(std::string_view name) {
  Op op = OpRegistry::global().get(name);
  BYOC_CHECK(op, "isOp: unknown op '" + std::string(name) + "'");
  return isExpr(op);
}

Pattern isVar(std::string name) { return makeRef<VarPatternNode>(std::move(name), std::string()); }

Pattern isConstant() { return makeRef<ConstantPatternNode>(std::string()); }

Pattern isCall(Pattern callee, std::vector<Pattern> args) {
  return makeRef<CallPatternNode>(std::move(callee), std::move(args), std::string());
}

Pattern isCallAnyArgs(Pattern callee) {
  return makeRef<CallPatternNode>(std::move(callee), std::nullopt, std::string());
}

Pattern callOp(std::string_view op, std::vector<Pattern> args) { return isCall(isOp(op), std::move(args)); }

Pattern isFunction(std::optional<std::vector<Pattern>> params, Pattern body) {
  return makeRef<FunctionPatternNode>(std::move(params), std::move(body), std::string());
}

Pattern isTuple(std::vector<Pattern> fields) { return makeRef<TuplePatternNode>(std::move(fields), std::string()); }

Pattern isAnyTuple() { return makeRef<TuplePatternNode>(std::nullopt, std::string()); }

Pattern isTupleGetItem(Pattern tuple, int index) {
  return makeRef<TupleGetItemPatternNode>(std::move(tuple), index, std::string());
}

Pattern alt(Pattern left, Pattern right) {
  return makeRef<AltPatternNode>(std::move(left), std::move(right), std::string());
}

Pattern optional(const Pattern& pattern, const std::function<Pattern(const Pattern&)>& wrap) {
  return alt(pattern, wrap(pattern));
}

Pattern hasAttr(Pattern pattern, Attrs attrs) {
  return makeRef<AttrPatternNode>(std::move(pattern), std::move(attrs), std::string());
}

Pattern hasType(Pattern pattern, Type type) {
  return makeRef<TypePatternNode>(std::move(pattern), std::move(type), std::string());
}

Pattern hasDType(Pattern pattern, DType dtype) {
  return makeRef<DTypePatternNode>(std::move(pattern), dtype, std::string());
}

Pattern hasShape(Pattern pattern, Shape shape) {
  return makeRef<ShapePatternNode>(std::move(pattern), std::move(shape), std::string());
}

Pattern dominates(Pattern parent, Pattern path, Pattern child) {
  return makeRef<DominatorPatternNode>(std::move(parent), std::move(path), std::move(child), std::string());
}

Pattern isIf(Pattern cond, Pattern thenBranch, Pattern elseBranch) {
  return makeRef<IfPatternNode>(std::move(cond), std::move(thenBranch), std::move(elseBranch), std::string());
}

Pattern isLet(Pattern var, Pattern value, Pattern body) {
  return makeRef<LetPatternNode>(std::move(var), std::move(value), std::move(body), std::string());
}

Pattern withName(const Pattern& pattern, std::string name) {
  const PatternNode& node = *pattern;
  switch (node.kind()) {
    case PatternKind::Wildcard: {
      auto copy = makeRef<WildcardPatternNode>(std::move(name));
      copy->redirectTo(node.as<WildcardPatternNode>()->redirect());
      return copy;
    }
    case PatternKind::Expr: return makeRef<ExprPatternNode>(node.as<ExprPatternNode>()->expr, std::move(name));
    case PatternKind::Var: return makeRef<VarPatternNode>(node.as<VarPatternNode>()->varName, std::move(name));
    case PatternKind::Constant: return makeRef<ConstantPatternNode>(std::move(name));
    case PatternKind::Call: {
      const auto& call = *node.as<CallPatternNode>();
      return makeRef<CallPatternNode>(call.callee, call.args, std::move(name));
    }
    case PatternKind::Function: {
      const auto& function = *node.as<FunctionPatternNode>();
      return makeRef<FunctionPatternNode>(function.params, function.body, std::move(name));
    }
    case PatternKind::Tuple: return makeRef<TuplePatternNode>(node.as<TuplePatternNode>()->fields, std::move(name));
    case PatternKind::TupleGetItem: {
      const auto& item = *node.as<TupleGetItemPatternNode>();
      return makeRef<TupleGetItemPatternNode>(item.tuple, item.index, std::move(name));
    }
    case PatternKind::Alt: {
      const auto& either = *node.as<AltPatternNode>();
      return makeRef<AltPatternNode>(either.left, either.right, std::move(name));
    }
    case PatternKind::Attr: {
      const auto& attr = *node.as<AttrPatternNode>();
      return makeRef<AttrPatternNode>(attr.pattern, attr.attrs, std::move(name));
    }
    case PatternKind::Type: {
      const auto& typed = *node.as<TypePatternNode>();
      return makeRef<TypePatternNode>(typed.pattern, typed.type, std::move(name));
    }
    case PatternKind::DType: {
      const auto& typed = *node.as<DTypePatternNode>();
      return makeRef<DTypePatternNode>(typed.pattern, typed.dtype, std::move(name));
    }
    case PatternKind::Shape: {
      const auto& shaped = *node.as<ShapePatternNode>();
      return makeRef<ShapePatternNode>(shaped.pattern, shaped.shape, std::move(name));
    }
    case PatternKind::Dominator: {
      const auto& dom = *node.as<DominatorPatternNode>();
      return makeRef<DominatorPatternNode>(dom.parent, dom.path, dom.child, std::move(name));
    }
    case PatternKind::If: {
      const auto& branch = *node.as<IfPatternNode>();
      return makeRef<IfPatternNode>(branch.cond, branch.thenBranch, branch.elseBranch, std::move(name));
    }
    case PatternKind::Let: {
      const auto& let = *node.as<LetPatternNode>();
      return makeRef<LetPatternNode>(let.var, let.value, let.body, std::move(name));
    }
  }
  return pattern;
}

std::vector<Pattern> patternChildren(const PatternNode& node) {
  switch (node.kind()) {
    case PatternKind::Wildcard: {
      const Pattern& target = node.as<WildcardPatternNode>()->redirect();
      return target ? std::vector<Pattern>{target} : std::vector<Pattern>{};
    }
    case PatternKind::Expr:
    case PatternKind::Var:
    case PatternKind::Constant: return {};
    case PatternKind::Call: {
      const auto& call = *node.as<CallPatternNode>();
      std::vector<Pattern> children{call.callee};
      if (call.args) children.insert(children.end(), call.args->begin(), call.args->end());
      return children;
    }
    case PatternKind::Function: {
      const auto& function = *node.as<FunctionPatternNode>();
      std::vector<Pattern> children;
      if (function.params) children = *function.params;
      children.push_back(function.body);
      return children;
    }
    case PatternKind::Tuple: {
      const auto& tuple = *node.as<TuplePatternNode>();
      return tuple.fields ? *tuple.fields : std::vector<Pattern>{};
    }
    case PatternKind::TupleGetItem: return {node.as<TupleGetItemPatternNode>()->tuple};
    case PatternKind::Alt: {
      const auto& either = *node.as<AltPatternNode>();
      return {either.left, either.right};
    }
    case PatternKind::Attr: return {node.as<AttrPatternNode>()->pattern};
    case PatternKind::Type: return {node.as<TypePatternNode>()->pattern};
    case PatternKind::DType: return {node.as<DTypePatternNode>()->pattern};
    case PatternKind::Shape: return {node.as<ShapePatternNode>()->pattern};
    case PatternKind::Dominator: {
      const auto& dom = *node.as<DominatorPatternNode>();
      return {dom.parent, dom.path, dom.child};
    }
    case PatternKind::If: {
      const auto& branch = *node.as<IfPatternNode>();
      return {branch.cond, branch.thenBranch, branch.elseBranch};
    }
    case PatternKind::Let: {
      const auto& let = *node.as<LetPatternNode>();
      return {let.var, let.value, let.body};
    }
  }
  return {};
}

std::vector<Pattern> patternPostOrder(const Pattern& root) { return patternPostOrder(std::span<const Pattern>(&root, 1)); }

std::vector<Pattern> patternPostOrder(std::span<const Pattern> roots) {
  struct Frame {
    Pattern node;
    bool expanded;
  };
  std::vector<Pattern> order;
  std::unordered_set<const PatternNode*> entered;
  std::unordered_set<const PatternNode*> done;
  std::vector<Frame> stack;
  for (auto root = roots.rbegin(); root != roots.rend(); ++root) stack.push_back({*root, false});
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (done.count(top.node.get())) {
      stack.pop_back();
      continue;
    }
    if (!top.expanded) {
      top.expanded = true;
      entered.insert(top.node.get());
      std::vector<Pattern> children = patternChildren(*top.node);
      for (auto it = children.rbegin(); it != children.rend(); ++it)
        if (!entered.count(it->get())) stack.push_back({*it, false});
      continue;
    }
    done.insert(top.node.get());
    order.push_back(std::move(top.node));
    stack.pop_back();
  }
  return order;
}

void clearRedirects(const Pattern& root) {
  for (const Pattern& node : patternPostOrder(root))
    if (const auto* wild = node->as<WildcardPatternNode>()) wild->redirectTo({});
}

namespace {

std::set<std::string> requiredOpsOf(const Pattern& pattern, std::unordered_set<const PatternNode*>& visiting) {
  if (!visiting.insert(pattern.get()).second) return {};  // a cycle through a redirect
  std::set<std::string> ops;
  auto add = [&](const Pattern& part) {
    std::set<std::string> more = requiredOpsOf(part, visiting);
    ops.insert(more.begin(), more.end());
  };
  switch (pattern->kind()) {
    case PatternKind::Expr:
      if (const auto* op = pattern->as<ExprPatternNode>()->expr->as<OpNode>()) ops.insert(op->name());
      break;
    case PatternKind::Alt: {
      const auto& either = *pattern->as<AltPatternNode>();
      std::set<std::string> left = requiredOpsOf(either.left, visiting);
      std::set<std::string> right = requiredOpsOf(either.right, visiting);
      for (const std::string& op : left)
        if (right.count(op)) ops.insert(op);
      break;
    }
    case PatternKind::Dominator: {
      const auto& dom = *pattern->as<DominatorPatternNode>();
      add(dom.parent);
      add(dom.child);
      break;
    }
    default:
      for (const Pattern& child : patternChildren(*pattern)) add(child);
      break;
  }
  visiting.erase(pattern.get());
  return ops;
}

}  // namespace

std::set<std::string> requiredOps(const Pattern& pattern) {
  std::unordered_set<const PatternNode*> visiting;
  return requiredOpsOf(pattern, visiting);
}

const char* patternKindName(PatternKind kind) {
  switch (kind) {
    case PatternKind::Wildcard: return "Wildcard";
    case PatternKind::Expr: return "Expr";
    case PatternKind::Var: return "Var";
    case PatternKind::Constant: return "Constant";
    case PatternKind::Call: return "Call";
    case PatternKind::Function: return "Function";
    case PatternKind::Tuple: return "Tuple";
    case PatternKind::TupleGetItem: return "TupleGetItem";
    case PatternKind::Alt: return "Alt";
    case PatternKind::Attr: return "Attr";
    case PatternKind::Type: return "Type";
    case PatternKind::DType: return "DType";
    case PatternKind::Shape: return "Shape";
    case PatternKind::Dominator: return "Dominator";
    case PatternKind::If: return "If";
    case PatternKind::Let: return "Let";
  }
  return "?";
}

}  // namespace byoc
