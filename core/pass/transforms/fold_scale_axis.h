#pragma once
/// \file
/// BackwardFoldScaleAxis: TVM's backward scale folding (fold_scale_axis.cc) for the ops of this
/// tool. A `multiply` of a value by a constant scale that varies only along the channel axis is
/// pushed back into the convolutions producing the value: each `nn.conv2d` (groups 1 or
/// depthwise; layouts NCHW or NHWC with OIHW or HWIO) gets its weight multiplied by the scale
/// expanded along the kernel's output-channel axis, each bias added on the way by the scale
/// expanded along the channel axis, and the multiply disappears. The way back may pass
/// `nn.relu` (when every scale value is positive) and `add`/`subtract` (both sides scaled, or one
/// side scaled and the other a bias broadcast only along the channel axis). Every value on the
/// way must have that single use; otherwise nothing changes for that multiply.
///
/// As TVM builds it: the scale squeezed to 1-D once, `multiply(w, expand_dims(s, axis=1,
/// num_newaxis=3))` for OIHW, `multiply(b, expand_dims(s, axis=1, num_newaxis=2))` for an NCHW bias.
/// Run FoldConstant after it to fold constant weights. Input: a typed module (requires InferType).
/// TVM's forward direction (a scale before a convolution) is not implemented.

#include "pass/registry.h"

namespace byoc {

/// The pass.
PassPtr createBackwardFoldScaleAxisPass();

/// Metadata and factory for the registry.
PassRegistration backwardFoldScaleAxisRegistration();

}  // namespace byoc
