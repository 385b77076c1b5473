/// \file
/// ForwardFoldScaleAxis (contract in fold_scale_axis.h), in TVM's two phases. The preparation
/// walks consumers before producers and sends each value the axis along which its consumers can
/// take a scale (a convolution or dense asks for its data's channel axis; relu passes the request
/// on, requiring a positive scale; add and subtract pass it to the side the other broadcasts to);
/// a value with several uses keeps a request only if all of them make the same one. The rewrite
/// then runs bottom-up: a multiply asked for an axis and matching it becomes its unscaled input,
/// remembered with its scale; relu, add and subtract carry the scale on (a bias divided by it);
/// the convolution or dense multiplies its weight by it. Every walk is iterative.

#include <optional>
#include <unordered_map>

#include "ir/op.h"
#include "ir/traversal.h"
#include "pass/analysis/function_utils.h"
#include "pass/transforms/fold_scale_axis.h"
#include "pass/transforms/fold_scale_axis_util.h"

namespace byoc {

namespace {

using namespace fold_scale_axis;

/// What consumers ask of a value: a scale along `axis` (positive when `positive`). Absent (the
/// `std::nullopt` of `Request`) means no scale may reach the value.
struct Message {
  std::size_t axis = 0;
  bool positive = false;
};
using Request = std::optional<Message>;

bool isConv(const std::string& name) { return name == "nn.conv2d" || name == "nn.conv3d"; }

/// TVM's FScaleAxisForwardPrep of one call: what it asks of each argument given `out`, what its
/// own consumers ask of it.
std::vector<Request> requestsOfArgs(const CallNode& call, const Request& out) {
  std::vector<Request> in(call.args.size());
  const std::string& name = opName(Expr(&call));
  if (name == "nn.relu" || name == "nn.leaky_relu") {
    if (out) in[0] = Message{out->axis, true};
  } else if ((name == "add" || name == "subtract") && out) {
    const TensorTypeNode* lhs = tensorTypeOf(call.args[0]);
    const TensorTypeNode* rhs = tensorTypeOf(call.args[1]);
    if (lhs && rhs && matchesChannelAxis(lhs->shape, rhs->shape, out->axis)) in[0] = out;
    else if (lhs && rhs && matchesChannelAxis(rhs->shape, lhs->shape, out->axis)) in[1] = out;
  } else if (isConv(name)) {
    if (auto axes = convAxes(call)) in[0] = Message{axes->dataChannel, false};
  } else if (name == "nn.dense") {
    // TVM asks for axis 1 whatever the data's rank; that is the input-feature axis only in 2-D.
    const TensorTypeNode* data = tensorTypeOf(call.args[0]);
    if (data && data->shape.size() == 2) in[0] = Message{1, false};
  }
  return in;
}

/// TVM's ForwardPrep: the request each node of `body` receives, consumers visited first.
class Preparation {
 public:
  explicit Preparation(const Expr& body) {
    std::vector<Expr> order;
    postOrderVisit(body, [&](const Expr& node) { order.push_back(node); }, [](const Expr& node) {
      const auto* function = node->as<FunctionNode>();
      return !function || !isPrimitiveOrExternal(*function);
    });
    send(body.get(), std::nullopt);
    for (auto it = order.rbegin(); it != order.rend(); ++it) receive(**it);
  }

  /// What the consumers of `node` ask of it.
  Request of(const ExprNode* node) const {
    auto found = requests_.find(node);
    return found == requests_.end() ? std::nullopt : found->second;
  }

 private:
  /// Adds one consumer's request: different requests cancel each other (TVM intersects them).
  void send(const ExprNode* node, const Request& request) {
    auto [it, inserted] = requests_.try_emplace(node, request);
    if (inserted) return;
    Request& held = it->second;
    if (!held || !request || held->axis != request->axis) held = std::nullopt;
    else held->positive = held->positive || request->positive;
  }

