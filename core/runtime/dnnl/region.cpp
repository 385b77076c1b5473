#include "runtime/dnnl/region.h"

#include <omp.h>
#include <oneapi/dnnl/dnnl_debug.h>

#include <optional>
#include <unordered_set>

#include "ir/op.h"
#include "runtime/dnnl/kernel_rules.h"
#include "runtime/dnnl/ops.h"
#include "runtime/dnnl/pad_folding.h"
#include "support/limits.h"

namespace byoc::dnnl_backend {

using kernel_graph::KernelEntry;
using kernel_graph::KernelGraph;
using kernel_graph::KernelNode;
using kernel_graph::KernelNodeKind;
using kernel_graph::TensorSpec;

namespace {

/// Lowers the nodes of a kernel graph in order.
class GraphLowering {
 public:
  GraphLowering(Lowering& lowering, const KernelGraph& graph, const Module* module)
      : lowering_(lowering), graph_(graph), module_(module), foldedPads_(foldablePads(graph)) {
    values_.resize(graph.nodes.size());
    pending_.assign(graph.nodes.size(), 0);
    for (const KernelNode& node : graph.nodes)
      for (const KernelEntry& input : node.inputs) ++pending_[static_cast<std::size_t>(input.node)];
    for (const KernelEntry& head : graph.heads) ++pending_[static_cast<std::size_t>(head.node)];
  }

  /// Lowers every node in order; an error names the node it is about.
  Status lowerAll() {
    int input = 0;
    for (std::size_t i = 0; i < graph_.nodes.size(); ++i) {
      const KernelNode& node = graph_.nodes[i];
      lowering_.part = describe(node);
      // A loaded kernel graph states its shapes itself: none may reach oneDNN unchecked.
      for (const TensorSpec& output : node.outputs)
        if (std::string problem = limits::shapeProblem(output.shape); !problem.empty())
          return graph_.locate(node, makeError(describe(node) + ": " + output.str() + ": " + problem), module_);
      Result<std::vector<Tensor>> lowered = lowerCatching(node, input);
      if (!lowered) return graph_.locate(node, lowered.error(), module_);
      values_[i] = std::move(lowered).value();
      noteReads(node, i);
    }
    return Status::ok();
  }

  /// The tensor of `entry`.
  const Tensor& tensor(const KernelEntry& entry) const {
    return values_[static_cast<std::size_t>(entry.node)][static_cast<std::size_t>(entry.output)];
  }

 private:
  static std::string describe(const KernelNode& node) {
    switch (node.kind) {
      case KernelNodeKind::Input: return "region input %" + node.name;
      case KernelNodeKind::Constant: return "a constant";
      case KernelNodeKind::Kernel: break;
    }
    return node.name;
  }

  /// `lower`, with an exception of oneDNN turned into an error naming the node.
  Result<std::vector<Tensor>> lowerCatching(const KernelNode& node, int& input) {
    try {
      return lower(node, input);
    } catch (const dnnl::error& error) {
      return makeError(describe(node) + ": oneDNN: " + error.what());
    }
  }

  Result<std::vector<Tensor>> lower(const KernelNode& node, int& input) {
    const TensorSpec& first = node.outputs.front();
    switch (node.kind) {
      case KernelNodeKind::Input:
        if (!dataTypeOf(first.dtype))
          return makeError("region input %" + node.name + " is " + std::string(dtypeName(first.dtype)) +
                           "; only float32, int8, uint8 and int32 are supported");
        return std::vector<Tensor>{lowering_.input(input++, dimsOf(first.shape), *dataTypeOf(first.dtype))};
      case KernelNodeKind::Constant:
        if (!dataTypeOf(first.dtype))
          return makeError("constant of dtype " + std::string(dtypeName(first.dtype)) +
                           "; only float32, int8, uint8 and int32 are supported");
        return std::vector<Tensor>{
            lowering_.constant(node.data.bytes().data(), dimsOf(first.shape), *dataTypeOf(first.dtype))};
      case KernelNodeKind::Kernel: break;
    }
    BYOC_TRY(checkKernel(graph_, node));
    // A folded pad's value is its input: its readers pad it themselves (pad_folding.h).
    const auto index = static_cast<std::size_t>(&node - graph_.nodes.data());
    if (foldedPads_[index]) return std::vector<Tensor>{tensor(node.inputs[0])};
    Kernel kernel{node.name, node.attrs, {}, node.outputs};
    std::vector<Tensor> inputs;
    for (const KernelEntry& entry : node.inputs) {
      kernel.inputs.push_back(graph_.spec(entry));
      inputs.push_back(tensor(entry));
    }
    if (!node.inputs.empty()) {
      const auto read = static_cast<std::size_t>(node.inputs[0].node);
      if (const std::optional<FoldedPad>& pad = foldedPads_[read])
        kernel = withFoldedPad(std::move(kernel), *pad, graph_.spec(graph_.nodes[read].inputs[0]));
    }
    const OpDef* op = OpRegistry::global().find(node.name);
    Result<std::vector<Tensor>> results = op && isLoweredOp(*op)
                                              ? lowerOpCall(lowering_, *op, kernel, inputs)
                                              : lowerCompositeCall(lowering_, kernel, inputs, residualOverwritable(node));
    if (results && results->size() != node.outputs.size())
      return makeError(node.name + ": lowered to " + std::to_string(results->size()) + " results for " +
                       std::to_string(node.outputs.size()) + " outputs");
    return results;
  }

