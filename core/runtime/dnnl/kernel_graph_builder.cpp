#include "runtime/dnnl/kernel_graph_builder.h"

#include <unordered_map>

#include "ir/function_attrs.h"
#include "ir/op.h"
#include "ir/ops/op_helpers.h"
#include "ir/traversal.h"
#include "runtime/dnnl/composite_reading.h"

namespace byoc::dnnl_backend {

using kernel_graph::KernelEntry;
using kernel_graph::KernelGraph;
using kernel_graph::KernelNode;
using kernel_graph::KernelNodeKind;
using kernel_graph::TensorSpec;
using kernel_graph::flatSpecs;

namespace {

/// The values a region node reads: call arguments (a composite's body is read as a whole),
/// tuple fields, the projected tuple.
Status regionChildren(const ExprNode& node, std::vector<const ExprNode*>& children) {
  if (const auto* call = node.as<CallNode>())
    for (const Expr& arg : call->args) children.push_back(arg.get());
  else if (const auto* tuple = node.as<TupleNode>())
    for (const Expr& field : tuple->fields) children.push_back(field.get());
  else if (const auto* item = node.as<TupleGetItemNode>())
    children.push_back(item->tuple.get());
  return Status::ok();
}

/// Walks a region body in post-order, adding one node per constant and call.
class GraphBuilder {
 public:
  explicit GraphBuilder(const Module* module) : module_(module) {}

  /// The graph of `function`: one input node per parameter (per field of a tuple parameter, as the
  /// executor passes a tuple's fields), then its constants and calls in post-order.
  Result<KernelGraph> build(const FunctionNode& function) {
    for (const Var& param : function.params) {
      const std::vector<const TypeNode*> fields =
          param->type() ? flattenTupleTypes(param->type()) : std::vector<const TypeNode*>{};
      const bool tuple = param->type() && param->type()->as<TupleTypeNode>();
      std::vector<KernelEntry>& entries = values_[param.get()];
      for (std::size_t i = 0; i < fields.size(); ++i) {
        const auto* type = fields[i]->as<TensorTypeNode>();
        if (!type) break;
        const std::string name = tuple ? param->name + "." + std::to_string(i) : param->name;
        entries.push_back(add({KernelNodeKind::Input, name, {}, {}, {{type->dtype, type->shape}}, {}, Expr(param), {}}));
      }
      if (fields.empty() || entries.size() != fields.size())
        return located(Expr(param), makeError("region input %" + param->name + " is " + typeToString(param->type()) +
                                              "; only tensors and tuples of tensors are supported"));
    }
    auto done = [&](const ExprNode* node) { return values_.count(node) > 0; };
    BYOC_TRY(visitChildrenFirst(function.body.get(), done, regionChildren, [&](const ExprNode& node) -> Status {
      BYOC_ASSIGN_OR_RETURN(values_[&node], visit(node));
      return Status::ok();
    }));
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
          add({KernelNodeKind::Constant, "", {}, {}, {{constant->data.dtype(), constant->data.shape()}}, constant->data, expr, {}, expr->origin()})};
    if (const auto* tuple = node.as<TupleNode>()) return gather(tuple->fields);
    if (const auto* item = node.as<TupleGetItemNode>()) {
      const auto* tupleType = item->tuple->type()->as<TupleTypeNode>();
      std::size_t begin = 0;
      for (int i = 0; i < item->index; ++i) begin += flattenTupleTypes(tupleType->fields[static_cast<std::size_t>(i)]).size();
      const std::size_t count = flattenTupleTypes(tupleType->fields[static_cast<std::size_t>(item->index)]).size();
      const auto& all = values_.at(item->tuple.get());
      return std::vector<KernelEntry>(all.begin() + static_cast<std::ptrdiff_t>(begin),
                                      all.begin() + static_cast<std::ptrdiff_t>(begin + count));
    }
    if (const auto* var = node.as<VarNode>()) return located(expr, makeError("free variable %" + var->name + " in a region"));
    const auto* call = node.as<CallNode>();
    if (!call) return located(expr, makeError("a region may not contain a " + std::string(exprKindName(node.kind()))));
    Result<std::vector<TensorSpec>> outputs = flatSpecs(call->type());
    if (!outputs) return located(expr, outputs.error());
    KernelNode kernel{KernelNodeKind::Kernel, "", {}, {}, std::move(outputs).value(), {}, expr, {}, expr->origin()};
    if (call->opDef()) {
      kernel.name = call->opDef()->name;
      kernel.attrs = call->attrs;
      kernel.inputs = gather(call->args);
    } else {
      const auto* composite = call->callee->as<FunctionNode>();
      if (!composite || !composite->attrs.contains(attr::kComposite))
        return located(expr, makeError("a region may call only ops and composite functions"));
      Result<std::string> name = ops::requiredStringAttr("a composite function", composite->attrs, attr::kComposite);
      if (!name) return located(expr, name.error());
      kernel.name = *name;
      if (call->args.size() != composite->params.size())
        return located(expr, makeError("composite \"" + kernel.name + "\" is called with " + std::to_string(call->args.size()) +
                                       " arguments for " + std::to_string(composite->params.size()) + " parameters"));
      Result<CompositeReading> reading = readComposite(kernel.name, *composite, call->args);
      if (!reading) return located(expr, reading.error());
      kernel.attrs = reading->attrs;
      // The parameters in role order, the constants after them, then a trailing parameter.
      std::vector<int> params = reading->params;
      if (reading->trailing >= 0) params.push_back(reading->trailing);
      for (std::size_t i = 0; i <= params.size(); ++i) {
        if (i == reading->params.size())
          for (const TensorData& data : reading->constants)
            kernel.inputs.push_back(add({KernelNodeKind::Constant, "", {}, {}, {{data.dtype(), data.shape()}}, data, expr, {}, expr->origin()}));
        if (i == params.size()) break;
        const std::vector<KernelEntry>& arg = values_.at(call->args[static_cast<std::size_t>(params[i])].get());
        if (arg.size() != 1) return located(expr, makeError("composite \"" + kernel.name + "\": its inputs must be tensors"));
        kernel.inputs.push_back(arg.front());
      }
    }
    const std::size_t count = kernel.outputs.size();
    return entriesOf(add(std::move(kernel)), count);
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
