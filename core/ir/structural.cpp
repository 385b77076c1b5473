#include "ir/structural.h"

#include <utility>
#include <vector>

#include "ir/module.h"
#include "ir/node_map.h"
#include "ir/op.h"
#include "ir/traversal.h"

namespace byoc {

namespace {

void hashCombine(std::size_t& seed, std::size_t value) {
  seed ^= value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

/// Compares what a node holds besides its children.
bool sameLocalFields(const ExprNode& a, const ExprNode& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case ExprKind::Var:
      return typeEqual(a.as<VarNode>()->annotation, b.as<VarNode>()->annotation);
    case ExprKind::GlobalVar:
      return a.as<GlobalVarNode>()->name == b.as<GlobalVarNode>()->name;
    case ExprKind::Constant:
      return a.as<ConstantNode>()->data == b.as<ConstantNode>()->data;
    case ExprKind::Op:
      return &a.as<OpNode>()->def == &b.as<OpNode>()->def;
    case ExprKind::Call:
      return a.as<CallNode>()->args.size() == b.as<CallNode>()->args.size() &&
             a.as<CallNode>()->attrs == b.as<CallNode>()->attrs;
    case ExprKind::Tuple:
      return a.as<TupleNode>()->fields.size() == b.as<TupleNode>()->fields.size();
    case ExprKind::TupleGetItem:
      return a.as<TupleGetItemNode>()->index == b.as<TupleGetItemNode>()->index;
    case ExprKind::Function: {
      const auto& fa = *a.as<FunctionNode>();
      const auto& fb = *b.as<FunctionNode>();
      return fa.params.size() == fb.params.size() && fa.attrs == fb.attrs && typeEqual(fa.retType, fb.retType);
    }
    case ExprKind::If:
    case ExprKind::Let:
      return true;
  }
  return false;
}

std::size_t localHash(const ExprNode& node) {
  std::size_t seed = static_cast<std::size_t>(node.kind()) * 0x100000001b3ULL;
  switch (node.kind()) {
    case ExprKind::Var:
      hashCombine(seed, typeHash(node.as<VarNode>()->annotation));
      break;
    case ExprKind::GlobalVar:
      hashCombine(seed, std::hash<std::string>()(node.as<GlobalVarNode>()->name));
      break;
    case ExprKind::Constant:
      hashCombine(seed, node.as<ConstantNode>()->data.hash());
      break;
    case ExprKind::Op:
      hashCombine(seed, std::hash<std::string>()(node.as<OpNode>()->name()));
      break;
    case ExprKind::Call:
      hashCombine(seed, node.as<CallNode>()->attrs.hash());
      break;
    case ExprKind::TupleGetItem:
      hashCombine(seed, static_cast<std::size_t>(node.as<TupleGetItemNode>()->index));
      break;
    case ExprKind::Function:
      hashCombine(seed, node.as<FunctionNode>()->attrs.hash());
      hashCombine(seed, typeHash(node.as<FunctionNode>()->retType));
      break;
    default:
      break;
  }
  return seed;
}

/// Walks both graphs in lock step, keeping a one-to-one map between their nodes.
class EqualityChecker {
 public:
  bool equal(const Expr& lhs, const Expr& rhs) {
    std::vector<std::pair<const ExprNode*, const ExprNode*>> work{{lhs.get(), rhs.get()}};
    while (!work.empty()) {
      auto [a, b] = work.back();
      work.pop_back();
      if (!a || !b) {
        if (a != b) return false;
        continue;
      }
      if (const ExprNode* const* forward = lhsToRhs_.find(a)) {
        if (*forward != b) return false;
        continue;
      }
      if (rhsToLhs_.contains(b) || !sameLocalFields(*a, *b)) return false;
      lhsToRhs_.emplace(a, b);
      rhsToLhs_.emplace(b, a);
      const int count = childCount(*a);
      if (count != childCount(*b)) return false;
      for (int i = count; i-- > 0;) work.emplace_back(childAt(*a, i), childAt(*b, i));
      // Children are popped later than this frame; keep them alive through the inputs' roots.
    }
    return true;
  }

 private:
  NodeMap<const ExprNode*> lhsToRhs_;
  NodeMap<const ExprNode*> rhsToLhs_;
};

/// Post-order hashing; a variable hashes as the order in which it was first reached.
class Hasher {
 public:
  std::size_t hash(const Expr& root) {
    postOrderVisit(root, [this](const Expr& node) {
      std::size_t seed = localHash(*node);
      if (node->kind() == ExprKind::Var) hashCombine(seed, nextVarIndex_++);
      for (int i = 0, count = childCount(*node); i < count; ++i) hashCombine(seed, *hashes_.find(childAt(*node, i)));
      hashes_.emplace(node.get(), seed);
    });
    return *hashes_.find(root.get());
  }

 private:
  NodeMap<std::size_t> hashes_;
  std::size_t nextVarIndex_ = 0;
};

}  // namespace

bool structuralEqual(const Expr& lhs, const Expr& rhs) { return EqualityChecker().equal(lhs, rhs); }

bool structuralEqual(const Module& lhs, const Module& rhs) {
  if (lhs.functions().size() != rhs.functions().size() || !(lhs.attrs() == rhs.attrs())) return false;
  EqualityChecker checker;
  for (std::size_t i = 0; i < lhs.functions().size(); ++i) {
    const auto& [nameA, functionA] = lhs.functions()[i];
    const auto& [nameB, functionB] = rhs.functions()[i];
    if (nameA != nameB || !checker.equal(functionA, functionB)) return false;
  }
  return true;
}

std::size_t structuralHash(const Expr& expr) { return expr ? Hasher().hash(expr) : 0; }

std::size_t structuralHash(const Module& module) {
  std::size_t seed = module.attrs().hash();
  for (const auto& [name, function] : module.functions()) {
    hashCombine(seed, std::hash<std::string>()(name));
    hashCombine(seed, structuralHash(function));
  }
  return seed;
}

}  // namespace byoc
