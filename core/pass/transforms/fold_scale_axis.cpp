/// \file
/// BackwardFoldScaleAxis (contract in the header). First a plan: for each multiply by a
/// foldable scale, the convolutions and biases that take the scale; then one bottom-up rewrite
/// applies it. Every walk is iterative.

#include "pass/transforms/fold_scale_axis.h"

#include <unordered_map>

#include "ir/op.h"
#include "ir/traversal.h"
#include "pass/analysis/function_utils.h"
#include "pass/transforms/fold_constant.h"
#include "pass/transforms/fold_scale_axis_util.h"

namespace byoc {

namespace {

using namespace fold_scale_axis;

/// Where a scale goes: the 1-D scale is built once per multiply and shared by its uses.
struct Use {
  Expr scale;              ///< the squeezed scale
  std::size_t axis = 0;    ///< the axis scaled: the channel axis, or for a convolution its kernel's O axis
  std::size_t rank = 0;    ///< the rank of the scaled value (for a convolution, of its kernel)
  int biasSide = -1;       ///< for add/subtract: the side that is a bias (-1: none)
};

bool isConv(const std::string& name) { return name == "nn.conv2d" || name == "nn.conv3d"; }

/// The ops whose weight takes the scale: the convolutions and dense.
bool isAnchor(const std::string& name) { return isConv(name) || name == "nn.dense"; }

class Planner {
 public:
  explicit Planner(const Expr& body) {
    postOrderVisit(body, [this](const Expr& node) {
      for (const Expr& child : childrenOf(*node)) ++uses_[child.get()];
    });
  }

  /// Plans the fold of `multiply` (a typed call) into what produces its scaled operand.
  void plan(const Expr& multiply) {
    const auto* call = multiply->as<CallNode>();
    for (int side = 0; side < 2; ++side) {
      const Expr& value = call->args[static_cast<std::size_t>(side)];
      const auto* constant = call->args[static_cast<std::size_t>(1 - side)]->as<ConstantNode>();
      if (constant && planFrom(multiply, value, *constant)) return;
    }
  }

  const std::unordered_map<const ExprNode*, Use>& uses() const { return planned_; }
  const std::unordered_map<const ExprNode*, int>& roots() const { return roots_; }

 private:
  bool planFrom(const Expr& multiply, const Expr& value, const ConstantNode& scale) {
    const TensorTypeNode* type = tensorTypeOf(value);
    const TensorTypeNode* scaleType = tensorTypeOf(Expr(&scale));
    if (!type || !scaleType || uses_[value.get()] != 1) return false;
    std::unordered_map<const ExprNode*, Use> found;
    std::optional<std::size_t> axis;
    bool needsPositive = false;
    std::vector<Expr> work{value};
    while (!work.empty()) {
      Expr node = work.back();
      work.pop_back();
      const std::string& name = opName(node);
      const auto* call = node->as<CallNode>();
      if (uses_[node.get()] != 1 || !tensorTypeOf(node)) return false;
      if (name == "nn.relu") {
        needsPositive = true;
        work.push_back(call->args[0]);
      } else if (isConv(name)) {
        auto axes = convAxes(*call);
        if (!axes || (axis && *axis != axes->outputChannel)) return false;
        axis = axes->outputChannel;
        found[node.get()] = {{}, axes->kernelOut, axes->kernelRank, -1};
      } else if (name == "nn.dense") {
        // TVM scales the output features (axis 1) through the weight's rows; that is the
        // feature axis of the result only in 2-D.
        if (tensorTypeOf(node)->shape.size() != 2 || (axis && *axis != 1)) return false;
        axis = 1;
        found[node.get()] = {{}, 0, 2, -1};
      } else if (name == "add" || name == "subtract") {
        const bool left = isScalable(call->args[0]), right = isScalable(call->args[1]);
        if (!left && !right) return false;
        found[node.get()] = {{}, 0, tensorTypeOf(node)->shape.size(), left && right ? -1 : (left ? 1 : 0)};
        if (left) work.push_back(call->args[0]);
        if (right) work.push_back(call->args[1]);
      } else {
        return false;
      }
    }
    if (!axis) return false;
    Result<std::optional<Expr>> oneD = channelScale(Expr(&scale), *scaleType, type->shape, *axis);
    if (!oneD || !*oneD) return false;
    if (needsPositive && !isAllPositiveConstant(**oneD)) return false;
    // Every bias must broadcast along the channel axis only.
    for (auto& [node, use] : found) {
      if (use.biasSide < 0) continue;
      const Expr& bias = static_cast<const CallNode*>(node)->args[static_cast<std::size_t>(use.biasSide)];
      const TensorTypeNode* biasType = tensorTypeOf(bias);
      if (!biasType || !matchesChannelAxis(tensorTypeOf(Expr(node))->shape, biasType->shape, *axis)) return false;
    }
    for (auto& [node, use] : found) {
      use.scale = **oneD;
      if (use.biasSide >= 0 || !isAnchor(opName(Expr(node)))) use.axis = *axis;
      planned_[node] = use;
    }
    roots_[multiply.get()] = multiply->as<CallNode>()->args[0] == value ? 0 : 1;
    return true;
  }

