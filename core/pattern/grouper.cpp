#include "pattern/grouper.h"

#include <algorithm>
#include <unordered_set>

#include "ir/function_attrs.h"
#include "ir/traversal.h"
#include "pattern/root_ops.h"

namespace byoc {

namespace {

/// The text a matched interior node adds to the group name.
void appendNameText(const Expr& node, std::string& name) {
  switch (node->kind()) {
    case ExprKind::Call: {
      const auto* op = node->as<CallNode>()->callee->as<OpNode>();
      name += op ? op->name() + "_" : std::string("Call_");
      break;
    }
    case ExprKind::Tuple: name += "Tuple_"; break;
    case ExprKind::TupleGetItem:
      name += "TupleGetItem" + std::to_string(node->as<TupleGetItemNode>()->index) + "_";
      break;
    case ExprKind::Function: name += "Function"; break;
    case ExprKind::Let: name += "Let_"; break;
    case ExprKind::If: name += "If_"; break;
    default: break;
  }
}

class Grouper {
 public:
  Grouper(const Pattern& pattern, std::shared_ptr<const IndexedGraph> graph)
      : pattern_(pattern),
        patternOrder_(patternPostOrder(pattern)),
        rootOps_(rootOps(pattern)),
        graph_(std::move(graph)),
        matcher_(*graph_) {
    const int count = graph_->size();
    result_.graph = graph_;
    result_.groupOf.assign(count, -1);
    inputStamp_.assign(count, -1);
    memoStamp_.assign(count, -1);
    slot_.assign(count, -1);
    for (const Pattern& node : patternOrder_) {
      if (node->kind() == PatternKind::Dominator || node->kind() == PatternKind::Function) hasFuzzyParts_ = true;
      if (patternChildren(*node).empty()) isLeaf_.insert(node.get());
    }
  }

  Grouping run() {
    // Functions from an earlier partition, and everything inside them, are never roots.
    std::vector<char> prePartitioned(graph_->size(), 0);
    std::vector<int> stack;
    for (int index = graph_->size() - 1; index >= 0; --index) {
      if (result_.groupOf[index] >= 0 || prePartitioned[index] || !mayBeRoot(index)) continue;
      const Expr& current = graph_->node(index);
      if (const auto* function = current->as<FunctionNode>();
          function && function->attrs.contains(attr::kPartitionedFromPattern)) {
        prePartitioned[index] = 1;
        stack.push_back(graph_->indexOf(function->body));
        while (!stack.empty()) {
          const int inner = stack.back();
          stack.pop_back();
          if (prePartitioned[inner]) continue;
          prePartitioned[inner] = 1;
          for (int input : graph_->inputs(inner)) stack.push_back(input);
        }
        continue;
      }
      if (matcher_.match(pattern_, current)) createGroup(index);
    }
    return std::move(result_);
  }

 private:
  /// Whether a match may be rooted at node `index`: functions are always looked at (their bodies
  /// may have to be skipped); other nodes only when they call an op the pattern's root may match.
  bool mayBeRoot(int index) {
    if (!rootOps_ || graph_->kind(index) == ExprKind::Function) return true;
    const OpNode* op = graph_->calleeOp(index);
    if (!op) return false;
    for (const auto& [known, matches] : rootOpCache_)
      if (known == op) return matches;
    const bool matches = std::find(rootOps_->begin(), rootOps_->end(), op->name()) != rootOps_->end();
    rootOpCache_.emplace_back(op, matches);
    return matches;
  }

  bool embedConst(const Expr& expr, const Pattern& pattern) const {
    if (expr->kind() != ExprKind::Constant) return false;
    if (pattern->kind() == PatternKind::Constant) return true;
    if (const auto* exprPattern = pattern->as<ExprPatternNode>())
      return exprPattern->expr->kind() == ExprKind::Constant;
    if (const auto* either = pattern->as<AltPatternNode>()) {
      PatternMatcher probe(*graph_);
      return probe.match(either->left, expr) ? embedConst(expr, either->left) : embedConst(expr, either->right);
    }
    return false;
  }

  /// Nodes matched by a dominator's parent or path, or inside a function matched by a function
  /// pattern: they never become parameters.
  std::unordered_set<const ExprNode*> fuzzyNodes(const PatternNodeMap& memo) const {
    std::unordered_set<const ExprNode*> fuzzy;
    for (const Pattern& node : patternOrder_) {
      if (const auto* dom = node->as<DominatorPatternNode>()) {
        for (const Pattern& part : {dom->parent, dom->path})
          if (auto it = memo.find(part); it != memo.end())
            for (const Expr& match : it->second) fuzzy.insert(match.get());
      }
      if (node->kind() == PatternKind::Function) {
        if (auto it = memo.find(node); it != memo.end())
          for (const Expr& match : it->second)
            postOrderVisit(match->as<FunctionNode>()->body, [&](const Expr& inner) { fuzzy.insert(inner.get()); });
      }
    }
    return fuzzy;
  }

