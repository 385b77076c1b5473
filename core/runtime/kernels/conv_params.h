#pragma once
/// \file
/// The geometry of a 2-D (transposed) convolution read from a call's attributes and operand
/// shapes, in canonical NCHW / OIHW (IOHW for transposed) terms, plus the permutations that bring
/// the call's layouts to the canonical ones. Shared by the reference kernels and the oneDNN codegen.

#include <string_view>
#include <vector>

#include "ir/attrs.h"
#include "ir/type.h"
#include "support/result.h"

namespace byoc::kernels {

/// Convolution geometry in canonical layouts.
struct ConvGeometry {
  /// Sizes in NCHW terms; padding is top, left, bottom, right.
  int64_t batch = 0, inChannels = 0, inHeight = 0, inWidth = 0;
  int64_t outChannels = 0, outHeight = 0, outWidth = 0;
  int64_t kernelHeight = 0, kernelWidth = 0;
  int64_t groups = 1;
  int64_t strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
  int64_t padTop = 0, padLeft = 0, padBottom = 0, padRight = 0;
  /// Permutation taking the data (and output) layout to NCHW.
  std::vector<std::size_t> dataToNchw;
  /// Permutation taking the kernel layout to OIHW (conv2d) or IOHW (conv2d_transpose).
  std::vector<std::size_t> kernelToCanonical;
  /// True when both permutations are the identity.
  bool canonical() const;
};

/// Reads the geometry of `nn.conv2d` (`transposed` false) or `nn.conv2d_transpose` (true).
Result<ConvGeometry> convGeometry(std::string_view op, const Attrs& attrs, const Shape& data, const Shape& weight,
                                  const Shape& output, bool transposed);

}  // namespace byoc::kernels
