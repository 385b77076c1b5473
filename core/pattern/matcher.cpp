#include "pattern/matcher.h"

#include <algorithm>
#include <unordered_set>

#include "ir/op.h"
#include "ir/structural.h"

namespace byoc {

namespace {

/// The op held by an `is_op` callee pattern, or null.
const OpNode* patternOp(const CallPatternNode& call) {
  const auto* expr = call.callee->as<ExprPatternNode>();
  return expr ? expr->expr->as<OpNode>() : nullptr;
}

bool isPatternOp(const CallPatternNode& call, std::string_view name) {
  const OpNode* op = patternOp(call);
  return op && op->name() == name;
}

bool isExprOp(const Expr& expr, std::string_view name) {
  const auto* call = expr->as<CallNode>();
  if (!call) return false;
  const auto* op = call->callee->as<OpNode>();
  return op && op->name() == name;
}

std::string attrText(const AttrValue& value) { return value.str(); }

std::string shapeText(const Shape& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) text += ", ";
    text += shape[i] == kAnyDim ? "?" : std::to_string(shape[i]);
  }
  return text + ")";
}

}  // namespace

std::string describeExpr(const Expr& expr) {
  switch (expr->kind()) {
    case ExprKind::Var: return "variable %" + expr->as<VarNode>()->name;
    case ExprKind::GlobalVar: return "global @" + expr->as<GlobalVarNode>()->name;
    case ExprKind::Constant: return "a constant";
    case ExprKind::Op: return "op " + expr->as<OpNode>()->name();
    case ExprKind::Call: {
      const Expr& callee = expr->as<CallNode>()->callee;
      if (const auto* op = callee->as<OpNode>()) return "a call of " + op->name();
      return "a call of " + describeExpr(callee);
    }
    case ExprKind::Tuple: return "a tuple";
    case ExprKind::TupleGetItem: return "a tuple-get-item";
    case ExprKind::Function: return "a function";
    case ExprKind::If: return "an if";
    case ExprKind::Let: return "a let";
  }
  return "an expression";
}

bool PatternMatcher::match(const Pattern& pattern, const Expr& expr) {
  memo_.clear();
  bound_.clear();
  failure_.reset();
  memoize_ = true;
  depthExceeded_ = false;
  root_ = expr;
  return visit(pattern, expr);
}

const TensorTypeNode* PatternMatcher::tensorTypeOf(const Pattern& pattern, const Expr& expr) {
  if (!expr->type()) {
    fail(pattern, expr, [&] { return std::string("the expression has no checked type (run InferType first)"); });
    return nullptr;
  }
  const auto* tensor = expr->type()->as<TensorTypeNode>();
  if (!tensor) fail(pattern, expr, [&] { return std::string("type is " + typeToString(expr->type()) + ", expected a tensor"); });
  return tensor;
}

const IndexedGraph& PatternMatcher::graph() {
  if (graph_) return *graph_;
  if (!ownGraph_ || ownGraph_->indexOf(root_) != ownGraph_->size() - 1)
    ownGraph_ = std::make_unique<IndexedGraph>(root_);
  return *ownGraph_;
}

void PatternMatcher::clearTo(std::size_t watermark) {
  for (std::size_t i = watermark; i < bound_.size(); ++i) memo_.erase(bound_[i]);
  bound_.resize(std::min(watermark, bound_.size()));
}

bool PatternMatcher::visit(const Pattern& pattern, const Expr& expr) {
  if (memoize_) {
    auto it = memo_.find(pattern);
    if (it != memo_.end()) {
      if (it->second.front() == expr) return true;
      return fail(pattern, expr, [&] {
        return std::string("this shared sub-pattern is already bound to " + describeExpr(it->second.front()));
      });
    }
  }
  if (depth_ >= kMaxMatchDepth) {
    depthExceeded_ = true;
    return fail(pattern, expr, [] {
      return "the match nests deeper than " + std::to_string(kMaxMatchDepth) + " pattern nodes (a recursive pattern?)";
    });
  }
  std::size_t watermark = bound_.size();
  ++depth_;
  bool matched = !depthExceeded_ && visitKind(pattern, expr);
  --depth_;
  if (matched) {
    memo_[pattern].push_back(expr);
    bound_.push_back(pattern);
    failure_.reset();
  } else {
    clearTo(watermark);
  }
  return matched;
}

