#include "runtime/dnnl/kernel_graph_builder.h"

#include <unordered_map>

#include "ir/op.h"
#include "ir/traversal.h"
#include "runtime/dnnl/kernel_rules.h"

namespace byoc::dnnl_backend {

namespace {

/// The position of `value` among `composite`'s parameters, or -1 when it is not one.
int parameterIndex(const FunctionNode& composite, const Expr& value) {
  for (std::size_t i = 0; i < composite.params.size(); ++i)
    if (Expr(composite.params[i]) == value) return static_cast<int>(i);
  return -1;
}

/// The first call of `op` in `body` (post order) whose first argument is `producer` when one is
/// given, or null.
const CallNode* callOf(const Expr& body, const char* op, const CallNode* producer = nullptr) {
  const CallNode* found = nullptr;
  postOrderVisit(body, [&](const Expr& node) {
    const auto* call = node->as<CallNode>();
    if (!found && call && call->opDef() && call->opDef()->name == op && (!producer || call->args[0].get() == producer))
      found = call;
  });
  return found;
}

/// The float value of the scalar constant that `add`s onto something in `body` (layer norm's epsilon).
std::optional<double> addedConstant(const Expr& body) {
  std::optional<double> found;
  postOrderVisit(body, [&](const Expr& node) {
    const auto* call = node->as<CallNode>();
    if (found || !call || !call->opDef() || call->opDef()->name != "add") return;
    const auto* constant = call->args[1]->as<ConstantNode>();
    if (constant && constant->data.dtype() == DType::Float32 && constant->data.numElements() == 1)
      found = *reinterpret_cast<const float*>(constant->data.bytes().data());
  });
  return found;
}

/// The inputs (in role order) and attributes of a composite kernel, read from its body.
struct CompositeReading {
  std::vector<int> params;  ///< The composite parameter of each role.
  Attrs attrs;
};

Result<CompositeReading> readScaleShift(const CompositeKind& kind, const FunctionNode& composite) {
  const CallNode* multiply = callOf(composite.body, "multiply");
  const CallNode* shiftAdd = multiply ? callOf(composite.body, "add", multiply) : nullptr;
  const int data = multiply ? parameterIndex(composite, multiply->args[0]) : -1;
  const int scale = multiply ? parameterIndex(composite, multiply->args[1]) : -1;
  const int shift = shiftAdd ? parameterIndex(composite, shiftAdd->args[1]) : -1;
  if (data < 0 || scale < 0 || shift < 0)
    return makeError("composite \"" + kind.name + "\": its data, scale and shift must be parameters of the composite");
  return CompositeReading{{data, scale, shift}, {}};
}

Result<CompositeReading> readAnchored(const CompositeKind& kind, const FunctionNode& composite) {
  const CallNode* anchor = nullptr;
  const CallNode* clip = nullptr;
  postOrderVisit(composite.body, [&](const Expr& node) {
    const auto* inner = node->as<CallNode>();
    const OpDef* def = inner ? inner->opDef() : nullptr;
    if (!def) return;
    if (!anchor && (def->name == "nn.conv2d" || def->name == "nn.conv2d_transpose" || def->name == "nn.dense")) anchor = inner;
    if (def->name == "clip") clip = inner;
  });
  if (!anchor || anchor->opDef()->name != kind.anchorOp) return makeError("unsupported composite \"" + kind.name + "\"");
  const CallNode* biasAdd = kind.bias ? callOf(composite.body, "add", anchor) : nullptr;
  const CallNode* sumAdd = kind.sum ? callOf(composite.body, "add", biasAdd ? biasAdd : anchor) : nullptr;
  CompositeReading reading{{parameterIndex(composite, anchor->args[0]), parameterIndex(composite, anchor->args[1])}, anchor->attrs};
  if (kind.bias) reading.params.push_back(biasAdd ? parameterIndex(composite, biasAdd->args[1]) : -1);
  if (kind.sum) reading.params.push_back(sumAdd ? parameterIndex(composite, sumAdd->args[1]) : -1);
  for (int param : reading.params)
    if (param < 0)
      return makeError("composite \"" + kind.name + "\": its data, weight" + (kind.bias ? ", bias" : "") +
                       (kind.sum ? " and residual" : "") + " must be parameters of the composite");
  if (kind.has("_clip")) {
    if (!clip) return makeError("composite \"" + kind.name + "\" has no clip call");
    reading.attrs.set("a_min", *clip->attrs.find("a_min"));
    reading.attrs.set("a_max", *clip->attrs.find("a_max"));
  }
  return reading;
}

/// Reads the body of the composite `name`.
Result<CompositeReading> readComposite(const std::string& name, const FunctionNode& composite) {
  const std::optional<CompositeKind> kind = compositeKind(name);
  if (!kind) return makeError("unsupported composite \"" + name + "\"");
  switch (kind->family) {
    case CompositeFamily::Gelu:
    case CompositeFamily::LayerNorm: {
      if (composite.params.size() != 1) return makeError("composite \"" + name + "\" takes one input");
      CompositeReading reading{{0}, {}};
      if (kind->family == CompositeFamily::Gelu) return reading;
      const std::optional<double> epsilon = addedConstant(composite.body);
      if (!epsilon) return makeError("composite \"dnnl.layer_norm\" has no epsilon constant");
      reading.attrs.set("epsilon", *epsilon);
      return reading;
    }
    case CompositeFamily::ScaleShift: return readScaleShift(*kind, composite);
    case CompositeFamily::Anchor: return readAnchored(*kind, composite);
  }
  return makeError("unsupported composite \"" + name + "\"");
}

/// The values a region node reads: call arguments (a composite's body is read as a whole),
/// tuple fields, the projected tuple.
std::vector<const ExprNode*> regionChildren(const ExprNode& node) {
  std::vector<const ExprNode*> children;
  if (const auto* call = node.as<CallNode>())
    for (const Expr& arg : call->args) children.push_back(arg.get());
  else if (const auto* tuple = node.as<TupleNode>())
    for (const Expr& field : tuple->fields) children.push_back(field.get());
  else if (const auto* item = node.as<TupleGetItemNode>())
    children.push_back(item->tuple.get());
  return children;
}

/// Walks a region body in post-order, adding one node per constant and call.
class GraphBuilder {
 public:
  explicit GraphBuilder(const Module* module) : module_(module) {}

