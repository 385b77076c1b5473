/// \file
/// Reductions over a set of axes (sum, mean, max, min, prod, argmax, argmin), with keepdims and exclude.

#include <limits>

#include "ir/ops/op_helpers.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/kernel_families.h"

namespace byoc::kernels {

namespace {

enum class Reduction { Sum, Mean, Max, Min, Prod, ArgMax, ArgMin };

/// Which input axes the call of `op` reduces.
Result<std::vector<bool>> reducedAxes(const std::string& op, const Attrs& attrs, std::size_t rank) {
  const AttrValue* axis = attrs.find("axis");
  if (!axis || axis->isNone()) return std::vector<bool>(rank, true);
  const bool exclude = ops::boolAttr(attrs, "exclude");
  std::vector<bool> reduced(rank, exclude);
  std::vector<int64_t> axes;
  if (axis->isInt()) {
    axes = {axis->asInt()};
  } else {
    BYOC_ASSIGN_OR_RETURN(axes, ops::intsAttr(op, attrs, "axis"));
  }
  for (int64_t a : axes) {
    BYOC_ASSIGN_OR_RETURN(const int64_t normalized, ops::normalizeAxis(op, a, rank));
    reduced[static_cast<std::size_t>(normalized)] = !exclude;
  }
  return reduced;
}

Status reduce(const KernelArgs& args, Reduction kind) {
  const NDArray& in = args.inputs[0];
  const NDArray& out = args.outputs[0];
  const std::size_t rank = in.rank();
  BYOC_ASSIGN_OR_RETURN(const std::vector<bool> reduced, reducedAxes(std::string(args.op), args.attrs, rank));
  // Output offset and index-within-the-reduction of each input axis step.
  std::vector<int64_t> outStride(rank, 0), reducedStride(rank, 0);
  int64_t outStep = 1, reducedStep = 1;
  for (std::size_t a = rank; a-- > 0;) {
    if (reduced[a]) {
      reducedStride[a] = reducedStep;
      reducedStep *= in.shape()[a];
    } else {
      outStride[a] = outStep;
      outStep *= in.shape()[a];
    }
  }
  const int64_t outCount = out.numElements();
  const double start = kind == Reduction::Max || kind == Reduction::ArgMax ? -std::numeric_limits<double>::infinity()
                       : kind == Reduction::Min || kind == Reduction::ArgMin ? std::numeric_limits<double>::infinity()
                       : kind == Reduction::Prod                          ? 1.0
                                                                          : 0.0;
  std::vector<double> acc(static_cast<std::size_t>(outCount), start);
  const bool indexed = kind == Reduction::ArgMax || kind == Reduction::ArgMin;
  std::vector<int64_t> best(indexed ? static_cast<std::size_t>(outCount) : 0, 0);
  const bool lastIndex = ops::boolAttr(args.attrs, "select_last_index");
  BYOC_TRY(dispatchDType(args.op, in.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* x = in.data<T>();
    const int64_t total = in.numElements();
    std::vector<int64_t> counter(rank, 0);
    int64_t o = 0, r = 0;
    for (int64_t k = 0; k < total; ++k) {
      const double value = static_cast<double>(x[k]);
      double& slot = acc[static_cast<std::size_t>(o)];
      switch (kind) {
        case Reduction::Sum:
        case Reduction::Mean: slot += value; break;
        case Reduction::Max: slot = value > slot ? value : slot; break;
        case Reduction::Min: slot = value < slot ? value : slot; break;
        case Reduction::Prod: slot *= value; break;
        case Reduction::ArgMax:
        case Reduction::ArgMin:
          if ((kind == Reduction::ArgMax ? value > slot : value < slot) || (lastIndex && value == slot)) {
            slot = value;
            best[static_cast<std::size_t>(o)] = r;
          }
          break;
      }
      for (std::size_t a = rank; a-- > 0;) {
        o += outStride[a];
        r += reducedStride[a];
        if (++counter[a] < in.shape()[a]) break;
        o -= outStride[a] * counter[a];
        r -= reducedStride[a] * counter[a];
        counter[a] = 0;
      }
    }
  }));
  if (indexed) {
    int32_t* y = out.data<int32_t>();
    for (int64_t i = 0; i < outCount; ++i) y[i] = static_cast<int32_t>(best[static_cast<std::size_t>(i)]);
    return Status::ok();
  }
  const double divisor = kind == Reduction::Mean ? static_cast<double>(reducedStep) : 1.0;
  return dispatchDType(args.op, out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* y = out.data<T>();
    for (int64_t i = 0; i < outCount; ++i) y[i] = static_cast<T>(acc[static_cast<std::size_t>(i)] / divisor);
  });
}

}  // namespace

void addReduceKernels(KernelTable& table) {
  table["sum"] = [](const KernelArgs& a) { return reduce(a, Reduction::Sum); };
  table["mean"] = [](const KernelArgs& a) { return reduce(a, Reduction::Mean); };
  table["max"] = [](const KernelArgs& a) { return reduce(a, Reduction::Max); };
  table["min"] = [](const KernelArgs& a) { return reduce(a, Reduction::Min); };
  table["prod"] = [](const KernelArgs& a) { return reduce(a, Reduction::Prod); };
  table["argmax"] = [](const KernelArgs& a) { return reduce(a, Reduction::ArgMax); };
  table["argmin"] = [](const KernelArgs& a) { return reduce(a, Reduction::ArgMin); };
}

}  // namespace byoc::kernels