  void createGroup(int rootIndex) {
    const int groupNumber = counter_++;
    PatternGroup group;
    group.root = graph_->node(rootIndex);
    group.rootIndex = rootIndex;
    group.matched = matcher_.takeMemo();
    const PatternNodeMap& memo = group.matched;
    const std::unordered_set<const ExprNode*> fuzzy =
        hasFuzzyParts_ ? fuzzyNodes(memo) : std::unordered_set<const ExprNode*>();

    const bool typedExpression = static_cast<bool>(group.root->type());
    std::vector<Var> params;
    std::vector<Expr> paramExprs;
    auto makeInput = [&](const Expr& input, const Pattern& node) {
      if (input->kind() == ExprKind::Op || input->kind() == ExprKind::Function || fuzzy.count(input.get())) return;
      const int index = graph_->indexOf(input);
      if (index < 0 || inputStamp_[index] == groupNumber || embedConst(input, node)) return;
      // In a type-checked expression, a parameter gets its input's type: what type inference
      // would infer from the call.
      Var param = VarNode::make("FunctionVar_" + std::to_string(groupNumber) + "_" + std::to_string(params.size()),
                                typedExpression ? input->type() : Type(), input->origin());
      inputStamp_[index] = groupNumber;
      slot_[index] = static_cast<int>(params.size());
      group.args.push_back(input);
      group.argIndices.push_back(index);
      paramExprs.push_back(param);
      params.push_back(std::move(param));
    };
    for (const Pattern& node : patternOrder_) {
      auto it = memo.find(node);
      if (it == memo.end()) continue;
      const auto* tuple = node->as<TuplePatternNode>();
      const auto* call = node->as<CallPatternNode>();
      if (tuple && !tuple->fields) {
        for (const Expr& match : it->second)
          for (const Expr& field : match->as<TupleNode>()->fields) makeInput(field, node);
      } else if (call && !call->args) {
        for (const Expr& match : it->second)
          for (const Expr& arg : match->as<CallNode>()->args) makeInput(arg, node);
      } else if (isLeaf_.count(node.get())) {
        for (const Expr& match : it->second) makeInput(match, node);
      }
    }

    // Rebuild the matched body over the parameters, in post-order from the root.
    std::vector<Expr> rebuilt;
    std::string name;
    struct Frame {
      int node;
      int next;
    };
    std::vector<Frame> stack{{rootIndex, 0}};
    std::vector<Expr> children;
    auto valueOf = [&](int index) -> const Expr& {
      return inputStamp_[index] == groupNumber ? paramExprs[slot_[index]] : rebuilt[slot_[index]];
    };
    if (inputStamp_[rootIndex] == groupNumber) stack.clear();
    while (!stack.empty()) {
      Frame& top = stack.back();
      std::span<const int> inputs = graph_->inputs(top.node);
      if (top.next < static_cast<int>(inputs.size())) {
        const int child = inputs[top.next++];
        if (inputStamp_[child] != groupNumber && memoStamp_[child] != groupNumber) {
          memoStamp_[child] = groupNumber;
          stack.push_back({child, 0});
        }
        continue;
      }
      const int index = top.node;
      stack.pop_back();
      children.clear();
      for (int input : inputs) children.push_back(valueOf(input));
      const Expr& pre = graph_->node(index);
      slot_[index] = static_cast<int>(rebuilt.size());
      memoStamp_[index] = groupNumber;
      rebuilt.push_back(withChildren(pre, children));
      appendNameText(pre, name);
      group.nodes.push_back(index);
    }

    // Reject overlaps and escaping intermediate values.
    for (int index : group.nodes) {
      const ExprKind kind = graph_->node(index)->kind();
      if (kind == ExprKind::Op || kind == ExprKind::Function || kind == ExprKind::Constant) continue;
      if (result_.groupOf[index] >= 0) return;
      if (index == rootIndex) continue;
      for (int user : graph_->outputs(index))
        if (memoStamp_[user] != groupNumber && !graph_->postDominates(rootIndex, user)) return;
    }

    const Expr body = inputStamp_[rootIndex] == groupNumber ? paramExprs[slot_[rootIndex]] : rebuilt.back();
    std::vector<Origin> origins;
    origins.reserve(group.nodes.size());
    for (int index : group.nodes) origins.push_back(graph_->node(index)->origin());
    group.params = std::move(params);
    group.body = body;
    group.origin = Origin::unite(origins);
    group.name = std::move(name);
    const int gid = static_cast<int>(result_.groups.size());
    for (int index : group.nodes) result_.groupOf[index] = gid;
    result_.groups.push_back(std::move(group));
  }

