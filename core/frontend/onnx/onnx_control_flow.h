#pragma once
/// \file
/// The ONNX ops that hold subgraphs. If imports into the IR's `if`; Loop and Scan import into a
/// loop written the way TVM's `while_loop` writes one: a let-bound function of the loop's
/// variables whose body is `if (more) { %while_loop(next variables) } else { (variables) }`,
/// called once with the initial values; the node's outputs are projections of its result.

#include <string>
#include <vector>

#include "frontend/onnx/onnx_node_context.h"
#include "onnx/onnx_pb.h"

namespace byoc::onnx_import {

/// Imports the subgraphs of the node being converted; the graph importer provides it.
class SubgraphImporter {
 public:
  virtual ~SubgraphImporter() = default;

  /// The outputs of `graph`, whose graph inputs are bound in order to `inputs` (a graph input
  /// that declares an element type must have the bound value's) and which reads the values of
  /// the enclosing graphs.
  virtual Result<std::vector<OnnxValue>> import(const onnx::GraphProto& graph, const std::vector<OnnxValue>& inputs) = 0;
  /// What the provenance table holds now; `rollBack` returns to it.
  virtual NodeId checkpoint() const = 0;
  /// Forgets what the imports since `mark` recorded, for a result that is thrown away (the
  /// import of a loop body with variable types that turned out too narrow).
  virtual void rollBack(NodeId mark) = 0;
};

/// The graph attribute `name` of `node`, or null.
const onnx::GraphProto* graphAttribute(const onnx::NodeProto& node, const std::string& name);

/// If: both branches, imported without inputs, into the IR's `if`.
Result<OnnxOutputs> importIf(const OnnxNodeContext& context, SubgraphImporter& subgraphs);
/// Loop (opsets 11 to 16): optional trip count M and condition, loop-carried values, scan outputs.
Result<OnnxOutputs> importLoop(const OnnxNodeContext& context, SubgraphImporter& subgraphs);
/// Scan (opset 9 and later): state variables, then scan inputs sliced along their axes.
Result<OnnxOutputs> importScan(const OnnxNodeContext& context, SubgraphImporter& subgraphs);

}  // namespace byoc::onnx_import