  Result<KernelGraph> build(const FunctionNode& function) {
    for (const Var& param : function.params) {
      const auto* type = param->type() ? param->type()->as<TensorTypeNode>() : nullptr;
      if (!type) return makeError("region input %" + param->name + " is " + typeToString(param->type()) + "; only tensors are supported");
      values_[param.get()] = {add({KernelNodeKind::Input, param->name, {}, {}, {{type->dtype, type->shape}}, {}, Expr(param)})};
    }
    std::vector<std::pair<const ExprNode*, bool>> stack = {{function.body.get(), false}};
    while (!stack.empty()) {
      auto [node, expanded] = stack.back();
      if (values_.count(node)) {
        stack.pop_back();
        continue;
      }
      if (!expanded) {
        stack.back().second = true;
        const std::vector<const ExprNode*> children = regionChildren(*node);
        for (std::size_t i = children.size(); i-- > 0;)
          if (!values_.count(children[i])) stack.push_back({children[i], false});
        continue;
      }
      stack.pop_back();
      Result<std::vector<KernelEntry>> entries = visit(*node);
      if (!entries) return entries.error();
      values_[node] = std::move(entries).value();
    }
    const Type& result = function.body->type();
    if (const auto* tuple = result ? result->as<TupleTypeNode>() : nullptr) {
      graph_.tupleResult = true;
      for (const Type& field : tuple->fields)
        if (!field->as<TensorTypeNode>()) return makeError("the region returns a nested tuple; only a tuple of tensors is supported");
    }
    graph_.heads = values_.at(function.body.get());
    return std::move(graph_);
  }

 private:
  KernelEntry add(KernelNode node) {
    graph_.nodes.push_back(std::move(node));
    return {static_cast<int>(graph_.nodes.size() - 1), 0};
  }

