/// \file
/// `nn.dense`, `nn.matmul` and `nn.batch_matmul` on the blocked GEMM (float32).

#include "ir/ops/op_helpers.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/gemm.h"
#include "runtime/kernels/kernel_families.h"

namespace byoc::kernels {

namespace {

Status requireFloat32(const KernelArgs& args) {
  for (const NDArray& array : args.inputs)
    if (array.dtype() != DType::Float32) return unsupportedDType(args.op, array.dtype());
  if (args.outputs[0].dtype() != DType::Float32) return unsupportedDType(args.op, args.outputs[0].dtype());
  return Status::ok();
}

/// data [..., k] · weight[units, k]^T.
Status dense(const KernelArgs& args) {
  BYOC_TRY(requireFloat32(args));
  const NDArray& data = args.inputs[0];
  const NDArray& weight = args.inputs[1];
  const int64_t k = data.shape().back();
  const int64_t m = k ? data.numElements() / k : 0;
  const int64_t n = weight.shape()[0];
  gemm(m, n, k, {data.data<float>(), k}, {weight.data<float>(), k, true}, args.outputs[0].data<float>(), n);
  return Status::ok();
}

Status matmul(const KernelArgs& args) {
  BYOC_TRY(requireFloat32(args));
  const NDArray& x = args.inputs[0];
  const NDArray& y = args.inputs[1];
  const bool ta = ops::boolAttr(args.attrs, "transpose_a");
  const bool tb = ops::boolAttr(args.attrs, "transpose_b");
  const int64_t m = args.outputs[0].shape()[0];
  const int64_t n = args.outputs[0].shape()[1];
  const int64_t k = ta ? x.shape()[0] : x.shape()[1];
  gemm(m, n, k, {x.data<float>(), x.shape()[1], ta}, {y.data<float>(), y.shape()[1], tb}, args.outputs[0].data<float>(),
       n);
  return Status::ok();
}

/// [b, m, k] · [b, k, n] per batch, a batch of 1 broadcasting.
Status batchMatmul(const KernelArgs& args) {
  BYOC_TRY(requireFloat32(args));
  const NDArray& x = args.inputs[0];
  const NDArray& y = args.inputs[1];
  const NDArray& out = args.outputs[0];
  const bool ta = ops::boolAttr(args.attrs, "transpose_a");
  const bool tb = ops::boolAttr(args.attrs, "transpose_b");
  const int64_t batches = out.shape()[0];
  const int64_t m = out.shape()[1];
  const int64_t n = out.shape()[2];
  const int64_t k = ta ? x.shape()[1] : x.shape()[2];
  const int64_t xStep = x.shape()[0] == 1 ? 0 : x.shape()[1] * x.shape()[2];
  const int64_t yStep = y.shape()[0] == 1 ? 0 : y.shape()[1] * y.shape()[2];
  for (int64_t b = 0; b < batches; ++b)
    gemm(m, n, k, {x.data<float>() + b * xStep, x.shape()[2], ta}, {y.data<float>() + b * yStep, y.shape()[2], tb},
         out.data<float>() + b * m * n, n);
  return Status::ok();
}

}  // namespace

void addDenseKernels(KernelTable& table) {
  table["nn.dense"] = dense;
  table["nn.matmul"] = matmul;
  table["nn.batch_matmul"] = batchMatmul;
}

}  // namespace byoc::kernels
