/// \file
/// `nn.conv2d` through blocked im2col + GEMM, and `nn.conv2d_transpose` through GEMM + col2im.
/// Both work in NCHW with OIHW (IOHW) weights; other layouts are permuted in and out.

#include <algorithm>
#include <cstring>

#include "runtime/kernels/conv_params.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/gemm.h"
#include "runtime/kernels/kernel_families.h"
#include "runtime/kernels/permute.h"

namespace byoc::kernels {

namespace {

/// Upper bound on the floats of one im2col tile; tiles cover whole output rows.
constexpr int64_t kTileFloats = int64_t{1} << 20;

/// Writes the im2col columns of output rows [row0, row0 + rows) for one image and one group:
/// col[(c * KH + kh) * KW + kw][r * OW + ow].
void im2col(const ConvGeometry& g, const float* image, int64_t channels, int64_t row0, int64_t rows, float* col) {
  const int64_t width = rows * g.outWidth;
  for (int64_t c = 0; c < channels; ++c) {
    const float* plane = image + c * g.inHeight * g.inWidth;
    for (int64_t kh = 0; kh < g.kernelHeight; ++kh) {
      for (int64_t kw = 0; kw < g.kernelWidth; ++kw) {
        float* out = col + ((c * g.kernelHeight + kh) * g.kernelWidth + kw) * width;
        for (int64_t r = 0; r < rows; ++r) {
          const int64_t ih = (row0 + r) * g.strideH - g.padTop + kh * g.dilationH;
          float* outRow = out + r * g.outWidth;
          if (ih < 0 || ih >= g.inHeight) {
            std::memset(outRow, 0, static_cast<std::size_t>(g.outWidth) * sizeof(float));
            continue;
          }
          const float* inRow = plane + ih * g.inWidth;
          for (int64_t ow = 0; ow < g.outWidth; ++ow) {
            const int64_t iw = ow * g.strideW - g.padLeft + kw * g.dilationW;
            outRow[ow] = iw >= 0 && iw < g.inWidth ? inRow[iw] : 0.0f;
          }
        }
      }
    }
  }
}

void conv2dNchw(const ConvGeometry& g, const float* x, const float* w, float* y) {
  const int64_t inPerGroup = g.inChannels / g.groups;
  const int64_t outPerGroup = g.outChannels / g.groups;
  const int64_t patch = inPerGroup * g.kernelHeight * g.kernelWidth;
  const int64_t outPlane = g.outHeight * g.outWidth;
  const int64_t tileRows = std::clamp<int64_t>(kTileFloats / std::max<int64_t>(1, patch * g.outWidth), 1, g.outHeight);
  std::vector<float> col(static_cast<std::size_t>(patch * tileRows * g.outWidth));
  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t group = 0; group < g.groups; ++group) {
      const float* image = x + (n * g.inChannels + group * inPerGroup) * g.inHeight * g.inWidth;
      const float* weights = w + group * outPerGroup * patch;
      float* out = y + (n * g.outChannels + group * outPerGroup) * outPlane;
      for (int64_t row0 = 0; row0 < g.outHeight; row0 += tileRows) {
        const int64_t rows = std::min(tileRows, g.outHeight - row0);
        im2col(g, image, inPerGroup, row0, rows, col.data());
        gemm(outPerGroup, rows * g.outWidth, patch, {weights, patch}, {col.data(), rows * g.outWidth},
             out + row0 * g.outWidth, outPlane);
      }
    }
  }
}

void conv2dTransposeNchw(const ConvGeometry& g, const float* x, const float* w, float* y) {
  const int64_t inPerGroup = g.inChannels / g.groups;
  const int64_t outPerGroup = g.outChannels / g.groups;
  const int64_t taps = g.kernelHeight * g.kernelWidth;
  const int64_t inPlane = g.inHeight * g.inWidth;
  const int64_t outPlane = g.outHeight * g.outWidth;
  std::vector<float> col(static_cast<std::size_t>(outPerGroup * taps * inPlane));
  std::memset(y, 0, static_cast<std::size_t>(g.batch * g.outChannels * outPlane) * sizeof(float));
  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t group = 0; group < g.groups; ++group) {
      const float* image = x + (n * g.inChannels + group * inPerGroup) * inPlane;
      const float* weights = w + group * inPerGroup * outPerGroup * taps;  // [inPerGroup, outPerGroup * taps]
      gemm(outPerGroup * taps, inPlane, inPerGroup, {weights, outPerGroup * taps, true}, {image, inPlane}, col.data(),
           inPlane);
      float* out = y + (n * g.outChannels + group * outPerGroup) * outPlane;
      for (int64_t co = 0; co < outPerGroup; ++co) {
        for (int64_t kh = 0; kh < g.kernelHeight; ++kh) {
          for (int64_t kw = 0; kw < g.kernelWidth; ++kw) {
            const float* source = col.data() + ((co * g.kernelHeight + kh) * g.kernelWidth + kw) * inPlane;
            float* plane = out + co * outPlane;
            for (int64_t ih = 0; ih < g.inHeight; ++ih) {
              const int64_t oh = ih * g.strideH - g.padTop + kh * g.dilationH;
              if (oh < 0 || oh >= g.outHeight) continue;
              for (int64_t iw = 0; iw < g.inWidth; ++iw) {
                const int64_t ow = iw * g.strideW - g.padLeft + kw * g.dilationW;
                if (ow >= 0 && ow < g.outWidth) plane[oh * g.outWidth + ow] += source[ih * g.inWidth + iw];
              }
            }
          }
        }
      }
    }
  }
}

using ConvBody = void (*)(const ConvGeometry&, const float*, const float*, float*);

/// Checks dtypes, brings operands to canonical layouts, runs `body`, and permutes the result back.
Status runConvolution(const KernelArgs& args, bool transposed, ConvBody body) {
  const NDArray& data = args.inputs[0];
  const NDArray& weight = args.inputs[1];
  const NDArray& out = args.outputs[0];
  for (const NDArray* array : {&data, &weight, &out})
    if (array->dtype() != DType::Float32) return unsupportedDType(args.op, array->dtype());
  BYOC_ASSIGN_OR_RETURN(ConvGeometry g,
                        convGeometry(args.op, args.attrs, data.shape(), weight.shape(), out.shape(), transposed));
  if (g.canonical()) {
    body(g, data.data<float>(), weight.data<float>(), out.data<float>());
    return Status::ok();
  }
  NDArray x = permuted(data, g.dataToNchw);
  NDArray w = permuted(weight, g.kernelToCanonical);
  NDArray y = NDArray::empty(DType::Float32, {g.batch, g.outChannels, g.outHeight, g.outWidth});
  body(g, x.data<float>(), w.data<float>(), y.data<float>());
  permuteInto(y, inversePermutation(g.dataToNchw), out);
  return Status::ok();
}

}  // namespace

void addConvolutionKernels(KernelTable& table) {
  table["nn.conv2d"] = [](const KernelArgs& a) { return runConvolution(a, false, conv2dNchw); };
  table["nn.conv2d_transpose"] = [](const KernelArgs& a) { return runConvolution(a, true, conv2dTransposeNchw); };
}

}  // namespace byoc::kernels
