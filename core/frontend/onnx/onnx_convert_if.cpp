#include "frontend/onnx/onnx_control_flow.h"
#include "ir/ops/type_join.h"

namespace byoc::onnx_import {

const onnx::GraphProto* graphAttribute(const onnx::NodeProto& node, const std::string& name) {
  for (const auto& attribute : node.attribute())
    if (attribute.name() == name && attribute.has_g()) return &attribute.g();
  return nullptr;
}

/// Both branches imported as subgraphs into the IR's `if`; their types must agree, or differ only
/// in sizes (the `if` then has `?` there). Several outputs are a tuple taken apart.
Result<OnnxOutputs> importIf(const OnnxNodeContext& context, SubgraphImporter& subgraphs) {
  const onnx::NodeProto& node = context.node;
  BYOC_ASSIGN_OR_RETURN(OnnxValue cond, context.input(0));
  if (!cond.tensor() || cond.tensor()->dtype != DType::Bool || cond.tensor()->numElements() != 1)
    return makeError("the condition must be a bool tensor of one element, found " + typeToString(cond.type));
  if (cond.rank() != 0) {
    BYOC_ASSIGN_OR_RETURN(cond, context.call("reshape", {cond}, {{"newshape", AttrValue::ints({})}}));
  }
  std::vector<OnnxValue> branches;
  for (const char* name : {"then_branch", "else_branch"}) {
    const onnx::GraphProto* graph = graphAttribute(node, name);
    if (!graph) return makeError(std::string("missing the graph attribute ") + name);
    if (graph->output_size() != node.output_size())
      return makeError(std::string(name) + " has " + std::to_string(graph->output_size()) + " outputs; expected " +
                       std::to_string(node.output_size()) + ", one per output of If");
    if (graph->input_size() > 0)
      return makeError(std::string(name) + " declares inputs; expected none (a branch reads the enclosing graph's values)");
    Result<std::vector<OnnxValue>> outputs = subgraphs.import(*graph, {});
    if (!outputs) return makeError(std::string(name) + ": " + outputs.error().message);
    branches.push_back(outputs->size() == 1 ? outputs->front() : context.tuple(*outputs));
  }
  std::optional<Type> type = ops::joinTypes(branches[0].type, branches[1].type);
  if (!type)
    return makeError("then_branch gives " + typeToString(branches[0].type) + " and else_branch " +
                     typeToString(branches[1].type) + "; expected the same types, or sizes alone differing");
  OnnxValue result{IfNode::make(cond.expr, branches[0].expr, branches[1].expr, context.nodeOrigin(), *type), *type};
  if (node.output_size() == 1) return OnnxOutputs{result};
  OnnxOutputs outputs;
  for (int i = 0; i < node.output_size(); ++i) {
    BYOC_ASSIGN_OR_RETURN(OnnxValue field, context.getItem(result, i));
    outputs.push_back(field);
  }
  return outputs;
}

}  // namespace byoc::onnx_import
