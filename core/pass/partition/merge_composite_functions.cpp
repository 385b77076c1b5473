/// \file
/// MergeCompositeFunctions: the Relax flow's second step (spec §7.2). In `main`, calls of global
/// composites of one codegen are merged into groups, each outlined as `fused_<…>_<codegen>` with
/// `Codegen` and `global_symbol`; inside, the composites are called as local copies.
///
/// Input: a typed module after FuseOpsByPattern. A composite call joins the group of an argument of
/// its codegen unless that group is also reached through another argument's dependencies (which
/// would make a cycle); several such argument groups merge. Values used outside a group become
/// extra outputs; with `lift_constants` (the default, as in TVM) constants a group reads become its
/// parameters `param_<k>`. Global composites no longer called are removed. Run RunCodegen next.

#include <set>

#include "ir/ops/op_helpers.h"
#include "ir/function_attrs.h"
#include "ir/traversal.h"
#include "pass/analysis/binding_order.h"
#include "pass/analysis/composite_grouping.h"
#include "pass/analysis/global_calls.h"
#include "pass/analysis/group_outliner.h"
#include "pass/infer_type.h"
#include "pass/partition/composite_calls.h"
#include "pass/partition/global_names.h"
#include "pass/partition/partition_passes.h"

namespace byoc {

namespace merge_composite_functions {

/// Replaces calls of global composites by calls of local copies, one copy per composite.
class LocalCopies final : public ExprMutator {
 public:
  LocalCopies(const Module& module, std::unordered_map<std::string, Expr>& copies) : module_(module), copies_(copies) {}

 protected:
  Result<Expr> rewriteGlobalVar(const GlobalVar& global) override {
    auto copy = copies_.find(global->name);
    if (copy != copies_.end()) return copy->second;
    const Function composite = module_.find(global->name);
    if (!composite) return makeError("MergeCompositeFunctions: @" + global->name + " is called but not defined");
    return copies_.emplace(global->name, localCompositeCopy(composite)).first->second;
  }

 private:
  const Module& module_;
  std::unordered_map<std::string, Expr>& copies_;
};

Result<PassResult> mergeComposites(const Module& module, bool liftConstants, const PassContext& context) {
  Function main = module.find("main");
  if (!main) return PassResult{module, false};
  auto compositeOf = [&](const Expr& node) -> Function {
    const auto* call = node->as<CallNode>();
    const auto* callee = call ? call->callee->as<GlobalVarNode>() : nullptr;
    Function function = callee ? module.find(callee->name) : Function();
    return function && function->attrs.contains(attr::kComposite) ? function : Function();
  };

  // Every node of main, producers first, with its codegen ("" for a node that is not a composite call).
  const std::vector<Expr> bodyOrder = bindingOrder(main->body);  // producers first, as Relax binds them
  const std::vector<Expr> order = [&] {
    std::vector<Expr> nodes;
    for (const Expr& node : bodyOrder)
      if (node->kind() != ExprKind::Op && node->kind() != ExprKind::GlobalVar) nodes.push_back(node);
    return nodes;
  }();
  NodeMap<int> indexOf(order.size());
  std::vector<std::string> codegenOf(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    BYOC_TRY(context.checkCancelled());
    indexOf.emplace(order[i].get(), static_cast<int>(i));
    if (Function composite = compositeOf(order[i])) {
      BYOC_ASSIGN_OR_RETURN(std::string name, ops::requiredStringAttr("a composite function", composite->attrs, attr::kComposite));
      BYOC_ASSIGN_OR_RETURN(codegenOf[i], codegenOfComposite(name));
    }
  }
  std::vector<std::vector<int>> operands(order.size());  // the nodes each node reads, by index
  for (std::size_t i = 0; i < order.size(); ++i)
    for (int c = 0, count = childCount(*order[i]); c < count; ++c)
      if (const int* found = indexOf.find(childAt(*order[i], c)); found && *found < static_cast<int>(i))
        operands[i].push_back(*found);
  BYOC_ASSIGN_OR_RETURN(std::vector<int> groupOf, groupCompositeCalls(operands, codegenOf, &context));

  std::map<int, NodeGroup> merged;  // by group, as numbered
  std::map<int, std::string> codegenOfGroup;
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (codegenOf[i].empty()) continue;
    const int group = groupOf[i];
    merged[group].members.push_back(order[i]);
    codegenOfGroup[group] = codegenOf[i];
  }
  if (merged.empty()) return PassResult{module, false};
  std::vector<NodeGroup> outlined;
  std::vector<std::string> codegens;
  for (auto& [group, members] : merged) {
    outlined.push_back(std::move(members));
    codegens.push_back(codegenOfGroup.at(group));
  }