  /// Whether the last input of `node` (a `_sum` residual) may be overwritten: a kernel's result
  /// that only this read is left of, and whose memory no lowered value shares.
  bool residualOverwritable(const KernelNode& node) const {
    const std::optional<CompositeKind> kind = compositeKind(node.name);
    if (!kind || !kind->sum || node.inputs.empty()) return false;
    const std::size_t residual = static_cast<std::size_t>(node.inputs.back().node);
    return graph_.nodes[residual].kind == KernelNodeKind::Kernel && pending_[residual] == 1 && !aliased_.count(residual);
  }

  /// Records that node `index` (just lowered, its primitives appended) has read its inputs: one
  /// pending read less for each, and an input whose memory the node's results share is aliased.
  void noteReads(const KernelNode& node, std::size_t index) {
    for (const KernelEntry& entry : node.inputs) {
      const std::size_t read = static_cast<std::size_t>(entry.node);
      --pending_[read];
      for (const Tensor& result : values_[index])
        if (result.memory.get_data_handle() == tensor(entry).memory.get_data_handle()) aliased_.insert(read);
    }
  }

  Lowering& lowering_;
  const KernelGraph& graph_;
  const Module* module_;
  /// The tensors of each node's outputs.
  std::vector<std::vector<Tensor>> values_;
  /// Reads of each node by kernels not lowered yet (the caller's read of a head never is).
  std::vector<int> pending_;
  /// Nodes whose memory a lowered value shares (a view): never overwritten.
  std::unordered_set<std::size_t> aliased_;
  /// The padding of each pad node its readers take themselves.
  std::vector<std::optional<FoldedPad>> foldedPads_;
};

}  // namespace

Result<std::unique_ptr<Region>> Region::build(const KernelGraph& graph, const Module* module, int threads) {
  int inputCount = 0;
  for (const KernelNode& node : graph.nodes) inputCount += node.kind == KernelNodeKind::Input ? 1 : 0;
  std::string part = "the region's engine";
  try {
    std::unique_ptr<Region> region(new Region(inputCount));
    region->threads_ = threads;
    omp_set_num_threads(threads);
    GraphLowering lowering(region->lowering_, graph, module);
    BYOC_TRY(lowering.lowerAll());
    for (std::size_t i = 0; i < graph.heads.size(); ++i) {
      part = region->lowering_.part = "output " + std::to_string(i);
      const Tensor& result = lowering.tensor(graph.heads[i]);
      const TensorSpec& spec = graph.spec(graph.heads[i]);
      dnnl::memory output(plainDesc(dimsOf(spec.shape), *dataTypeOf(spec.dtype)), region->lowering_.engine, DNNL_MEMORY_NONE);
      region->lowering_.add(dnnl::reorder(result.memory, output), {{DNNL_ARG_FROM, result.memory}, {DNNL_ARG_TO, output}});
      region->outputs_.push_back(output);
    }
    part = "the region's memory plan";
    BYOC_TRY(region->lowering_.planMemory());
    return region;
  } catch (const dnnl::error& error) {
    return makeError(part + ": oneDNN: " + error.what());
  }
}

Status Region::run(std::span<const NDArray> inputs, std::span<const NDArray> outputs) {
  if (inputs.size() != lowering_.inputViews.size() || outputs.size() != outputs_.size())
    return makeError("dnnl: the region takes " + std::to_string(lowering_.inputViews.size()) + " inputs and " +
                     std::to_string(outputs_.size()) + " outputs");
  omp_set_num_threads(threads_);
  // The step running when oneDNN throws; none while binding memories or waiting for the stream.
  std::optional<std::size_t> running;
  try {
    for (std::size_t i = 0; i < inputs.size(); ++i)
      for (dnnl::memory& view : lowering_.inputViews[i]) view.set_data_handle(inputs[i].bytes());
    for (std::size_t i = 0; i < outputs.size(); ++i) outputs_[i].set_data_handle(outputs[i].bytes());
    for (running = 0; *running < lowering_.steps.size(); ++*running)
      lowering_.steps[*running].execute(lowering_.stream);
    running.reset();
    lowering_.stream.wait();
  } catch (const dnnl::error& error) {
    if (!running) return makeError(std::string("the region's memories: oneDNN: ") + error.what());
    const Step& step = lowering_.steps[*running];
    return makeError(step.part + ", step " + std::to_string(*running) + " (" +
                     dnnl_prim_kind2str(dnnl::convert_to_c(step.primitive.get_kind())) + "): oneDNN: " + error.what());
  }
  return Status::ok();
}

}  // namespace byoc::dnnl_backend
