#pragma once
/// \file
/// Typed views of the attributes of op families, each read once from a call's normalised
/// attributes by a reader whose error names the op and the attribute.
///
/// A call's attributes are checked when the call is built (`normalizeAttrs`: every schema field
/// present, of its default's kind), so a reader fails only on what that check cannot see (a list
/// of the wrong length) or on attributes that bypassed it. Reference kernels, backend lowerings
/// and passes read attributes through these views or the checked helpers of op_helpers.h.

#include <cstddef>
#include <string>
#include <vector>

#include "ir/attrs.h"
#include "support/result.h"

namespace byoc::ops {

/// `axis` of an op acting along one axis (concatenate, split, nn.bias_add, nn.softmax, …),
/// made non-negative against `rank`; error if it is out of range.
Result<std::size_t> axisAttr(const std::string& op, const Attrs& attrs, std::size_t rank);

/// transpose's permutation: output axis i is input axis `result[i]` (the axes reversed when
/// `axes` is None). Error if `axes` does not list each of the `rank` axes once.
Result<std::vector<std::size_t>> readTransposeAxes(const std::string& op, const Attrs& attrs, std::size_t rank);

/// clip's bounds (a_min, a_max), also carried by composites that end in a clip.
struct ClipAttrs {
  double low = 0, high = 0;
};
/// Reads `a_min` and `a_max`.
Result<ClipAttrs> readClipAttrs(const std::string& op, const Attrs& attrs);

/// nn.batch_norm and nn.layer_norm: the normalised axis, epsilon, and whether beta and gamma apply.
struct NormAttrs {
  std::size_t axis = 0;
  double epsilon = 0;
  bool center = true, scale = true;
};
/// Reads `axis` (made non-negative against `rank`), `epsilon`, `center` and `scale`.
Result<NormAttrs> readNormAttrs(const std::string& op, const Attrs& attrs, std::size_t rank);

/// nn.pad: the padding before and after each axis, and the mode.
struct PadAttrs {
  std::vector<int64_t> before, after;
  std::string mode;
};
/// Reads `pad_width` (one [before, after] pair per axis) and `pad_mode`.
Result<PadAttrs> readPadAttrs(const std::string& op, const Attrs& attrs);

/// strided_slice: one entry per sliced axis.
struct StridedSliceAttrs {
  std::vector<int64_t> begin, end;
  /// Empty when None (unit strides); one value applies to every axis.
  std::vector<int64_t> strides;
  /// The sliced axes, non-negative: 0, 1, … when None.
  std::vector<std::size_t> axes;
  /// slice_mode "size": `end` holds sizes.
  bool sizeMode = false;
  /// The stride of entry `i`.
  int64_t stride(std::size_t i) const { return i < strides.size() ? strides[i] : (strides.size() == 1 ? strides[0] : 1); }
};
/// Reads begin, end, strides, axes and slice_mode of a slice of data of rank `rank`.
Result<StridedSliceAttrs> readStridedSliceAttrs(const std::string& op, const Attrs& attrs, std::size_t rank);

/// The window of a pool or a convolution over `dims` spatial axes.
struct WindowAttrs {
  /// pool_size; empty for a convolution, whose window is its weight's.
  std::vector<int64_t> size;
  std::vector<int64_t> strides, dilation;
  /// Begins then ends: 2·dims values.
  std::vector<int64_t> padding;
};
/// Reads strides, dilation, padding and, for a pool (`pooled`), pool_size; error if one has
/// another length than `dims` values (2·dims for padding).
Result<WindowAttrs> readWindowAttrs(const std::string& op, const Attrs& attrs, std::size_t dims, bool pooled);

/// The layouts of a convolution.
struct ConvLayouts {
  std::string data, kernel;
  /// The result's layout: out_layout, or the data layout when out_layout is "".
  std::string out;
};
/// Reads data_layout, kernel_layout and out_layout.
Result<ConvLayouts> readConvLayouts(const std::string& op, const Attrs& attrs);

}  // namespace byoc::ops
