#include "pattern/grouper.h"

#include <unordered_set>

#include "ir/traversal.h"
#include "pattern/indexed_graph.h"

namespace byoc {

namespace {

/// The text a matched interior node adds to the group name.
std::string nameText(const Expr& node) {
  switch (node->kind()) {
    case ExprKind::Call: {
      const auto* op = node->as<CallNode>()->callee->as<OpNode>();
      return op ? op->name() + "_" : "Call_";
    }
    case ExprKind::Tuple: return "Tuple_";
    case ExprKind::TupleGetItem: return "TupleGetItem" + std::to_string(node->as<TupleGetItemNode>()->index) + "_";
    case ExprKind::Function: return "Function";
    case ExprKind::Let: return "Let_";
    case ExprKind::If: return "If_";
    default: return {};
  }
}

/// The matched body rebuilt over the parameters, its name, and the nodes it contains.
struct Extraction {
  Expr body;
  std::string name;
  std::unordered_map<const ExprNode*, Expr> memo;  ///< interior node → rebuilt node
  std::vector<Expr> nodes;                          ///< interior nodes in post-order
};

Extraction extract(const Expr& root, const std::unordered_map<const ExprNode*, Var>& inputs) {
  Extraction out;
  auto rebuilt = [&](const Expr& node) -> Expr {
    if (auto it = inputs.find(node.get()); it != inputs.end()) return it->second;
    return out.memo.at(node.get());
  };
  struct Frame {
    Expr node;
    bool expanded;
  };
  std::vector<Frame> stack{{root, false}};
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (inputs.count(top.node.get()) || out.memo.count(top.node.get())) {
      stack.pop_back();
      continue;
    }
    if (!top.expanded) {
      top.expanded = true;
      std::vector<Expr> children = childrenOf(*top.node);
      for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back({*it, false});
      continue;
    }
    Expr pre = std::move(top.node);
    stack.pop_back();
    std::vector<Expr> children = childrenOf(*pre);
    for (Expr& child : children) child = rebuilt(child);
    out.memo.emplace(pre.get(), withChildren(pre, children));
    out.name += nameText(pre);
    out.nodes.push_back(pre);
  }
  out.body = rebuilt(root);
  return out;
}

class Grouper {
 public:
  Grouper(const Pattern& pattern, const Expr& expr)
      : pattern_(pattern), patternOrder_(patternPostOrder(pattern)), graph_(expr), matcher_(graph_) {}

  Grouping run() {
    std::unordered_set<const ExprNode*> prePartitioned;
    for (int index = graph_.size() - 1; index >= 0; --index) {
      const Expr& current = graph_.node(index);
      if (result_.groupOf.count(current.get())) continue;
      if (const auto* function = current->as<FunctionNode>(); function && function->attrs.contains("PartitionedFromPattern")) {
        prePartitioned.insert(current.get());
        postOrderVisit(function->body, [&](const Expr& node) { prePartitioned.insert(node.get()); });
      }
      if (!prePartitioned.count(current.get()) && matcher_.match(pattern_, current)) createGroup(current);
    }
    return std::move(result_);
  }

 private:
  bool embedConst(const Expr& expr, const Pattern& pattern) {
    if (expr->kind() != ExprKind::Constant) return false;
    if (pattern->kind() == PatternKind::Constant) return true;
    if (const auto* exprPattern = pattern->as<ExprPatternNode>()) return exprPattern->expr->kind() == ExprKind::Constant;
    if (const auto* either = pattern->as<AltPatternNode>()) {
      PatternMatcher probe(graph_);
      return probe.match(either->left, expr) ? embedConst(expr, either->left) : embedConst(expr, either->right);
    }
    return false;
  }

