/// \file
/// FuseOps (contract in the header).

#include "pass/transforms/fuse_ops.h"

#include <string>
#include <unordered_map>
#include <vector>

#include "ir/function_attrs.h"
#include "ir/ops/op_helpers.h"
#include "pass/analysis/function_utils.h"
#include "pass/analysis/fusion_partition.h"

namespace byoc {

namespace fuse_ops {

/// The parameters of one group: which outside value each stands for.
struct GroupParams {
  std::vector<Var> params;
  /// The outside values, as nodes of the input graph, parallel to `params`.
  std::vector<Expr> arguments;
  std::unordered_map<const ExprNode*, Var> byArgument;
};

/// Rewrites one body: members of a group are rebuilt over the group's parameters, and the
/// group's root becomes a call of the new primitive function.
class Fuser final : public OpaqueFunctionSkippingMutator {
 public:
  Fuser(const FusionGraph& graph, std::vector<std::size_t> roots) : graph_(graph), roots_(std::move(roots)) {
    for (std::size_t i = 0; i < roots_.size(); ++i) members_[roots_[i]].push_back(i);
  }

 protected:
  Result<Expr> rewriteCall(const Call& pre, const Call& call) override {
    if (!call->opDef() || call->opDef()->name.starts_with("annotation.")) return Expr(call);  // markers, not computations
    std::size_t group = groupOf(pre);
    std::vector<Expr> args = inputsFor(group, pre->args, call->args);
    Expr inner = CallNode::make(call->callee, std::move(args), call->attrs, call->origin());
    return isRoot(group, pre) ? outline(group, pre, inner) : inner;
  }

  Result<Expr> rewriteTuple(const Tuple& pre, const Tuple& tuple) override {
    std::size_t group = groupOf(pre);
    if (isRoot(group, pre)) return Expr(tuple);
    return Expr(TupleNode::make(inputsFor(group, pre->fields, tuple->fields), tuple->origin()));
  }

  Result<Expr> rewriteTupleGetItem(const TupleGetItem& pre, const TupleGetItem& item) override {
    std::size_t group = groupOf(pre);
    Expr tuple = inputsFor(group, {pre->tuple}, {item->tuple})[0];
    Expr inner = TupleGetItemNode::make(tuple, item->index, item->origin());
    if (!isRoot(group, pre)) return inner;
    if (groupOf(pre->tuple) != group) return Expr(item);  // a lone projection of an opaque tuple
    return outline(group, pre, inner);
  }

 private:
  static constexpr std::size_t kOutside = static_cast<std::size_t>(-1);

  std::size_t groupOf(const Expr& node) const {
    auto it = graph_.index.find(node.get());
    return it == graph_.index.end() ? kOutside : roots_[it->second];
  }
  bool isRoot(std::size_t group, const Expr& node) const {
    return group != kOutside && graph_.nodes[group].ref == node;
  }
  bool outsideOf(std::size_t group, const Expr& input) const {
    std::size_t inputGroup = groupOf(input);
    return group != kOutside && inputGroup != kOutside && inputGroup != group;
  }

  /// The rewritten inputs of a member: values from outside the group become its parameters.
  std::vector<Expr> inputsFor(std::size_t group, const std::vector<Expr>& preInputs, const std::vector<Expr>& postInputs) {
    std::vector<Expr> inputs = postInputs;
    for (std::size_t i = 0; i < preInputs.size(); ++i)
      if (outsideOf(group, preInputs[i])) inputs[i] = paramsOf(group).byArgument.at(preInputs[i].get());
    return inputs;
  }

