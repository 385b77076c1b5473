#include "runtime/kernels/kernel.h"

#include "runtime/kernels/kernel_families.h"

namespace byoc::kernels {

namespace {

KernelTable buildTable() {
  KernelTable table;
  addElementwiseKernels(table);
  addBroadcastKernels(table);
  addConvolutionKernels(table);
  addDenseKernels(table);
  addNormalizationKernels(table);
  addPoolingKernels(table);
  addTransformKernels(table);
  addReduceKernels(table);
  addImageKernels(table);
  addSpatialNdKernels(table);
  addCreationKernels(table);
  addReplicateKernels(table);
  addAlgorithmKernels(table);
  addIndexingKernels(table);
  addVisionKernels(table);
  addDynamicShapeKernels(table);
  addQnnKernels(table);
  return table;
}

}  // namespace

Kernel kernelOf(const OpDef& op) {
  static const KernelTable table = buildTable();
  const Kernel* kernel = table.find(op);
  return kernel ? *kernel : nullptr;
}

}  // namespace byoc::kernels