  void createGroup(const Expr& root) {
    PatternGroup group;
    group.root = root;
    group.matched = matcher_.memo();
    const PatternNodeMap& memo = group.matched;
    auto matchesOf = [&](const Pattern& node) -> const std::vector<Expr>& {
      static const std::vector<Expr> none;
      auto it = memo.find(node);
      return it == memo.end() ? none : it->second;
    };

    std::unordered_set<const ExprNode*> fuzzy;
    for (const Pattern& node : patternOrder_) {
      if (const auto* dom = node->as<DominatorPatternNode>()) {
        for (const Pattern& part : {dom->parent, dom->path})
          for (const Expr& match : matchesOf(part)) fuzzy.insert(match.get());
      }
      if (node->kind() == PatternKind::Function) {
        for (const Expr& match : matchesOf(node))
          postOrderVisit(match->as<FunctionNode>()->body, [&](const Expr& inner) { fuzzy.insert(inner.get()); });
      }
    }

    std::unordered_map<const ExprNode*, Var> inputs;
    std::vector<Var> params;
    const int groupNumber = counter_++;
    auto makeInput = [&](const Expr& input, const Pattern& node) {
      if (fuzzy.count(input.get()) || input->kind() == ExprKind::Op || input->kind() == ExprKind::Function ||
          inputs.count(input.get()) || embedConst(input, node))
        return;
      Var param = VarNode::make("FunctionVar_" + std::to_string(groupNumber) + "_" + std::to_string(params.size()), {},
                                input->origin());
      inputs.emplace(input.get(), param);
      group.args.push_back(input);
      params.push_back(param);
    };
    for (const Pattern& node : patternOrder_) {
      const auto* tuple = node->as<TuplePatternNode>();
      const auto* call = node->as<CallPatternNode>();
      if (tuple && !tuple->fields) {
        for (const Expr& match : matchesOf(node))
          for (const Expr& field : match->as<TupleNode>()->fields) makeInput(field, node);
      } else if (call && !call->args) {
        for (const Expr& match : matchesOf(node))
          for (const Expr& arg : match->as<CallNode>()->args) makeInput(arg, node);
      } else if (patternChildren(*node).empty()) {
        for (const Expr& match : matchesOf(node)) makeInput(match, node);
      }
    }

    Extraction extraction = extract(root, inputs);
    const int rootIndex = graph_.indexOf(root);
    for (const Expr& node : extraction.nodes) {
      ExprKind kind = node->kind();
      if (kind == ExprKind::Op || kind == ExprKind::Function || kind == ExprKind::Constant) continue;
      if (result_.groupOf.count(node.get())) return;  // overlaps an earlier group
      if (node == root) continue;
      int index = graph_.indexOf(node);
      for (int user : graph_.outputs(index)) {
        if (!extraction.memo.count(graph_.node(user).get()) && !graph_.postDominates(rootIndex, user))
          return;  // an intermediate value escapes the match
      }
    }

    std::vector<Origin> origins;
    for (const Expr& node : extraction.nodes) origins.push_back(node->origin());
    group.function = FunctionNode::make(std::move(params), extraction.body, {}, {}, Origin::unite(origins));
    group.name = std::move(extraction.name);
    group.nodes = std::move(extraction.nodes);
    const int gid = static_cast<int>(result_.groups.size());
    for (const Expr& node : group.nodes) result_.groupOf[node.get()] = gid;
    result_.groups.push_back(std::move(group));
  }

  Pattern pattern_;
  std::vector<Pattern> patternOrder_;
  IndexedGraph graph_;
  PatternMatcher matcher_;
  Grouping result_;
  int counter_ = 0;
};

}  // namespace

const PatternGroup* Grouping::rootedAt(const Expr& node) const {
  auto it = groupOf.find(node.get());
  if (it == groupOf.end()) return nullptr;
  const PatternGroup& group = groups[it->second];
  return group.root == node ? &group : nullptr;
}

Grouping groupMatches(const Pattern& pattern, const Expr& expr) { return Grouper(pattern, expr).run(); }

}  // namespace byoc
