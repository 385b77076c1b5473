#pragma once
/// \file
/// A region as a graph of kernels, in the spirit of TVM's JSON runtime graph (src/runtime/contrib/json):
/// the region's inputs, the constants it reads, its kernels in execution order and its outputs (heads).
/// It is the form every codegen receives a region in: the dnnl codegen compiles it to primitives,
/// a codegen plugin receives it as JSON (kernel_graph_json.h), an export stores it, the app draws it.
///
/// A kernel is an op (`nn.conv2d`) or a composite (`dnnl.conv2d_bias_relu`) with the attributes its
/// lowering needs and its inputs as references to (node, output) entries; a composite's inputs are
/// in the role order of its family, so an argument used for two roles is referenced twice. What a
/// kernel must satisfy is the codegen's to say (kernel_rules.h); no codegen's type appears here.

#include <string>
#include <vector>

#include "ir/attrs.h"
#include "ir/expr.h"
#include "ir/module.h"
#include "ir/tensor_data.h"
#include "ir/type.h"
#include "support/result.h"

namespace byoc::kernel_graph {

/// The dtype and shape of one tensor of the graph.
struct TensorSpec {
  DType dtype = DType::Float32;
  Shape shape;

  bool operator==(const TensorSpec& other) const = default;
  /// `float32 [1, 3, 16, 16]`.
  std::string str() const;
};

/// One output of one node: what a kernel input or a head refers to.
struct KernelEntry {
  int node = 0;    ///< Index in `KernelGraph::nodes`.
  int output = 0;  ///< Index in that node's outputs.

  bool operator==(const KernelEntry& other) const = default;
};

/// What a node of the graph is.
enum class KernelNodeKind {
  Input,     ///< A region input: `name` is the parameter's name, one output.
  Constant,  ///< A constant: `name` is its key (in params.safetensors when exported), one output, `data`.
  Kernel,    ///< A kernel: `name` is the op or composite, with `attrs` and `inputs`.
};

/// One node of the graph.
struct KernelNode {
  KernelNodeKind kind = KernelNodeKind::Kernel;
  /// Parameter name, constant key or kernel name.
  std::string name;
  /// A kernel's attributes (an op's normalised attributes; a composite's anchor attributes plus
  /// what its body fixes: `a_min`/`a_max` of a clip, `epsilon` of a layer norm).
  Attrs attrs;
  /// A kernel's inputs in the order its lowering reads them.
  std::vector<KernelEntry> inputs;
  /// The node's results, tuples flattened.
  std::vector<TensorSpec> outputs;
  /// A constant's value.
  TensorData data;
  /// The IR node the kernel was built from (null when read from a file): errors point there.
  Expr source;
  /// The JSON pointer of the node in the artifact it was read from (empty for an IR region).
  std::string jsonPath;
  /// The nodes of the loaded model the kernel or constant was built from (through `source`, or as
  /// the artifact records them): what the app shows a kernel came from.
  Origin origin = {};
};

/// A region as a graph of kernels.
struct KernelGraph {
  /// Inputs (in parameter order), constants and kernels; a node refers only to earlier nodes.
  std::vector<KernelNode> nodes;
  /// The region's results, flattened in order.
  std::vector<KernelEntry> heads;
  /// Whether the region returns a tuple of its heads (else exactly one head, a tensor).
  bool tupleResult = false;
  /// The artifact the graph was read from (empty for an IR region): errors name it.
  std::string file;

  /// The spec of `entry`'s tensor (the entry must exist).
  const TensorSpec& spec(const KernelEntry& entry) const {
    return nodes[static_cast<std::size_t>(entry.node)].outputs[static_cast<std::size_t>(entry.output)];
  }
  /// The function type of the region: its inputs' tensors to its result (heads, a tuple when `tupleResult`).
  Type functionType() const;
  /// Names of the region inputs, in order.
  std::vector<std::string> inputNames() const;
  /// `error` located at `node`: the IR node's place (through `module`, when given), or the artifact
  /// file and the node's JSON pointer.
  Diagnostic locate(const KernelNode& node, Diagnostic error, const Module* module) const;
  /// One line about the graph: `3 input(s), 2 constant(s), 4 kernel(s): nn.conv2d x2, nn.relu`,
  /// kernels most frequent first (ties by name).
  std::string summary() const;
};

/// The tensor type of `spec`.
Type typeOf(const TensorSpec& spec);
/// The tensors of `type` (a tensor, or tuples of tensors, flattened in order); an error for any other type.
Result<std::vector<TensorSpec>> flatSpecs(const Type& type);

}  // namespace byoc::kernel_graph