  /// The group's parameters, allocated on first use as TVM does: a walk from the group's root
  /// that, for each member, goes through its inputs in order, descending into members not seen
  /// yet and giving each outside value seen for the first time the next parameter `%pN`.
  GroupParams& paramsOf(std::size_t group) {
    auto found = params_.find(group);
    if (found != params_.end()) return found->second;
    GroupParams& result = params_[group];
    struct Frame {
      Expr node;
      std::size_t next;
    };
    std::vector<Frame> stack{{graph_.nodes[group].ref, 0}};
    std::unordered_map<const ExprNode*, bool> seen{{stack.back().node.get(), true}};
    while (!stack.empty()) {
      std::vector<Expr> inputs = memberInputs(stack.back().node);
      if (stack.back().next >= inputs.size()) {
        stack.pop_back();
        continue;
      }
      Expr input = inputs[stack.back().next++];
      if (outsideOf(group, input)) {
        if (result.byArgument.count(input.get())) continue;
        Var param = VarNode::make("p" + std::to_string(result.params.size()), input->type(), input->origin());
        result.byArgument.emplace(input.get(), param);
        result.params.push_back(param);
        result.arguments.push_back(input);
      } else if (groupOf(input) == group && !seen[input.get()]) {
        seen[input.get()] = true;
        stack.push_back({input, 0});
      }
    }
    return result;
  }

  static std::vector<Expr> memberInputs(const Expr& node) {
    if (const auto* call = node->as<CallNode>()) return call->opDef() ? call->args : std::vector<Expr>{};
    if (const auto* tuple = node->as<TupleNode>()) return tuple->fields;
    if (const auto* item = node->as<TupleGetItemNode>()) return {item->tuple};
    return {};
  }

  /// `fn (params, Primitive=1) { inner }(arguments…)`.
  Expr outline(std::size_t group, const Expr& pre, const Expr& inner) {
    GroupParams& params = paramsOf(group);
    std::vector<Origin> origins;
    for (std::size_t member : members_.at(group)) origins.push_back(graph_.nodes[member].ref->origin());
    Origin origin = Origin::unite(origins);
    Function function =
        FunctionNode::make(params.params, inner, pre->type(), Attrs{{attr::kPrimitive, AttrValue(1)}}, origin);
    std::vector<Expr> arguments;
    arguments.reserve(params.arguments.size());
    for (const Expr& argument : params.arguments) arguments.push_back(rewritten(argument));
    return CallNode::make(function, std::move(arguments), {}, origin);
  }

  const FusionGraph& graph_;
  std::vector<std::size_t> roots_;
  std::unordered_map<std::size_t, std::vector<std::size_t>> members_;
  std::unordered_map<std::size_t, GroupParams> params_;
};

}  // namespace fuse_ops

Function fuseOps(const Function& function, int optLevel, int maxFuseDepth) {
  FusionGraph graph = buildFusionGraph(function->body);
  std::vector<std::size_t> roots = partitionForFusion(graph, optLevel, maxFuseDepth);
  fuse_ops::Fuser fuser(graph, std::move(roots));
  return withBody(function, fuser.mutate(function->body).value());  // its hooks cannot fail
}

namespace {

PassInfo fuseOpsInfo() {
  return {"FuseOps", "fuses ops into primitive functions by fusion kind", 0, {"InferType"},
          "Groups ops with TVM's dominator-based rules (an out-elementwise-fusable op with its elementwise "
          "and broadcast consumers, chains of injective ops, opaque ops alone) and outlines each group as a "
          "function with Primitive=1. Needs types; InferType runs after it.",
          {{"fuse_opt_level", AttrValue(-1), "fusion level: 0 puts every op alone, -1 uses the context's opt level"}}};
}

}  // namespace

PassPtr createFuseOpsPass(int fuseOptLevel) {
  PassInfo info = fuseOpsInfo();
  info.options[0].defaultValue = AttrValue(fuseOptLevel);
  return makeFunctionPass(std::move(info), [fuseOptLevel](const Function& function, const Module&, PassContext& context) {
    int level = fuseOptLevel < 0 ? context.optLevel : fuseOptLevel;
    const AttrValue* depth = context.config.find("relay.FuseOps.max_depth");
    int maxDepth = depth && depth->isInt() ? static_cast<int>(depth->asInt()) : 256;
    return Result<Function>(fuseOps(function, level, maxDepth));
  });
}

PassRegistration fuseOpsRegistration() {
  return {fuseOpsInfo(), [](const Attrs& options) -> Result<PassPtr> {
            BYOC_ASSIGN_OR_RETURN(const int64_t level, ops::intAttr("FuseOps", options, "fuse_opt_level"));
            return createFuseOpsPass(static_cast<int>(level));
          }};
}

}  // namespace byoc