  Pattern pattern_;
  std::vector<Pattern> patternOrder_;
  /// The ops a match's root may call; absent: any node may be a root.
  std::optional<std::vector<std::string>> rootOps_;
  /// Ops met so far, and whether the root may call them.
  std::vector<std::pair<const OpNode*, bool>> rootOpCache_;
  std::shared_ptr<const IndexedGraph> graph_;
  PatternMatcher matcher_;
  Grouping result_;
  int counter_ = 0;
  bool hasFuzzyParts_ = false;
  std::unordered_set<const PatternNode*> isLeaf_;  ///< pattern nodes without sub-patterns
  std::vector<int> inputStamp_;  ///< == group number: the node is an input of that group
  std::vector<int> memoStamp_;   ///< == group number: the node is inside that group
  std::vector<int> slot_;        ///< parameter or rebuilt-node position, for the current group
};

}  // namespace

const PatternGroup* Grouping::rootedAt(int index) const {
  const int gid = groupOf[index];
  if (gid < 0) return nullptr;
  const PatternGroup& group = groups[gid];
  return group.rootIndex == index ? &group : nullptr;
}

Grouping groupMatches(const Pattern& pattern, const Expr& expr) {
  return Grouper(pattern, std::make_shared<const IndexedGraph>(expr)).run();
}

Grouping groupMatches(const Pattern& pattern, std::shared_ptr<const IndexedGraph> graph) {
  return Grouper(pattern, std::move(graph)).run();
}

namespace {

/// Rebuilds the nodes marked `needed`, bottom-up; `replaced[gid]` says which roots `atRoot` replaces.
Result<Expr> rebuildNeeded(const Grouping& grouping, const GroupRewrite& atRoot, const std::vector<char>& needed,
                           const std::vector<char>& replaced, bool postOfReplaced) {
  const IndexedGraph& graph = *grouping.graph;
  std::vector<Expr> rebuilt(graph.size());
  std::vector<Expr> children;
  for (int index = 0; index < graph.size(); ++index) {
    if (!needed[index]) continue;
    const PatternGroup* group = grouping.rootedAt(index);
    const bool replace = group && replaced[grouping.groupOf[index]];
    Expr post = graph.node(index);
    if (!replace || postOfReplaced) {
      children.clear();
      for (int input : graph.inputs(index)) children.push_back(rebuilt[input]);
      post = withChildren(post, children);
    }
    if (replace) {
      BYOC_ASSIGN_OR_RETURN(rebuilt[index], atRoot(*group, post, rebuilt));
    } else {
      rebuilt[index] = std::move(post);
    }
  }
  return rebuilt.empty() ? Expr() : rebuilt.back();
}

}  // namespace

Result<Expr> rebuildGroups(const Grouping& grouping, const GroupRewrite& atRoot) {
  const int count = grouping.graph->size();
  return rebuildNeeded(grouping, atRoot, std::vector<char>(count, 1), std::vector<char>(grouping.groups.size(), 1),
                       true);
}

Result<Expr> rebuildGroups(const Grouping& grouping, const GroupRewrite& atRoot, const GroupFilter& replaces) {
  const IndexedGraph& graph = *grouping.graph;
  const int count = graph.size();
  std::vector<char> replaced(grouping.groups.size(), 0);
  for (int index = 0; index < count; ++index)
    if (const PatternGroup* group = grouping.rootedAt(index)) {
      BYOC_ASSIGN_OR_RETURN(bool replace, replaces(*group));
      replaced[grouping.groupOf[index]] = replace;
    }
  std::vector<char> needed(count, 0);
  if (count > 0) needed[count - 1] = 1;
  for (int index = count - 1; index >= 0; --index) {
    if (!needed[index]) continue;
    const PatternGroup* group = grouping.rootedAt(index);
    if (group && replaced[grouping.groupOf[index]]) {
      for (int arg : group->argIndices) needed[arg] = 1;
    } else {
      for (int input : graph.inputs(index)) needed[input] = 1;
    }
  }
  return rebuildNeeded(grouping, atRoot, needed, replaced, false);
}

}  // namespace byoc
