#pragma once
/// \file
/// What the two directions of FoldScaleAxis share (TVM's pattern_utils.h helpers): reading types
/// and op names, matching a scale that varies along one axis only, shaping a 1-D scale to
/// broadcast along an axis, and deciding whether a scale is a positive constant.

#include <optional>
#include <string>
#include <vector>

#include "ir/expr.h"
#include "support/result.h"

namespace byoc::fold_scale_axis {

/// The checked tensor type of `expr`, or null.
const TensorTypeNode* tensorTypeOf(const Expr& expr);

/// The op name of a call of an op, or "".
const std::string& opName(const Expr& expr);

/// TVM's MatchBroadcastToLeftAxes for one axis: `rhs` broadcasts to `lhs` with only `axis` not 1,
/// and holds lhs's size there. When `squeeze` is given, it receives the axes of rhs to squeeze.
bool matchesChannelAxis(const Shape& lhs, const Shape& rhs, std::size_t axis, std::vector<int64_t>* squeeze = nullptr);

/// The 1-D scale that `scale` (of type `scaleType`) applies along `axis` of a value of shape `shape`:
/// `scale` squeezed to 1-D when it varies along `axis` only (TVM's MatchBroadcastToLeftAxes); for a
/// scalar constant, a constant repeating it once per channel (what TVM's repeat of it folds to);
/// nothing when it is neither.
Result<std::optional<Expr>> channelScale(const Expr& scale, const TensorTypeNode& scaleType, const Shape& shape,
                                         std::size_t axis);

/// TVM's ExpandBiasToMatchAxis for one axis: `scale` (1-D) shaped to broadcast along `axis` of a
/// tensor of rank `rank`.
Result<Expr> expandToAxis(const Expr& scale, std::size_t rank, std::size_t axis);

/// TVM's IsAllPositiveConstant: a constant whose every element is positive, possibly under
/// expand_dims, reshape, transpose or squeeze.
bool isAllPositiveConstant(const Expr& expr);

/// The axes of a convolution a per-channel scale folds through, read from its layouts.
struct ConvAxes {
  std::size_t dataChannel = 0;    ///< C of the data layout
  std::size_t outputChannel = 0;  ///< C of the output layout
  std::size_t kernelIn = 0;       ///< I of the kernel layout
  std::size_t kernelOut = 0;      ///< O of the kernel layout
  std::size_t kernelRank = 0;
  bool depthwise = false;         ///< groups equals the kernel's O and its I is 1
};

/// The axes of a typed nn.conv2d or nn.conv3d call whose layouts are plain (no blocked axes) and
/// whose groups are 1 or depthwise, as TVM folds only into those; nothing otherwise.
std::optional<ConvAxes> convAxes(const CallNode& conv);

}  // namespace byoc::fold_scale_axis
