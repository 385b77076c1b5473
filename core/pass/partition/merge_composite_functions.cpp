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
#include "ir/traversal.h"
#include "pass/analysis/binding_order.h"
#include "pass/analysis/global_calls.h"
#include "pass/analysis/group_outliner.h"
#include "pass/infer_type.h"
#include "pass/partition/composite_calls.h"
#include "pass/partition/global_names.h"
#include "pass/partition/partition_passes.h"

namespace byoc {

namespace merge_composite_functions {

/// Groups of main's nodes, with union-find merging and transitive dependencies.
class Grouping {
 public:
  int make(std::string codegen) {
    parent_.push_back(static_cast<int>(parent_.size()));
    codegen_.push_back(std::move(codegen));
    deps_.emplace_back();
    return parent_.back();
  }
  int find(int group) const {
    while (parent_[group] != group) group = parent_[group];
    return group;
  }
  const std::string& codegen(int group) const { return codegen_[find(group)]; }
  /// The groups `group` depends on, transitively, as current representatives.
  std::set<int> deps(int group) const {
    std::set<int> result;
    for (int dep : deps_[find(group)]) result.insert(find(dep));
    return result;
  }
  void addDeps(int group, const std::set<int>& more) { deps_[find(group)].insert(more.begin(), more.end()); }
  void merge(int from, int into) {
    from = find(from);
    into = find(into);
    if (from == into) return;
    parent_[from] = into;
    deps_[into].insert(deps_[from].begin(), deps_[from].end());
  }

 private:
  std::vector<int> parent_;
  std::vector<std::string> codegen_;
  std::vector<std::set<int>> deps_;
};

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
    return function && function->attrs.contains("Composite") ? function : Function();
  };

  Grouping grouping;
  std::unordered_map<const ExprNode*, int> groupOf;
  std::vector<Expr> order;
  Status status;
  auto visit = [&](const Expr& node) {
    if (status) status = context.checkCancelled();
    if (!status || node->kind() == ExprKind::Op || node->kind() == ExprKind::GlobalVar) return;
    order.push_back(node);
    std::vector<int> argGroups;
    for (const Expr& child : childrenOf(*node))
      if (auto found = groupOf.find(child.get()); found != groupOf.end()) argGroups.push_back(grouping.find(found->second));
    std::set<int> reached;  // what the arguments' groups depend on
    for (int g : argGroups) {
      std::set<int> deps = grouping.deps(g);
      reached.insert(deps.begin(), deps.end());
    }
    int group = -1;
    if (Function composite = compositeOf(node)) {
      Result<std::string> name = ops::requiredStringAttr("a composite function", composite->attrs, "Composite");
      Result<std::string> codegen = name ? codegenOfComposite(*name) : Result<std::string>(name.error());
      if (!codegen) {
        status = codegen.error();
        return;
      }
      for (int g : argGroups) {
        if (grouping.codegen(g) != *codegen || reached.count(grouping.find(g))) continue;
        if (group < 0) group = grouping.find(g);
        else grouping.merge(g, group);
      }
      if (group < 0) group = grouping.make(*codegen);
    } else {
      group = grouping.make("");
    }
    std::set<int> deps = reached;
    for (int g : argGroups) deps.insert(grouping.find(g));
    deps.erase(grouping.find(group));
    grouping.addDeps(group, deps);
    groupOf[node.get()] = group;
  };
  for (const Expr& node : bindingOrder(main->body)) visit(node);  // producers first, as Relax binds them
  if (!status) return status.error();

  std::map<int, NodeGroup> merged;
  for (const Expr& node : order) {
    int group = grouping.find(groupOf.at(node.get()));
    if (!grouping.codegen(group).empty()) merged[group].members.push_back(node);
  }
  if (merged.empty()) return PassResult{module, false};
  std::vector<NodeGroup> groups;
  std::vector<std::string> codegens;
  for (auto& [group, members] : merged) {
    groups.push_back(std::move(members));
    codegens.push_back(grouping.codegen(group));
  }

  Module result = module;
  GlobalNames names(module, GlobalNames::Suffix::Appended);
  GroupFunctionMaker maker;
  maker.liftConstants = liftConstants;
  SharedFunctions created;  // two equal groups (two calls of one composite alone) share one function
  maker.define = [&](std::size_t g, std::vector<Var> params, Expr body) -> Result<std::string> {
    BYOC_TRY(context.checkCancelled());
    const Function grouped = FunctionNode::make(params, body, {}, Attrs{{"Codegen", codegens[g]}}, body->origin());
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
                                          Attrs{{"Codegen", codegens[g]}, {"global_symbol", symbol}}, body->origin()));
    return symbol;
  };
  BYOC_ASSIGN_OR_RETURN(Function rewritten, outlineGroups(main, groups, maker));
  result.set("main", rewritten);

  // The global composites are now only called through their local copies.
  std::set<std::string, std::less<>> called;
  for (const auto& [name, function] : result.functions()) called.merge(referencedGlobals(function));
  for (const auto& [name, function] : module.functions())
    if (function->attrs.contains("Composite") && !called.count(name)) result.erase(name);
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
