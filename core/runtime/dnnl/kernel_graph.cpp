#include "runtime/dnnl/kernel_graph.h"

namespace byoc::dnnl_backend {

std::string TensorSpec::str() const {
  std::string text = std::string(dtypeName(dtype)) + " [";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

Type typeOf(const TensorSpec& spec) { return tensorType(spec.shape, spec.dtype); }

Result<std::vector<TensorSpec>> flatSpecs(const Type& type) {
  std::vector<TensorSpec> specs;
  for (const TypeNode* node : flattenTupleTypes(type)) {
    const auto* tensor = node ? node->as<TensorTypeNode>() : nullptr;
    if (!tensor) return makeError("expected tensors, found " + typeToString(Type(node)));
    specs.push_back({tensor->dtype, tensor->shape});
  }
  return specs;
}

Type KernelGraph::functionType() const {
  std::vector<Type> params;
  for (const KernelNode& node : nodes)
    if (node.kind == KernelNodeKind::Input) params.push_back(typeOf(node.outputs.front()));
  std::vector<Type> results;
  for (const KernelEntry& head : heads) results.push_back(typeOf(spec(head)));
  Type result = tupleResult || results.size() != 1 ? tupleType(std::move(results)) : results.front();
  return funcType(std::move(params), std::move(result));
}

std::vector<std::string> KernelGraph::inputNames() const {
  std::vector<std::string> names;
  for (const KernelNode& node : nodes)
    if (node.kind == KernelNodeKind::Input) names.push_back(node.name);
  return names;
}

Diagnostic KernelGraph::locate(const KernelNode& node, Diagnostic error, const Module* module) const {
  if (!error.location.file.empty()) return error;
  if (node.source && module) {
    error.location = module->locate(node.source).value_or(SourceLocation{});
  } else if (!file.empty()) {
    error.location.file = file;
    if (!node.jsonPath.empty()) error.message = node.jsonPath + ": " + error.message;
  }
  return error;
}

}  // namespace byoc::dnnl_backend