bool PatternMatcher::visitKind(const Pattern& pattern, const Expr& expr) {
  const PatternNode& node = *pattern;
  switch (node.kind()) {
    case PatternKind::Wildcard: {
      const Pattern& target = node.as<WildcardPatternNode>()->redirect();
      return target ? visit(target, expr) : true;
    }
    case PatternKind::Expr: {
      const Expr& expected = node.as<ExprPatternNode>()->expr;
      if (expected == expr) return true;
      if (expected->kind() != ExprKind::Op && expected->kind() == expr->kind() && structuralEqual(expected, expr))
        return true;
      return fail(pattern, expr, [&] {
        if (const auto* op = expected->as<OpNode>())
          return "expected op " + op->name() + ", found " + describeExpr(expr);
        return "expected an expression equal to the pattern's " + describeExpr(expected) + ", found " +
               describeExpr(expr);
      });
    }
    case PatternKind::Var: {
      const auto* var = expr->as<VarNode>();
      if (!var)
        return fail(pattern, expr, [&] { return std::string("expected a variable, found " + describeExpr(expr)); });
      const std::string& name = node.as<VarPatternNode>()->varName;
      if (!name.empty() && var->name != name)
        return fail(pattern, expr, [&] { return std::string("expected variable %" + name + ", found %" + var->name); });
      return true;
    }
    case PatternKind::Constant:
      if (expr->kind() == ExprKind::Constant) return true;
      return fail(pattern, expr, [&] { return std::string("expected a constant, found " + describeExpr(expr)); });
    case PatternKind::Call: return visitCall(pattern, *node.as<CallPatternNode>(), expr);
    case PatternKind::Function: {
      const auto& function = *node.as<FunctionPatternNode>();
      const auto* literal = expr->as<FunctionNode>();
      if (!literal)
        return fail(pattern, expr, [&] { return std::string("expected a function, found " + describeExpr(expr)); });
      if (function.params) {
        if (function.params->size() != literal->params.size())
          return fail(pattern, expr, [&] {
            return std::string("expected " + std::to_string(function.params->size()) + " parameters, found " +
                               std::to_string(literal->params.size()));
          });
        for (std::size_t i = 0; i < literal->params.size(); ++i)
          if (!visit((*function.params)[i], literal->params[i])) return false;
      }
      return visit(function.body, literal->body);
    }
    case PatternKind::Tuple: {
      const auto& tuple = *node.as<TuplePatternNode>();
      const auto* value = expr->as<TupleNode>();
      if (!value)
        return fail(pattern, expr, [&] { return std::string("expected a tuple, found " + describeExpr(expr)); });
      if (!tuple.fields) return true;
      if (tuple.fields->size() != value->fields.size())
        return fail(pattern, expr, [&] {
          return std::string("expected " + std::to_string(tuple.fields->size()) + " fields, found " +
                             std::to_string(value->fields.size()));
        });
      for (std::size_t i = 0; i < value->fields.size(); ++i)
        if (!visit((*tuple.fields)[i], value->fields[i])) return false;
      return true;
    }
    case PatternKind::TupleGetItem: {
      const auto& item = *node.as<TupleGetItemPatternNode>();
      const auto* value = expr->as<TupleGetItemNode>();
      if (!value)
        return fail(pattern, expr,
                    [&] { return std::string("expected a tuple-get-item, found " + describeExpr(expr)); });
      if (item.index != -1 && item.index != value->index)
        return fail(pattern, expr, [&] {
          return std::string("expected index " + std::to_string(item.index) + ", found " +
                             std::to_string(value->index));
        });
      return visit(item.tuple, value->tuple);
    }
    case PatternKind::Alt: {
      const auto& either = *node.as<AltPatternNode>();
      return visit(either.left, expr) || visit(either.right, expr);
    }
    case PatternKind::Attr: return visitAttr(pattern, *node.as<AttrPatternNode>(), expr);
    case PatternKind::Type: {
      const auto& typed = *node.as<TypePatternNode>();
      if (!expr->type())
        return fail(pattern, expr,
                    [&] { return std::string("the expression has no checked type (run InferType first)"); });
      if (!typeEqual(typed.type, expr->type()))
        return fail(pattern, expr, [&] {
          return std::string("type is " + typeToString(expr->type()) + ", expected " + typeToString(typed.type));
        });
      return visit(typed.pattern, expr);
    }
    case PatternKind::DType: {
      const auto& typed = *node.as<DTypePatternNode>();
      const TensorTypeNode* tensor = tensorTypeOf(pattern, expr);
      if (!tensor) return false;
      if (tensor->dtype != typed.dtype)
        return fail(pattern, expr, [&] {
          return std::string("dtype is " + std::string(dtypeName(tensor->dtype)) + ", expected " +
                             std::string(dtypeName(typed.dtype)));
        });
      return visit(typed.pattern, expr);
    }
    case PatternKind::Shape: {
      const auto& shaped = *node.as<ShapePatternNode>();
      const TensorTypeNode* tensor = tensorTypeOf(pattern, expr);
      if (!tensor) return false;
      if (tensor->shape != shaped.shape)
        return fail(pattern, expr, [&] {
          return std::string("shape is " + shapeText(tensor->shape) + ", expected " + shapeText(shaped.shape));
        });
      return visit(shaped.pattern, expr);
    }
    case PatternKind::Dominator: return visitDominator(pattern, *node.as<DominatorPatternNode>(), expr);
    case PatternKind::If: {
      const auto& branch = *node.as<IfPatternNode>();
      const auto* value = expr->as<IfNode>();
      if (!value)
        return fail(pattern, expr, [&] { return std::string("expected an if, found " + describeExpr(expr)); });
      return visit(branch.cond, value->cond) && visit(branch.thenBranch, value->thenBranch) &&
             visit(branch.elseBranch, value->elseBranch);
    }
    case PatternKind::Let: {
      const auto& let = *node.as<LetPatternNode>();
      const auto* value = expr->as<LetNode>();
      if (!value)
        return fail(pattern, expr, [&] { return std::string("expected a let, found " + describeExpr(expr)); });
      return visit(let.var, value->var) && visit(let.value, value->value) && visit(let.body, value->body);
    }
  }
  return false;
}

