/// \file
/// kernelGraphFunction: one pass over the nodes, which refer only to earlier ones.

#include "exports/kernel_graph_view.h"

#include "ir/op.h"
#include "runtime/dnnl/kernel_rules.h"

namespace byoc::ui {

namespace {

using kernel_graph::KernelEntry;
using kernel_graph::KernelNode;
using kernel_graph::KernelNodeKind;
using kernel_graph::typeOf;

/// A composite kernel's attributes but those at its anchor op's defaults, so that its box shows
/// what an op's box would (`strides=[2, 2], channels=64`).
Attrs compositeAttrs(const KernelNode& node) {
  const std::optional<dnnl_backend::CompositeKind> kind = dnnl_backend::compositeKind(node.name);
  const OpDef* anchor = kind ? OpRegistry::global().find(kind->anchorOp) : nullptr;
  Attrs shown;
  for (const auto& [name, value] : node.attrs.entries()) {
    const AttrField* field = anchor ? anchor->field(name) : nullptr;
    if (!field || field->defaultValue != value) shown.set(name, value);
  }
  return shown;
}

/// A kernel's call, typed with its outputs (a tuple type when it has several).
Expr kernelCall(const KernelNode& node, std::vector<Expr> args) {
  std::vector<Type> outputs;
  for (const kernel_graph::TensorSpec& spec : node.outputs) outputs.push_back(typeOf(spec));
  const Type checked = outputs.size() == 1 ? outputs.front() : tupleType(outputs);
  if (Op op = OpRegistry::global().get(node.name)) return CallNode::make(op, std::move(args), node.attrs, node.origin, checked);
  return CallNode::make(GlobalVarNode::make(node.name), std::move(args), compositeAttrs(node), node.origin, checked);
}

/// The role each constant of `graph` plays for the first kernel reading it (`weight`, `bias`; for
/// an op, its input's name), by node; empty for other nodes.
std::vector<std::string> constantRoles(const kernel_graph::KernelGraph& graph) {
  std::vector<std::string> roles(graph.nodes.size());
  for (const KernelNode& node : graph.nodes) {
    if (node.kind != KernelNodeKind::Kernel) continue;
    const OpDef* op = OpRegistry::global().find(node.name);
    const std::optional<dnnl_backend::CompositeKind> kind = op ? std::nullopt : dnnl_backend::compositeKind(node.name);
    const std::vector<std::string> none;
    const std::vector<std::string>& names = op ? op->inputs : kind ? kind->roles : none;
    for (std::size_t port = 0; port < node.inputs.size() && port < names.size(); ++port) {
      const std::size_t input = static_cast<std::size_t>(node.inputs[port].node);
      if (graph.nodes[input].kind == KernelNodeKind::Constant && roles[input].empty()) roles[input] = names[port];
    }
  }
  return roles;
}

}  // namespace

Function kernelGraphFunction(const kernel_graph::KernelGraph& graph) {
  const std::vector<std::string> roles = constantRoles(graph);
  std::vector<Expr> values(graph.nodes.size());
  std::vector<Var> params;
  auto entry = [&](const KernelEntry& at) -> Expr {
    const KernelNode& node = graph.nodes[at.node];
    if (node.outputs.size() <= 1) return values[at.node];
    return TupleGetItemNode::make(values[at.node], at.output, {}, typeOf(node.outputs[at.output]));
  };
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    const KernelNode& node = graph.nodes[i];
    switch (node.kind) {
      case KernelNodeKind::Input:
        params.push_back(VarNode::make(node.name, typeOf(node.outputs.front())));
        values[i] = params.back();
        break;
      case KernelNodeKind::Constant:
        // Named for its role, as an op's weight line is: the parameter key says nothing on the box.
        values[i] = ConstantNode::make(node.data, node.origin, roles[i].empty() ? node.name : roles[i]);
        break;
      case KernelNodeKind::Kernel: {
        std::vector<Expr> args;
        for (const KernelEntry& input : node.inputs) args.push_back(entry(input));
        values[i] = kernelCall(node, std::move(args));
        break;
      }
    }
  }
  std::vector<Expr> heads;
  for (const KernelEntry& head : graph.heads) heads.push_back(entry(head));
  Expr body = graph.tupleResult || heads.size() != 1 ? Expr(TupleNode::make(std::move(heads))) : heads.front();
  return FunctionNode::make(std::move(params), std::move(body));
}

Module withKernelGraphBodies(const Module& module,
                             const std::map<std::string, std::shared_ptr<const kernel_graph::KernelGraph>>& graphs) {
  Module shown = module;
  for (const auto& [name, graph] : graphs) {
    const Function declared = module.find(name);
    if (!declared) continue;
    const Function drawn = kernelGraphFunction(*graph);
    shown.set(name, FunctionNode::make(drawn->params, drawn->body, declared->retType, declared->attrs, declared->origin(),
                                       declared->type()));
  }
  return shown;
}

}  // namespace byoc::ui
