/// \file
/// Pooling kernels: windowed max/avg with padding, dilation and ceil_mode, global max/avg,
/// adaptive avg. NHWC data is permuted to NCHW and back. Integer averages truncate toward zero,
/// as TVM's integer pools divide.

#include <algorithm>
#include <limits>

#include "ir/ops/attr_views.h"
#include "ir/ops/op_helpers.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/kernel_families.h"
#include "runtime/kernels/permute.h"

namespace byoc::kernels {

namespace {

/// Pooling window geometry over NCHW planes.
struct Window {
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1, top = 0, left = 0, bottom = 0, right = 0;
  bool countIncludePad = false;
};

enum class PoolKind { Max, Avg, AdaptiveAvg };

/// Runs `kind` over the NCHW planes of `x` into `y` (both NCHW).
template <typename T>
void poolPlanes(PoolKind kind, const Window& w, const NDArray& x, const NDArray& y) {
  const int64_t planes = x.shape()[0] * x.shape()[1];
  const int64_t ih = x.shape()[2], iw = x.shape()[3], oh = y.shape()[2], ow = y.shape()[3];
  for (int64_t p = 0; p < planes; ++p) {
    const T* in = x.data<T>() + p * ih * iw;
    T* out = y.data<T>() + p * oh * ow;
    for (int64_t r = 0; r < oh; ++r) {
      for (int64_t c = 0; c < ow; ++c) {
        int64_t r0, r1, c0, c1, rStep = w.dh, cStep = w.dw;
        if (kind == PoolKind::AdaptiveAvg) {
          r0 = r * ih / oh;
          r1 = ((r + 1) * ih + oh - 1) / oh;
          c0 = c * iw / ow;
          c1 = ((c + 1) * iw + ow - 1) / ow;
          rStep = cStep = 1;
        } else {
          r0 = r * w.sh - w.top;
          r1 = r0 + (w.kh - 1) * w.dh + 1;
          c0 = c * w.sw - w.left;
          c1 = c0 + (w.kw - 1) * w.dw + 1;
        }
        double acc = kind == PoolKind::Max ? -std::numeric_limits<double>::infinity() : 0.0;
        int64_t count = 0;
        for (int64_t i = r0; i < r1; i += rStep) {
          if (i < 0 || i >= ih) continue;
          for (int64_t j = c0; j < c1; j += cStep) {
            if (j < 0 || j >= iw) continue;
            const double value = in[i * iw + j];
            acc = kind == PoolKind::Max ? std::max(acc, value) : acc + value;
            ++count;
          }
        }
        if (kind == PoolKind::Avg && w.countIncludePad) {
          // The window clipped to the padded input, as Relay counts it.
          const int64_t padH = std::min(r1, ih + w.bottom) - std::max<int64_t>(r0, -w.top);
          const int64_t padW = std::min(c1, iw + w.right) - std::max<int64_t>(c0, -w.left);
          count = std::max<int64_t>(1, ((padH + w.dh - 1) / w.dh) * ((padW + w.dw - 1) / w.dw));
        }
        out[r * ow + c] = static_cast<T>(kind == PoolKind::Max ? acc : (count ? acc / static_cast<double>(count) : 0.0));
      }
    }
  }
}

/// Window attributes of a windowed pool; global pools use the whole plane.
Result<Window> windowOf(const KernelArgs& args, PoolKind kind, const Shape& nchwIn, bool global) {
  Window w;
  if (global) {
    w.kh = nchwIn[2];
    w.kw = nchwIn[3];
    return w;
  }
  if (kind == PoolKind::AdaptiveAvg) return w;
  BYOC_ASSIGN_OR_RETURN(const ops::WindowAttrs a, ops::readWindowAttrs(std::string(args.op), args.attrs, 2, true));
  w = {a.size[0],    a.size[1],    a.strides[0], a.strides[1], a.dilation[0], a.dilation[1],
       a.padding[0], a.padding[1], a.padding[2], a.padding[3], ops::boolAttr(args.attrs, "count_include_pad")};
  return w;
}

Status pool(const KernelArgs& args, PoolKind kind, bool global) {
  const bool nhwc = ops::stringAttr(args.attrs, "layout") == "NHWC";
  const std::vector<std::size_t> toNchw = {0, 3, 1, 2};
  NDArray x = nhwc ? permuted(args.inputs[0], toNchw) : args.inputs[0];
  const NDArray& out = args.outputs[0];
  NDArray y = nhwc ? NDArray::empty(out.dtype(), {out.shape()[0], out.shape()[3], out.shape()[1], out.shape()[2]}) : out;
  BYOC_ASSIGN_OR_RETURN(const Window w, windowOf(args, kind, x.shape(), global));
  BYOC_TRY(dispatchDType(args.op, x.dtype(), [&](auto tag) { poolPlanes<decltype(tag)>(kind, w, x, y); }));
  if (nhwc) permuteInto(y, inversePermutation(toNchw), out);
  return Status::ok();
}

}  // namespace

void addPoolingKernels(KernelTable& table) {
  table["nn.max_pool2d"] = [](const KernelArgs& a) { return pool(a, PoolKind::Max, false); };
  table["nn.avg_pool2d"] = [](const KernelArgs& a) { return pool(a, PoolKind::Avg, false); };
  table["nn.global_max_pool2d"] = [](const KernelArgs& a) { return pool(a, PoolKind::Max, true); };
  table["nn.global_avg_pool2d"] = [](const KernelArgs& a) { return pool(a, PoolKind::Avg, true); };
  table["nn.adaptive_avg_pool2d"] = [](const KernelArgs& a) { return pool(a, PoolKind::AdaptiveAvg, false); };
}

}  // namespace byoc::kernels