bool PatternMatcher::matchArgs(const Pattern& pattern, const std::vector<Pattern>& args, const CallNode& call) {
  std::size_t watermark = bound_.size();
  if (args.size() != call.args.size()) {
    return fail(pattern, Expr(&call), [&] {
      return std::string("expected " + std::to_string(args.size()) + " arguments, found " +
                         std::to_string(call.args.size()));
    });
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!visit(args[i], call.args[i])) {
      clearTo(watermark);
      return false;
    }
  }
  return true;
}

bool PatternMatcher::visitCall(const Pattern& pattern, const CallPatternNode& call, const Expr& expr) {
  const auto* value = expr->as<CallNode>();
  if (!value) return fail(pattern, expr, [&] { return std::string("expected a call, found " + describeExpr(expr)); });
  std::size_t watermark = bound_.size();
  if (visit(call.callee, value->callee)) {
    if (!call.args) return true;
    if (matchArgs(pattern, *call.args, *value)) return true;
    if (isPatternOp(call, "add") || isPatternOp(call, "multiply")) {
      std::vector<Pattern> reversed(call.args->rbegin(), call.args->rend());
      if (matchArgs(pattern, reversed, *value)) return true;
    }
    return false;
  }
  clearTo(watermark);
  // Limited associativity of divide and multiply.
  const bool binary = call.args && call.args->size() == 2 && value->args.size() == 2;
  if (binary && isPatternOp(call, "divide")) {
    const auto* inner = (*call.args)[0]->as<CallPatternNode>();
    if (inner && inner->args && inner->args->size() == 2 && isPatternOp(*inner, "multiply") &&
        isExprOp(expr, "multiply") && (isExprOp(value->args[0], "divide") || isExprOp(value->args[1], "divide"))) {
      for (std::size_t k = 0; k < 2; ++k) {
        Pattern div = isCall(call.callee, {(*inner->args)[k], (*call.args)[1]});
        Pattern mul = isCall(inner->callee, {(*inner->args)[(k + 1) % 2], div});
        if (visit(mul, expr)) return true;
        clearTo(watermark);
      }
      return false;
    }
  }
  if (binary && isPatternOp(call, "multiply")) {
    for (std::size_t k = 0; k < 2; ++k) {
      const auto* inner = (*call.args)[k]->as<CallPatternNode>();
      if (inner && inner->args && inner->args->size() == 2 && isPatternOp(*inner, "divide") &&
          isExprOp(expr, "divide") && (isExprOp(value->args[0], "multiply") || isExprOp(value->args[1], "multiply"))) {
        Pattern mul = isCall(call.callee, {(*inner->args)[0], (*call.args)[(k + 1) % 2]});
        Pattern div = isCall(inner->callee, {mul, (*inner->args)[1]});
        return visit(div, expr);
      }
    }
  }
  return false;
}