  /// Whether a scale may be pushed into `node` (a call of an op on the way back).
  static bool isScalable(const Expr& node) {
    const std::string& name = opName(node);
    return name == "nn.relu" || isAnchor(name) || name == "add" || name == "subtract";
  }

  std::unordered_map<const ExprNode*, int> uses_;
  std::unordered_map<const ExprNode*, Use> planned_;
  std::unordered_map<const ExprNode*, int> roots_;  ///< multiply → the side of the scaled value
};

Result<Expr> scaled(const Expr& value, const Use& use, std::size_t rank, std::size_t axis) {
  BYOC_ASSIGN_OR_RETURN(Expr factor, expandToAxis(use.scale, rank, axis));
  BYOC_ASSIGN_OR_RETURN(Call call, makeOpCall("multiply", {value, factor}, {}, value->origin()));
  return Expr(call);
}

class Folder final : public OpaqueFunctionSkippingMutator {
 public:
  explicit Folder(const Planner& plan) : plan_(plan) {}

 protected:
  // The planned roots and uses are all calls.
  Result<Expr> rewriteCall(const Call& pre, const Call& post) override {
    if (auto root = plan_.roots().find(pre.get()); root != plan_.roots().end())
      return post->args[static_cast<std::size_t>(root->second)];
    auto found = plan_.uses().find(pre.get());
    if (found == plan_.uses().end()) return Expr(post);
    return apply(post, found->second);
  }

 private:
  Result<Expr> apply(const Call& call, const Use& use) {
    std::vector<Expr> args = call->args;
    if (use.biasSide < 0 && isAnchor(opName(call))) {
      BYOC_ASSIGN_OR_RETURN(args[1], scaled(args[1], use, use.rank, use.axis));
    } else if (use.biasSide >= 0) {
      const std::size_t side = static_cast<std::size_t>(use.biasSide);
      BYOC_ASSIGN_OR_RETURN(args[side], scaled(args[side], use, use.rank, use.axis));
    } else {
      return Expr(call);
    }
    return Expr(CallNode::make(call->callee, std::move(args), call->attrs, call->origin()));
  }

  const Planner& plan_;
};

Result<Function> foldBackward(const Function& function) {
  Planner planner(function->body);
  postOrderVisit(function->body, [&](const Expr& node) {
    if (opName(node) == "multiply") planner.plan(node);
  }, [](const Expr& node) {
    const auto* inner = node->as<FunctionNode>();
    return !inner || !isPrimitiveOrExternal(*inner);
  });
  if (planner.roots().empty()) return function;
  Folder folder(planner);
  BYOC_ASSIGN_OR_RETURN(Expr body, folder.mutate(function->body));
  return withBody(function, body);
}

PassInfo backwardFoldScaleAxisInfo() {
  return {"BackwardFoldScaleAxis", "folds a per-channel constant multiply into the convolutions before it", 3,
          {"InferType"},
          "A multiply by a constant scale along the channel axis is pushed back through relu (positive scales), "
          "add and subtract (of biases broadcast along the channel axis) into the weights of the nn.conv2d or "
          "nn.conv3d (groups 1 or depthwise) or 2-D nn.dense producing the value, as TVM's BackwardFoldScaleAxis. "
          "Needs types; run FoldConstant after it.",
          {}};
}

}  // namespace

PassPtr createBackwardFoldScaleAxisPass() {
  return makeFunctionPass(backwardFoldScaleAxisInfo(),
                          [](const Function& function, const Module&, PassContext&) { return foldBackward(function); });
}

PassRegistration backwardFoldScaleAxisRegistration() {
  return {backwardFoldScaleAxisInfo(), [](const Attrs&) { return Result<PassPtr>(createBackwardFoldScaleAxisPass()); }};
}

PassPtr createFoldScaleAxisPass() {
  PassInfo info{"FoldScaleAxis", "folds per-channel constant multiplies into the weights of convolutions and dense", 3,
                {"InferType"},
                "BackwardFoldScaleAxis, then ForwardFoldScaleAxis, then FoldConstant, each an instrumented step inside "
                "it, as TVM's FoldScaleAxis. Needs types.",
                {}};
  std::vector<PassPtr> parts = {createBackwardFoldScaleAxisPass(), createForwardFoldScaleAxisPass(), createFoldConstantPass()};
  // The parts run whatever the context's opt level: choosing FoldScaleAxis chooses them.
  return makeModulePass(std::move(info), [parts = std::move(parts)](const Module& module, PassContext& context) -> Result<PassResult> {
    PassResult result{module, false};
    for (const PassPtr& part : parts) {
      BYOC_ASSIGN_OR_RETURN(PassResult step, (*part)(result.module, context));
      result.changed = result.changed || step.changed;
      result.module = std::move(step.module);
    }
    return result;
  });
}

PassRegistration foldScaleAxisRegistration() {
  return {createFoldScaleAxisPass()->info(), [](const Attrs&) { return Result<PassPtr>(createFoldScaleAxisPass()); }};
}

}  // namespace byoc
