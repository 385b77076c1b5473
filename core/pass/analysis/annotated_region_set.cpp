#include "pass/analysis/annotated_region_set.h"

#include "ir/module.h"
#include "ir/traversal.h"
#include "pass/partition/annotations.h"
#include "pass/pass.h"

namespace byoc {

using partitioning::annotationTarget;
using partitioning::isCompilerBegin;
using partitioning::isCompilerEnd;

Result<AnnotatedRegionSet> AnnotatedRegionSet::create(const Expr& root, const PassContext* context,
                                                      const Module* module) {
  AnnotatedRegionSet set;
  set.module_ = module;
  // The membership table doubles as the visited set.
  auto done = [&](const ExprNode* node) { return set.slotOfNode_.contains(node); };
  // Regions start at begins: below a node holding no annotation, nothing is in a region (and such
  // nodes stay out of the table, which keeps it small).
  auto childrenOf = [](const ExprNode& node, std::vector<const ExprNode*>& children) {
    for (int i = 0, count = childCount(node); i < count; ++i)
      if (const ExprNode* child = childAt(node, i); partitioning::mayHoldAnnotations(*child)) children.push_back(child);
    return Status::ok();
  };
  auto visit = [&](const ExprNode& visited) -> Status {
    if (context) BYOC_TRY(context->checkCancelled());
    const Expr node(&visited);
    if (isCompilerBegin(node)) {
      int slot = static_cast<int>(set.slots_.size());
      set.slots_.push_back(AnnotatedRegion{slot, annotationTarget(node), {node}, {}});
      set.parent_.push_back(slot);
      set.slotOfNode_.emplace(node.get(), slot);
    } else if (isCompilerEnd(node)) {
      int slot = set.slotOf(node->as<CallNode>()->args[0]);
      if (slot < 0)
        return makeError("compiler_end(compiler=\"" + annotationTarget(node) +
                         "\") wraps a value that no compiler_begin leads to");
      set.slotOfNode_.emplace(node.get(), slot);
      set.slots_[slot].outs.push_back(node);
      set.ends_.push_back(node);
    } else {
      BYOC_TRY(set.joinOperandRegions(node));
      set.slotOfNode_.emplace(node.get(), kNoRegion);  // a leaf: visited, in no region
    }
    return Status::ok();
  };
  BYOC_TRY(visitChildrenFirst(root.get(), done, childrenOf, visit));
  set.module_ = nullptr;  // only for errors while building
  return set;
}

int AnnotatedRegionSet::slotOf(const Expr& node) const {
  const int* found = slotOfNode_.find(node.get());
  return found && *found != kNoRegion ? findSlot(*found) : kNoRegion;
}

Status AnnotatedRegionSet::joinOperandRegions(const Expr& node) {
  switch (node->kind()) {
    case ExprKind::Call: return addToArgRegion(node, node->as<CallNode>()->args);
    case ExprKind::Tuple: return addToArgRegion(node, node->as<TupleNode>()->fields);
    case ExprKind::TupleGetItem: return addToArgRegion(node, {&node->as<TupleGetItemNode>()->tuple, 1});
    case ExprKind::Function: return addToArgRegion(node, {&node->as<FunctionNode>()->body, 1});
    case ExprKind::If: {
      const auto& branch = *node->as<IfNode>();
      const Expr operands[] = {branch.cond, branch.thenBranch, branch.elseBranch};
      return addToArgRegion(node, operands);
    }
    case ExprKind::Let: {
      const auto& let = *node->as<LetNode>();
      const Expr operands[] = {let.var, let.value, let.body};
      return addToArgRegion(node, operands);
    }
    default: return Status::ok();
  }
}

Status AnnotatedRegionSet::addToArgRegion(const Expr& node, std::span<const Expr> args) {
  int survivor = -1;
  bool sawOpenArg = false;
  for (const Expr& arg : args) {
    if (isCompilerEnd(arg)) continue;  // a closed region
    int slot = slotOf(arg);
    if (sawOpenArg && (slot < 0) != (survivor < 0)) {
      Diagnostic error = makeError(std::string("the arguments of a ") + exprKindName(node->kind()) +
                                   " are partly inside and partly outside annotated regions");
      if (auto location = module_ ? module_->locate(node) : std::nullopt) error.location = *location;
      return error;
    }
    sawOpenArg = true;
    if (slot < 0 || slot == survivor) continue;
    if (survivor < 0) {
      survivor = slot;
    } else {
      merge(slots_[slot], slots_[survivor]);
    }
  }
  slotOfNode_.emplace(node.get(), survivor);  // kNoRegion when no argument is in a region
  return Status::ok();
}

int AnnotatedRegionSet::findSlot(int slot) const {
  while (parent_[slot] != slot) {
    parent_[slot] = parent_[parent_[slot]];
    slot = parent_[slot];
  }
  return slot;
}

AnnotatedRegion* AnnotatedRegionSet::regionOf(const Expr& node) {
  const int slot = slotOf(node);
  return slot == kNoRegion ? nullptr : &slots_[slot];
}

const AnnotatedRegion* AnnotatedRegionSet::regionOf(const Expr& node) const {
  const int slot = slotOf(node);
  return slot == kNoRegion ? nullptr : &slots_[slot];
}

void AnnotatedRegionSet::merge(AnnotatedRegion& from, AnnotatedRegion& into) {
  if (&from == &into) return;
  // Slots are created in id order, so a region's slot is its original id.
  parent_[from.id] = into.id;
  into.ins.splice(into.ins.end(), from.ins);
  into.outs.splice(into.outs.end(), from.outs);
}

std::vector<AnnotatedRegion*> AnnotatedRegionSet::regions() {
  std::vector<AnnotatedRegion*> survivors;
  for (std::size_t slot = 0; slot < slots_.size(); ++slot)
    if (findSlot(static_cast<int>(slot)) == static_cast<int>(slot)) survivors.push_back(&slots_[slot]);
  return survivors;
}

}  // namespace byoc
