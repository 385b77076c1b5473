#pragma once
/// \file
/// Registration of the reference kernels, one function per op family (mirrors ir/ops).

#include <map>
#include <string>

#include "runtime/kernels/kernel.h"

namespace byoc::kernels {

/// Name → kernel table filled by the family functions below.
using KernelTable = std::map<std::string, Kernel, std::less<>>;

void addElementwiseKernels(KernelTable& table);
void addBroadcastKernels(KernelTable& table);
void addConvolutionKernels(KernelTable& table);
void addDenseKernels(KernelTable& table);
void addNormalizationKernels(KernelTable& table);
void addPoolingKernels(KernelTable& table);
void addTransformKernels(KernelTable& table);
void addReduceKernels(KernelTable& table);
void addImageKernels(KernelTable& table);

}  // namespace byoc::kernels