  Module result = module;
  GlobalNames names(module, GlobalNames::Suffix::Appended);
  GroupFunctionMaker maker;
  maker.liftConstants = liftConstants;
  SharedFunctions created;  // two equal groups (two calls of one composite alone) share one function
  maker.define = [&](std::size_t g, std::vector<Var> params, Expr body) -> Result<std::string> {
    BYOC_TRY(context.checkCancelled());
    const Function grouped = FunctionNode::make(params, body, {}, Attrs{{attr::kCodegen, codegens[g]}}, body->origin());
    if (const std::string* shared = created.find(grouped)) return *shared;
    std::unordered_map<std::string, Expr> copies;
    std::string name = "fused";  // and the composites called, in binding order
    for (const Expr& node : bindingOrder(body)) {
      const auto* call = node->as<CallNode>();
      const auto* callee = call ? call->callee->as<GlobalVarNode>() : nullptr;
      if (callee) name += "_" + (callee->name.starts_with("fused_") ? callee->name.substr(6) : callee->name);
    }
    LocalCopies localCopies(module, copies);
    BYOC_ASSIGN_OR_RETURN(Expr localBody, localCopies.mutate(body));
    std::string symbol = names.fresh(name) + "_" + codegens[g];
    created.add(grouped, symbol);
    result.set(symbol, FunctionNode::make(std::move(params), localBody, {},
                                          Attrs{{attr::kCodegen, codegens[g]}, {attr::kGlobalSymbol, symbol}}, body->origin()));
    return symbol;
  };
  BYOC_ASSIGN_OR_RETURN(Function rewritten, outlineGroups(main, bodyOrder, outlined, maker));
  result.set("main", rewritten);

  // The global composites are now only called through their local copies.
  std::set<std::string, std::less<>> called;
  for (const auto& [name, function] : result.functions()) called.merge(referencedGlobals(function));
  for (const auto& [name, function] : module.functions())
    if (function->attrs.contains(attr::kComposite) && !called.count(name)) result.erase(name);
  BYOC_ASSIGN_OR_RETURN(Module typed, inferTypes(result, TypeReuse::KeepTypedSubgraphs, &context));
  return PassResult{std::move(typed), true};
}

}  // namespace merge_composite_functions

PassPtr createMergeCompositeFunctionsPass(bool liftConstants) {
  PassInfo info;
  info.name = "MergeCompositeFunctions";
  info.summary = "merges calls of composites of one codegen into external functions without creating cycles (Relax)";
  info.description = "Input: main after FuseOpsByPattern. Composite calls join the group of an argument of the same "
                     "codegen unless another argument depends on that group; each group becomes fused_…_<codegen> "
                     "with Codegen and global_symbol, calling local copies of the composites. Run RunCodegen next.";
  info.required = {"InferType"};
  info.options = {{"lift_constants", AttrValue(true), "constants the merged calls read become parameters param_<k> (TVM)"}};
  return makeModulePass(std::move(info), [liftConstants](const Module& module, PassContext& context) {
    return merge_composite_functions::mergeComposites(module, liftConstants, context);
  });
}

}  // namespace byoc
