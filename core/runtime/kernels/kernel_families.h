#pragma once
/// \file
/// Registration of the reference kernels, one function per op family (mirrors ir/ops).

#include "ir/op_attr_map.h"
#include "runtime/kernels/kernel.h"

namespace byoc::kernels {

/// The kernels attached to the op definitions, filled by the family functions below:
/// `table["op.name"] = kernel;` for each op a family computes (the op must be registered).
using KernelTable = OpAttrMap<Kernel>;

/// Adds the kernels of the unary elementwise ops (ir/ops/elementwise.cpp).
void addElementwiseKernels(KernelTable& table);
/// Adds the kernels of the broadcasting binary ops and `where`.
void addBroadcastKernels(KernelTable& table);
/// Adds the kernels of the convolutions.
void addConvolutionKernels(KernelTable& table);
/// Adds the kernels of the dense and matrix products.
void addDenseKernels(KernelTable& table);
/// Adds the kernels of the normalisation and per-channel ops.
void addNormalizationKernels(KernelTable& table);
/// Adds the kernels of the pooling ops.
void addPoolingKernels(KernelTable& table);
/// Adds the kernels of the data-movement ops and annotations.
void addTransformKernels(KernelTable& table);
/// Adds the kernels of the reductions.
void addReduceKernels(KernelTable& table);
/// Adds the kernels of the image ops.
void addImageKernels(KernelTable& table);
/// Adds the kernels of the 1-D and 3-D convolutions and the 3-D pools.
void addSpatialNdKernels(KernelTable& table);
/// Adds the kernels of zeros, ones, layout_transform and einsum.
void addCreationKernels(KernelTable& table);
/// Adds the kernels of tile, broadcast_to and reverse.
void addReplicateKernels(KernelTable& table);
/// Adds the kernels of topk and cumsum.
void addAlgorithmKernels(KernelTable& table);
/// Adds the kernels of gather_nd and scatter_nd.
void addIndexingKernels(KernelTable& table);
/// Adds the kernel of vision.roi_align.
void addVisionKernels(KernelTable& table);
/// Adds the kernels of shape_of and dyn.reshape.
void addDynamicShapeKernels(KernelTable& table);
/// Adds the kernels of the qnn ops (quantize, requantize, the integer products and binaries).
void addQnnKernels(KernelTable& table);

}  // namespace byoc::kernels