bool PatternMatcher::visitAttr(const Pattern& pattern, const AttrPatternNode& attr, const Expr& expr) {
  if (!visit(attr.pattern, expr)) return false;
  if (const auto* op = expr->as<OpNode>()) {
    // Named references, not structured bindings: clang 14 cannot capture those in the lambdas below.
    for (const auto& entry : attr.attrs.entries()) {
      const auto& key = entry.first;
      const auto& expected = entry.second;
      if (key != "TOpPattern")
        return fail(pattern, expr, [&] { return std::string("ops have no attribute map '" + key + "'"); });
      const auto fusion = static_cast<int64_t>(op->def.fusion);
      if (!expected.isInt() || expected.asInt() != fusion)
        return fail(pattern, expr, [&] {
          return std::string("op " + op->name() + " has TOpPattern=" + std::to_string(fusion) + ", expected " +
                             attrText(expected));
        });
    }
    return true;
  }
  if (const auto* call = expr->as<CallNode>()) {
    for (const auto& entry : attr.attrs.entries()) {
      const auto& key = entry.first;
      const auto& expected = entry.second;
      const AttrValue* actual = call->attrs.find(key);
      if (!actual)
        return fail(pattern, expr, [&] { return std::string(describeExpr(expr) + " has no attribute '" + key + "'"); });
      if (!(*actual == expected))
        return fail(pattern, expr, [&] {
          return std::string("attribute " + key + " is " + attrText(*actual) + ", expected " + attrText(expected));
        });
    }
    return true;
  }
  if (const auto* function = expr->as<FunctionNode>()) {
    for (const auto& entry : attr.attrs.entries()) {
      const auto& key = entry.first;
      const auto& expected = entry.second;
      const AttrValue* actual = function->attrs.find(key);
      if (!actual)
        return fail(pattern, expr, [&] { return std::string("the function has no attribute '" + key + "'"); });
      if (!(*actual == expected))
        return fail(pattern, expr, [&] {
          return std::string("attribute " + key + " is " + attrText(*actual) + ", expected " + attrText(expected));
        });
    }
    return true;
  }
  return fail(pattern, expr,
              [&] { return std::string("attributes apply to ops, calls and functions, found " + describeExpr(expr)); });
}

bool PatternMatcher::visitDominator(const Pattern& pattern, const DominatorPatternNode& dom, const Expr& expr) {
  if (!visit(dom.child, expr)) return false;
  if (graph().indexOf(expr) < 0)
    return fail(pattern, expr, [&] { return std::string("the expression is outside the graph being searched"); });
  bool path = matchesPath(pattern, dom, expr);
  memoize_ = true;
  if (!path) return false;
  if (dominatesParent(dom, expr)) return true;
  return fail(pattern, expr,
              [&] { return std::string("no node matching the parent is post-dominated by " + describeExpr(expr)); });
}

bool PatternMatcher::matchesPath(const Pattern& pattern, const DominatorPatternNode& dom, const Expr& expr) {
  const IndexedGraph& g = graph();
  struct Frame {
    int node;
    std::size_t next = 0;
    int counted = 0;
  };
  std::vector<Frame> stack{{g.indexOf(expr)}};
  while (!stack.empty()) {
    Frame& top = stack.back();
    const Expr& current = g.node(top.node);
    const auto* call = current->as<CallNode>();
    std::span<const int> inputs = g.inputs(top.node);
    if (top.next == inputs.size()) {
      if (top.counted == 0)
        return fail(pattern, current,
                    [&] { return std::string(describeExpr(current) + " has no input on the path to the parent"); });
      stack.pop_back();
      continue;
    }
    const Expr& input = g.node(inputs[top.next++]);
    if ((call && input == call->callee) || input->kind() == ExprKind::Var || input->kind() == ExprKind::Constant)
      continue;
    ++top.counted;
    memoize_ = true;
    if (visit(dom.parent, input)) continue;
    memoize_ = false;
    if (!visit(dom.path, input)) {
      failure_.reset();
      return fail(pattern, input,
                  [&] { return std::string(describeExpr(input) + " matches neither the parent nor the path"); });
    }
    stack.push_back({g.indexOf(input)});
  }
  return true;
}

bool PatternMatcher::dominatesParent(const DominatorPatternNode& dom, const Expr& expr) {
  const IndexedGraph& g = graph();
  std::vector<int> stack{g.indexOf(expr)};
  std::unordered_set<int> visited;
  while (!stack.empty()) {
    int current = stack.back();
    stack.pop_back();
    for (int child : g.postDominated(current)) {
      if (visited.count(child)) continue;
      if (visit(dom.parent, g.node(child))) return true;
      stack.push_back(child);
      visited.insert(child);
    }
  }
  return false;
}

bool matchPattern(const Pattern& pattern, const Expr& expr) {
  PatternMatcher matcher;
  return matcher.match(pattern, expr);
}

std::optional<MatchFailure> explainMismatch(const Pattern& pattern, const Expr& expr) {
  PatternMatcher matcher;
  matcher.setExplain(true);
  if (matcher.match(pattern, expr)) return std::nullopt;
  if (matcher.failure()) return matcher.failure();
  return MatchFailure{pattern, expr, "no match"};
}

}  // namespace byoc