  /// The entries of `node`'s results, one per flattened output.
  std::vector<KernelEntry> entriesOf(KernelEntry first, std::size_t count) {
    std::vector<KernelEntry> entries;
    for (std::size_t i = 0; i < count; ++i) entries.push_back({first.node, static_cast<int>(i)});
    return entries;
  }

  std::vector<KernelEntry> gather(const std::vector<Expr>& exprs) {
    std::vector<KernelEntry> out;
    for (const Expr& expr : exprs) {
      const auto& part = values_.at(expr.get());
      out.insert(out.end(), part.begin(), part.end());
    }
    return out;
  }

  /// Adds the nodes of one region node (none for tuples and projections) and returns its entries.
  Result<std::vector<KernelEntry>> visit(const ExprNode& node) {
    const Expr expr(&node);
    if (const auto* constant = node.as<ConstantNode>())
      return std::vector<KernelEntry>{
          add({KernelNodeKind::Constant, "", {}, {}, {{constant->data.dtype(), constant->data.shape()}}, constant->data, expr})};
    if (const auto* tuple = node.as<TupleNode>()) return gather(tuple->fields);
    if (const auto* item = node.as<TupleGetItemNode>()) {
      const auto* tupleType = item->tuple->type()->as<TupleTypeNode>();
      std::size_t begin = 0;
      for (int i = 0; i < item->index; ++i) begin += flatCount(tupleType->fields[static_cast<std::size_t>(i)]);
      const std::size_t count = flatCount(tupleType->fields[static_cast<std::size_t>(item->index)]);
      const auto& all = values_.at(item->tuple.get());
      return std::vector<KernelEntry>(all.begin() + static_cast<std::ptrdiff_t>(begin),
                                      all.begin() + static_cast<std::ptrdiff_t>(begin + count));
    }
    if (const auto* var = node.as<VarNode>()) return located(expr, makeError("free variable %" + var->name + " in a region"));
    const auto* call = node.as<CallNode>();
    if (!call) return located(expr, makeError("a region may not contain a " + std::string(exprKindName(node.kind()))));
    Result<std::vector<TensorSpec>> outputs = flatSpecs(call->type());
    if (!outputs) return located(expr, outputs.error());
    KernelNode kernel{KernelNodeKind::Kernel, "", {}, {}, std::move(outputs).value(), {}, expr};
    if (call->opDef()) {
      kernel.name = call->opDef()->name;
      kernel.attrs = call->attrs;
      kernel.inputs = gather(call->args);
    } else {
      const auto* composite = call->callee->as<FunctionNode>();
      if (!composite || !composite->attrs.contains("Composite"))
        return located(expr, makeError("a region may call only ops and composite functions"));
      kernel.name = composite->attrs.find("Composite")->asString();
      if (call->args.size() != composite->params.size())
        return located(expr, makeError("composite \"" + kernel.name + "\" is called with " + std::to_string(call->args.size()) +
                                       " arguments for " + std::to_string(composite->params.size()) + " parameters"));
      Result<CompositeReading> reading = readComposite(kernel.name, *composite);
      if (!reading) return located(expr, reading.error());
      kernel.attrs = reading->attrs;
      for (int param : reading->params) {
        const std::vector<KernelEntry>& arg = values_.at(call->args[static_cast<std::size_t>(param)].get());
        if (arg.size() != 1) return located(expr, makeError("composite \"" + kernel.name + "\": its inputs must be tensors"));
        kernel.inputs.push_back(arg.front());
      }
    }
    const std::size_t count = kernel.outputs.size();
    return entriesOf(add(std::move(kernel)), count);
  }

  static std::size_t flatCount(const Type& type) {
    Result<std::vector<TensorSpec>> specs = flatSpecs(type);
    return specs ? specs->size() : 0;
  }

  Diagnostic located(const Expr& expr, Diagnostic error) const {
    if (error.location.file.empty() && module_) error.location = module_->locate(expr).value_or(SourceLocation{});
    return error;
  }

  const Module* module_;
  KernelGraph graph_;
  std::unordered_map<const ExprNode*, std::vector<KernelEntry>> values_;
};

}  // namespace

Result<KernelGraph> buildKernelGraph(const Function& function, const Module* module) {
  return GraphBuilder(module).build(*function);
}

}  // namespace byoc::dnnl_backend
