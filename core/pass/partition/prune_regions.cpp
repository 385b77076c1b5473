/// \file
/// PruneRegions: inlines back into the host the outlined functions of a target that are not worth
/// offloading, as TVM's `prune_dnnl_subgraphs` does.
///
/// Input: a module after PartitionGraph. Output: every function with `Compiler=<target>` whose body
/// (composite bodies included) calls none of the target's `prune_keep_ops` is replaced at each call
/// site by its body, with its parameters bound to the call's arguments, and removed from the
/// module. Nothing changes when the target has no keep-ops or only one such function exists.

#include <unordered_set>

#include "ir/op.h"
#include "ir/function_attrs.h"
#include "ir/substitute.h"
#include "ir/traversal.h"
#include "pass/analysis/function_utils.h"
#include "pass/infer_type.h"
#include "pass/partition/partition_passes.h"

namespace byoc {

namespace prune_regions {

/// Replaces calls of the pruned functions by their bodies.
class Inliner final : public ExprMutator {
 public:
  explicit Inliner(const std::unordered_map<std::string, Function>& pruned) : pruned_(pruned) {}

 protected:
  Result<Expr> rewriteCall(const Call& /*pre*/, const Call& call) override {
    const auto* callee = call->callee->as<GlobalVarNode>();
    auto found = callee ? pruned_.find(callee->name) : pruned_.end();
    if (found == pruned_.end()) return Expr(call);
    const Function& function = found->second;
    VarBindings bindings;
    for (std::size_t i = 0; i < function->params.size() && i < call->args.size(); ++i)
      bindings.emplace(function->params[i].get(), call->args[i]);
    return substitute(function->body, bindings);
  }

 private:
  const std::unordered_map<std::string, Function>& pruned_;
};

Result<PassResult> prune(const Module& module, const Target& target) {
  if (target.pruneKeepOps.empty()) return PassResult{module, false};
  std::vector<std::pair<std::string, Function>> regions;
  for (const auto& [name, function] : module.functions()) {
    const AttrValue* compiler = function->attrs.find(attr::kCompiler);
    if (compiler && compiler->isString() && compiler->asString() == target.name) regions.emplace_back(name, function);
  }
  if (regions.size() <= 1) return PassResult{module, false};
  std::unordered_map<std::string, Function> pruned;
  for (const auto& [name, function] : regions)
    if (!callsAnyOf(function, target.pruneKeepOps)) pruned.emplace(name, function);
  if (pruned.empty()) return PassResult{module, false};
  Module result;
  result.setAttrs(module.attrs());
  result.setProvenance(module.provenance());
  Inliner inliner(pruned);
  for (const auto& [name, function] : module.functions()) {
    if (pruned.count(name)) continue;
    BYOC_ASSIGN_OR_RETURN(Expr inlined, inliner.mutate(function));
    result.set(name, downcast<FunctionNode>(inlined));
  }
  BYOC_ASSIGN_OR_RETURN(Module typed, inferTypes(result, TypeReuse::KeepTypedSubgraphs));
  return PassResult{std::move(typed), true};
}

}  // namespace prune_regions

PassPtr createPruneRegionsPass(std::shared_ptr<const Target> target) {
  PassInfo info;
  info.name = "PruneRegions";
  info.summary = "inlines back the outlined functions of a target that contain none of its heavy ops";
  info.description = "Input: a module after PartitionGraph. When the target has prune_keep_ops and more than one "
                     "outlined function, each function calling none of those ops is inlined back at its call sites "
                     "(TVM's prune_dnnl_subgraphs).";
  info.options = {{"target", AttrValue(""), "the target whose prune_keep_ops decide"}};
  return makeModulePass(std::move(info), [target = std::move(target)](const Module& module, PassContext&) {
    return prune_regions::prune(module, *target);
  });
}

}  // namespace byoc
