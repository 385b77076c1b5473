#pragma once
/// \file
/// TVM's FoldScaleAxis (fold_scale_axis.cc) for the ops of this tool: BackwardFoldScaleAxis,
/// ForwardFoldScaleAxis, and FoldScaleAxis, which runs the two and then FoldConstant.
///
/// BackwardFoldScaleAxis: a `multiply` of a value by a constant scale that varies only along the
/// channel axis (or a scalar) is pushed back into what produces the value: each `nn.conv2d` or
/// `nn.conv3d` (groups 1 or depthwise; plain layouts such as NCHW or NHWC with OIHW or HWIO) gets
/// its weight multiplied by the scale expanded along the kernel's output-channel axis, a 2-D
/// `nn.dense` its weight's rows (`multiply(w, expand_dims(s, axis=1))`), each bias added on the way by the scale
/// expanded along the channel axis, and the multiply disappears. The way back may pass
/// `nn.relu` (when every scale value is positive) and `add`/`subtract` (both sides scaled, or one
/// side scaled and the other a bias broadcast only along the channel axis). Every value on the
/// way must have that single use; otherwise nothing changes for that multiply.
///
/// As TVM builds it: the scale squeezed to 1-D once, `multiply(w, expand_dims(s, axis=1,
/// num_newaxis=3))` for OIHW, `multiply(b, expand_dims(s, axis=1, num_newaxis=2))` for an NCHW bias.
/// Run FoldConstant after it to fold constant weights. Input: a typed module (requires InferType).
///
/// ForwardFoldScaleAxis: a `multiply` by a scale along the channel axis of the data of
/// `nn.conv2d`/`nn.conv3d` (groups 1 or depthwise, plain layouts) or of a 2-D `nn.dense` moves
/// into their weights: `multiply(w, expand_dims(s, axis=1, num_newaxis=2))` on OIHW's I axis (O
/// for depthwise), `multiply(w, s)` for dense. On the way it may pass `nn.relu`/`nn.leaky_relu`
/// (positive constant scales only) and `add`/`subtract` of a bias broadcast along the channel
/// axis, which is divided by the scale. Every use of the scaled value must take the scale (TVM
/// intersects the requests of all uses); otherwise nothing changes. A scalar constant scale is
/// repeated along the axis as a constant (TVM writes repeat(expand_dims(s)), which FoldConstant
/// folds to the same). Unlike TVM, dense folds only 2-D data (TVM asks for axis 1 of any rank,
/// which is the feature axis only in 2-D).
/// Input: a typed module (requires InferType).
///
/// FoldScaleAxis: BackwardFoldScaleAxis, ForwardFoldScaleAxis, then FoldConstant, as TVM's
/// Sequential of the same name.

#include "pass/registry.h"

namespace byoc {

/// The backward pass.
PassPtr createBackwardFoldScaleAxisPass();
/// The forward pass.
PassPtr createForwardFoldScaleAxisPass();
/// Both, then FoldConstant.
PassPtr createFoldScaleAxisPass();

/// Metadata and factories for the registry.
PassRegistration backwardFoldScaleAxisRegistration();
PassRegistration forwardFoldScaleAxisRegistration();
PassRegistration foldScaleAxisRegistration();

}  // namespace byoc
