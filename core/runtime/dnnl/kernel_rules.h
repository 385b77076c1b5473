#pragma once
/// \file
/// What the dnnl codegen requires of the kernels of a kernel graph: the composite families with the
/// roles of their inputs, and the check that a kernel's name, attributes and input and output types
/// fit together (an op kernel through the op's own type relation, a composite through its anchor's).
///
/// Composite families, by name (post-op suffixes in the order of TVM's DNNL runtime):
///
///   dnnl.{conv2d,deconv2d,dense}[_bias][_sum][_relu|_tanh|_clip|_sigmoid|_swish|_gelu|_mish]
///       inputs: data, weight[, bias][, residual]; attrs: the anchor op's, plus a_min/a_max for _clip
///   dnnl.scale_shift[_relu]      inputs: data, scale, shift
///   dnnl.gelu                    inputs: data
///   dnnl.layer_norm              inputs: data; attrs: epsilon
///   dnnl.qnn.{conv2d,dense}      inputs: data (int8/uint8), weight (int8), bias, output_scale (float32);
///       attrs: the anchor's, a_min/a_max of the clip, activation_scale, output_zero_point (qnn_composite.h)

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernel_graph/kernel_graph.h"
#include "kernel_graph/kernel_rules.h"
#include "support/result.h"

namespace byoc::dnnl_backend {

/// The families of composite kernels.
enum class CompositeFamily { Anchor, ScaleShift, Gelu, LayerNorm, Qnn };

/// A composite kernel's name, understood.
struct CompositeKind {
  /// The composite's name.
  std::string name;
  CompositeFamily family = CompositeFamily::Anchor;
  /// The anchor op (`nn.conv2d`, `nn.conv2d_transpose`, `nn.dense`) of the Anchor family, or
  /// `qnn.conv2d` / `qnn.dense` of the Qnn family.
  std::string anchorOp;
  /// Whether an Anchor composite adds a bias (`_bias`) and a residual (`_sum`).
  bool bias = false;
  bool sum = false;
  /// The roles of its inputs, in order (`data`, `weight`, `bias`, `residual`; `scale`, `shift`).
  std::vector<std::string> roles;

  /// Whether the kernel part of the name (after the target's prefix, which may be any target's
  /// name: `my_sum.conv2d` has no `_sum`) carries `part` (`conv2d`, `_bias`, `_relu`).
  bool has(std::string_view part) const {
    const std::size_t dot = name.find('.');
    return std::string_view(name).substr(dot == std::string::npos ? 0 : dot + 1).find(part) != std::string_view::npos;
  }
};

/// The kind of the composite called `name`, or nothing when no family has that name.
std::optional<CompositeKind> compositeKind(std::string_view name);

/// The kernel parts (after `<target>.`) of the composite names the families above build, each
/// read by `compositeKind`: every anchor with its bias, residual and post-op options, then the
/// other families. Authoring tools offer them as pattern names.
std::vector<std::string> compositeKernelNames();

/// Whether `name` is a kernel the lowering knows: "unsupported op NAME" for a registered op it does
/// not lower, "unknown kernel \"NAME\"" for a name that is neither an op nor a composite family.
Status checkKernelName(const std::string& name);

/// The attributes of the kernel `name` as its lowering reads them: an op's normalised (defaults
/// filled, unknown names rejected); a composite's anchor attributes normalised beside the ones its
/// body fixed. An unknown kernel keeps `attrs` (checkKernel rejects it).
Result<Attrs> normalizeKernelAttrs(const std::string& name, const Attrs& attrs);

/// Checks one kernel of `graph` against its rules: a known op or composite, the attributes it
/// needs, the count and float32 types of its inputs, and the output types its inputs give. The
/// error names no place (the caller locates it).
Status checkKernel(const kernel_graph::KernelGraph& graph, const kernel_graph::KernelNode& kernel);

/// The checks above as the rules a kernel graph is read with when the dnnl codegen is to run it.
kernel_graph::KernelRules kernelRules();

}  // namespace byoc::dnnl_backend
