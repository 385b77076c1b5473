#include "runtime/dnnl/pad_folding.h"

#include "ir/ops/attr_views.h"
#include "ir/ops/op_helpers.h"

namespace byoc::dnnl_backend {

using kernel_graph::KernelEntry;
using kernel_graph::KernelGraph;
using kernel_graph::KernelNode;
using kernel_graph::KernelNodeKind;
using kernel_graph::TensorSpec;

namespace {

/// The spatial padding of `node` if it is a float32 nn.pad of a 4-d tensor by the constant 0 on
/// its last two axes only.
std::optional<FoldedPad> zeroSpatialPad(const KernelGraph& graph, const KernelNode& node) {
  if (node.kind != KernelNodeKind::Kernel || node.name != "nn.pad" || node.inputs.size() != 2 ||
      node.outputs.size() != 1 || node.outputs[0].dtype != DType::Float32 || node.outputs[0].shape.size() != 4)
    return std::nullopt;
  const KernelNode& value = graph.nodes[static_cast<std::size_t>(node.inputs[1].node)];
  if (value.kind != KernelNodeKind::Constant || value.data.numElements() != 1 || value.data.elementAsDouble(0) != 0.0)
    return std::nullopt;
  Result<ops::PadAttrs> pad = ops::readPadAttrs(node.name, node.attrs);
  if (!pad || pad->mode != "constant" || pad->before.size() != 4 || pad->after.size() != 4) return std::nullopt;
  for (std::size_t axis = 0; axis < 4; ++axis) {
    const bool spatial = axis >= 2;
    if (pad->before[axis] < 0 || pad->after[axis] < 0 || (!spatial && (pad->before[axis] || pad->after[axis])))
      return std::nullopt;
  }
  return FoldedPad{{pad->before[2], pad->before[3], pad->after[2], pad->after[3]}};
}

/// Whether kernel `reader` reading node `padNode` can take `pad` itself.
bool takesPad(const KernelNode& reader, int padNode, const FoldedPad& pad) {
  if (reader.kind != KernelNodeKind::Kernel || reader.name != "nn.avg_pool2d") return false;
  for (std::size_t i = 1; i < reader.inputs.size(); ++i)
    if (reader.inputs[i].node == padNode) return false;
  if (ops::stringAttr(reader.attrs, "layout") != "NCHW" || ops::boolAttr(reader.attrs, "ceil_mode")) return false;
  Result<ops::WindowAttrs> window = ops::readWindowAttrs(reader.name, reader.attrs, 2, true);
  if (!window) return false;
  bool ownPadding = false;
  for (int64_t width : window->padding) ownPadding = ownPadding || width != 0;
  if (ownPadding && !ops::boolAttr(reader.attrs, "count_include_pad")) return false;
  for (std::size_t side = 0; side < 4; ++side) {
    const std::size_t axis = side % 2;
    // The padding must stay narrower than the window: at most (size − 1) · dilation. The
    // attributes are not checked yet (a loaded artifact's may be anything), so nothing overflows.
    int64_t reach = 0;
    if (window->size[axis] < 1 || window->dilation[axis] < 1 ||
        __builtin_mul_overflow(window->size[axis] - 1, window->dilation[axis], &reach) || window->padding[side] < 0 ||
        window->padding[side] > reach - pad.padding[side])
      return false;
  }
  return true;
}

}  // namespace

std::vector<std::optional<FoldedPad>> foldablePads(const KernelGraph& graph) {
  std::vector<std::optional<FoldedPad>> pads(graph.nodes.size());
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) pads[i] = zeroSpatialPad(graph, graph.nodes[i]);
  std::vector<bool> read(graph.nodes.size(), false);
  for (const KernelNode& node : graph.nodes)
    for (const KernelEntry& input : node.inputs) {
      auto& pad = pads[static_cast<std::size_t>(input.node)];
      read[static_cast<std::size_t>(input.node)] = true;
      if (pad && !takesPad(node, input.node, *pad)) pad.reset();
    }
  for (const KernelEntry& head : graph.heads) pads[static_cast<std::size_t>(head.node)].reset();
  for (std::size_t i = 0; i < pads.size(); ++i)
    if (!read[i]) pads[i].reset();
  return pads;
}

Kernel withFoldedPad(Kernel pool, const FoldedPad& pad, const TensorSpec& padInput) {
  // foldablePads read the pool's padding: it is there, four integers.
  std::vector<int64_t> padding = *pool.attrs.find("padding")->asInts();
  for (std::size_t side = 0; side < padding.size(); ++side) padding[side] += pad.padding[side];
  pool.attrs.set("padding", AttrValue::ints(padding));
  pool.attrs.set("count_include_pad", true);
  pool.inputs[0] = padInput;
  return pool;
}

}  // namespace byoc::dnnl_backend