  void receive(const ExprNode& node) {
    if (const auto* call = node.as<CallNode>()) {
      std::vector<Request> in = call->opDef() ? requestsOfArgs(*call, of(&node)) : std::vector<Request>(call->args.size());
      for (std::size_t i = 0; i < call->args.size(); ++i) send(call->args[i].get(), in[i]);
    } else if (node.as<TupleNode>() || node.as<IfNode>() || node.as<FunctionNode>() || node.as<LetNode>()) {
      // No scale passes into a tuple, a branch, a function's result or a let.
      for (const Expr& child : childrenOf(node))
        if (!child->as<VarNode>()) send(child.get(), std::nullopt);
    }
  }

  std::unordered_map<const ExprNode*, Request> requests_;
};

/// A value whose scaling is pending: the rewritten value times `scale` along `axis`.
struct Scaled {
  Expr scale;
  std::size_t axis = 0;
};

class ForwardFolder final : public OpaqueFunctionSkippingMutator {
 public:
  explicit ForwardFolder(const Preparation& prep) : prep_(prep) {}

  /// Whether a scale was taken up at all.
  bool folded() const { return !scaled_.empty(); }

 protected:
  // Every kind is checked alike: a pending scale must not reach a node that cannot take it.
  Result<Expr> rewrite(const Expr& pre, const Expr& post) override {
    if (const auto* call = pre->as<CallNode>(); call && call->opDef()) {
      BYOC_ASSIGN_OR_RETURN(std::optional<Expr> folded, foldCall(*call, post));
      if (folded) return *folded;
    }
    for (const Expr& child : childrenOf(*pre))
      if (scaled_.count(child.get()))
        return makeError("ForwardFoldScaleAxis: a scaled value reaches a node that cannot take the scale");
    return post;
  }

 private:
  const Scaled* scaledArg(const CallNode& call, std::size_t i) const {
    auto found = scaled_.find(call.args[i].get());
    return found == scaled_.end() ? nullptr : &found->second;
  }

  /// TVM's FScaleAxisForwardRewrite of `call`: its replacement, or nothing when it does not apply.
  Result<std::optional<Expr>> foldCall(const CallNode& call, const Expr& post) {
    const std::string& name = call.opDef()->name;
    const auto& args = post->as<CallNode>()->args;
    if (name == "multiply") return produce(call, post);
    const bool anyScaled = !call.args.empty() && (scaledArg(call, 0) || (call.args.size() > 1 && scaledArg(call, 1)));
    if (!anyScaled) return std::optional<Expr>();
    if (name == "nn.relu" || name == "nn.leaky_relu") {
      scaled_[&call] = *scaledArg(call, 0);
      return std::optional<Expr>(post);
    }
    if (name == "add" || name == "subtract") return carryThroughAdd(call, post);
    if ((isConv(name) || name == "nn.dense") && scaledArg(call, 0) && !scaledArg(call, 1)) {
      const Scaled& data = *scaledArg(call, 0);
      Expr factor = data.scale;
      if (name != "nn.dense") {
        auto axes = convAxes(call);
        if (!axes || axes->dataChannel != data.axis) return makeError("ForwardFoldScaleAxis: the scale is not along the convolution's input channels");
        BYOC_ASSIGN_OR_RETURN(factor, expandToAxis(data.scale, axes->kernelRank, axes->depthwise ? axes->kernelOut : axes->kernelIn));
      }
      BYOC_ASSIGN_OR_RETURN(Call weight, makeOpCall("multiply", {args[1], factor}, {}, args[1]->origin()));
      return std::optional<Expr>(CallNode::make(call.callee, {args[0], weight}, call.attrs, call.origin()));
    }
    return std::optional<Expr>();
  }

