#include "kernel_graph/kernel_graph.h"

#include <map>

#include <algorithm>

namespace byoc::kernel_graph {

std::string TensorSpec::str() const {
  std::string text = std::string(dtypeName(dtype)) + " [";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

Type typeOf(const TensorSpec& spec) { return tensorType(spec.shape, spec.dtype); }

std::string KernelGraph::summary() const {
  std::map<std::string, std::size_t> kernels;
  std::size_t inputs = 0, constants = 0, count = 0;
  for (const KernelNode& node : nodes) {
    inputs += node.kind == KernelNodeKind::Input;
    constants += node.kind == KernelNodeKind::Constant;
    if (node.kind != KernelNodeKind::Kernel) continue;
    ++count;
    ++kernels[node.name];
  }
  std::vector<std::pair<std::string, std::size_t>> byUses(kernels.begin(), kernels.end());
  std::stable_sort(byUses.begin(), byUses.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string text = std::to_string(inputs) + " input(s), " + std::to_string(constants) + " constant(s), " + std::to_string(count) +
                     " kernel(s):";
  for (std::size_t i = 0; i < byUses.size(); ++i)
    text += (i ? ", " : " ") + byUses[i].first + (byUses[i].second > 1 ? " x" + std::to_string(byUses[i].second) : "");
  return text;
}

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

}  // namespace byoc::kernel_graph