  /// A multiply asked for a scale along an axis, whose one side matches it: that side becomes the
  /// pending scale (squeezed to 1-D) of the other.
  Result<std::optional<Expr>> produce(const CallNode& call, const Expr& post) {
    Request request = prep_.of(&call);
    if (!request || scaledArg(call, 0) || scaledArg(call, 1)) return std::optional<Expr>();
    const auto& args = post->as<CallNode>()->args;
    for (std::size_t value = 0; value < 2; ++value) {
      const TensorTypeNode* valueType = tensorTypeOf(call.args[value]);
      const TensorTypeNode* scaleType = tensorTypeOf(call.args[1 - value]);
      if (!valueType || !scaleType) continue;
      BYOC_ASSIGN_OR_RETURN(std::optional<Expr> scale, channelScale(args[1 - value], *scaleType, valueType->shape, request->axis));
      if (!scale || (request->positive && !isAllPositiveConstant(*scale))) continue;
      scaled_[&call] = Scaled{*scale, request->axis};
      return std::optional<Expr>(args[value]);
    }
    return std::optional<Expr>();
  }

  /// add/subtract of a scaled value and a bias: the bias divided by the scale, the scale pending.
  Result<std::optional<Expr>> carryThroughAdd(const CallNode& call, const Expr& post) {
    if (scaledArg(call, 0) && scaledArg(call, 1)) return makeError("ForwardFoldScaleAxis: both sides are scaled");
    const std::size_t side = scaledArg(call, 0) ? 0 : 1;
    const Scaled pending = *scaledArg(call, side);
    const TensorTypeNode* scaledType = tensorTypeOf(call.args[side]);
    const TensorTypeNode* biasType = tensorTypeOf(call.args[1 - side]);
    if (!scaledType || !biasType || !matchesChannelAxis(scaledType->shape, biasType->shape, pending.axis))
      return std::optional<Expr>();
    std::vector<Expr> args = post->as<CallNode>()->args;
    BYOC_ASSIGN_OR_RETURN(Expr factor, expandToAxis(pending.scale, scaledType->shape.size(), pending.axis));
    BYOC_ASSIGN_OR_RETURN(Call bias, makeOpCall("divide", {args[1 - side], factor}, {}, args[1 - side]->origin()));
    args[1 - side] = bias;
    scaled_[&call] = pending;
    return std::optional<Expr>(CallNode::make(call.callee, std::move(args), call.attrs, call.origin()));
  }

  const Preparation& prep_;
  std::unordered_map<const ExprNode*, Scaled> scaled_;
};

Result<Function> foldForward(const Function& function) {
  Preparation prep(function->body);
  ForwardFolder folder(prep);
  Result<Expr> body = folder.mutate(function->body);
  // A scale that reached a node unable to take it, or no consumer at all (TVM's "outstanding
  // scale"), leaves the function as it was.
  if (!body || !folder.folded()) return function;
  return withBody(function, *body);
}

PassInfo forwardFoldScaleAxisInfo() {
  return {"ForwardFoldScaleAxis", "folds a per-channel multiply into the convolutions and dense after it", 3,
          {"InferType"},
          "A multiply by a scale along the channel axis of the data of nn.conv2d or nn.conv3d (groups 1 or "
          "depthwise) or of a 2-D nn.dense is moved into their weights, through relu and leaky_relu (positive "
          "constant scales) and add/subtract of a bias broadcast along that axis (the bias is divided by the scale), "
          "as TVM's ForwardFoldScaleAxis. Every use of the scaled value must take the scale. Needs types; run "
          "FoldConstant after it.",
          {}};
}

}  // namespace

PassPtr createForwardFoldScaleAxisPass() {
  return makeFunctionPass(forwardFoldScaleAxisInfo(),
                          [](const Function& function, const Module&, PassContext&) { return foldForward(function); });
}

PassRegistration forwardFoldScaleAxisRegistration() {
  return {forwardFoldScaleAxisInfo(), [](const Attrs&) { return Result<PassPtr>(createForwardFoldScaleAxisPass()); }};
}

}  // namespace byoc
