/// \file
/// Kernels of topk and cumsum, which walk the tensor one line along an axis at a time.

#include <algorithm>
#include <numeric>

#include "ir/ops/op_helpers.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/kernel_families.h"

namespace byoc::kernels {

namespace {

/// The tensor seen as [outer, extent, inner] around one axis.
struct AxisLines {
  int64_t outer;
  int64_t extent;
  int64_t inner;

  AxisLines(const Shape& shape, std::size_t axis)
      : outer(kernels::extent(shape, 0, axis)), extent(shape[axis]), inner(kernels::extent(shape, axis + 1, shape.size())) {}
  /// The flat index of element `i` of line (o, n).
  int64_t at(int64_t o, int64_t n, int64_t i) const { return (o * extent + i) * inner + n; }
};

/// Per line: the positions ordered by value, ties keeping the lower index first (as TVM's and
/// ONNX's topk do), of which only the first k are sorted (a partial sort: a detector keeps 300 of
/// thousands) and written to `values` (when asked for) and `chosen`.
template <typename T>
void topkLines(const NDArray& data, const AxisLines& lines, int64_t k, bool ascending, const NDArray* values,
               std::vector<int64_t>& chosen) {
  const T* source = data.data<T>();
  std::vector<int64_t> order(static_cast<std::size_t>(lines.extent));
  for (int64_t o = 0; o < lines.outer; ++o)
    for (int64_t n = 0; n < lines.inner; ++n) {
      std::iota(order.begin(), order.end(), 0);
      auto value = [&](int64_t i) { return source[lines.at(o, n, i)]; };
      std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int64_t a, int64_t b) {
        const T x = value(a), y = value(b);
        if (ascending ? x < y : y < x) return true;
        return !(ascending ? y < x : x < y) && a < b;
      });
      for (int64_t j = 0; j < k; ++j) {
        const int64_t target = (o * k + j) * lines.inner + n;
        if (values) values->data<T>()[target] = value(order[static_cast<std::size_t>(j)]);
        chosen[static_cast<std::size_t>(target)] = order[static_cast<std::size_t>(j)];
      }
    }
}

Status topk(const KernelArgs& args) {
  const NDArray& data = args.inputs[0];
  BYOC_ASSIGN_OR_RETURN(int64_t axis, ops::intAttr("topk", args.attrs, "axis"));
  const AxisLines lines(data.shape(), axisIndex(axis, data.rank()));
  BYOC_ASSIGN_OR_RETURN(int64_t k, ops::intAttr("topk", args.attrs, "k"));
  if (k < 1) k = lines.extent;
  const std::string kind = ops::stringAttr(args.attrs, "ret_type");
  const NDArray* values = kind == "indices" ? nullptr : &args.outputs[0];
  const NDArray* indices = kind == "values" ? nullptr : &args.outputs[kind == "both" ? 1 : 0];
  const bool ascending = ops::boolAttr(args.attrs, "is_ascend");
  std::vector<int64_t> chosen(static_cast<std::size_t>(lines.outer * k * lines.inner));
  BYOC_TRY(dispatchDType("topk", data.dtype(),
                         [&](auto zero) { topkLines<decltype(zero)>(data, lines, k, ascending, values, chosen); }));
  if (!indices) return Status::ok();
  // The indices' integer type, chosen once for the whole output.
  return dispatchDType("topk", indices->dtype(), [&](auto zero) {
    std::copy(chosen.begin(), chosen.end(), indices->data<decltype(zero)>());
  });
}

/// Running sums in the output's type, inclusive or exclusive (each sum leaves out its own element).
template <typename In, typename Out>
void cumsumLines(const NDArray& data, const NDArray& out, const AxisLines& lines, bool exclusive) {
  const In* source = data.data<In>();
  Out* target = out.data<Out>();
  for (int64_t o = 0; o < lines.outer; ++o)
    for (int64_t n = 0; n < lines.inner; ++n) {
      Out sum = 0;
      for (int64_t i = 0; i < lines.extent; ++i) {
        const int64_t at = lines.at(o, n, i);
        const auto element = static_cast<Out>(source[at]);
        if (exclusive) target[at] = sum;
        sum = static_cast<Out>(sum + element);
        if (!exclusive) target[at] = sum;
      }
    }
}

Status cumsum(const KernelArgs& args) {
  const NDArray& out = args.outputs[0];
  const AttrValue* axisValue = args.attrs.find("axis");
  const bool flat = !axisValue || axisValue->isNone();
  const NDArray data = flat ? args.inputs[0].reshaped(out.shape()) : args.inputs[0];
  std::size_t axis = 0;
  if (!flat) {
    BYOC_ASSIGN_OR_RETURN(int64_t given, ops::intAttr("cumsum", args.attrs, "axis"));
    axis = axisIndex(given, data.rank());
  }
  const AxisLines lines(data.shape(), axis);
  const bool exclusive = ops::boolAttr(args.attrs, "exclusive");
  Status inner = Status::ok();
  Status outer = dispatchDType("cumsum", data.dtype(), [&](auto in) {
    inner = dispatchDType("cumsum", out.dtype(),
                          [&](auto result) { cumsumLines<decltype(in), decltype(result)>(data, out, lines, exclusive); });
  });
  if (!outer) return outer;
  return inner;
}

}  // namespace

void addAlgorithmKernels(KernelTable& table) {
  table["topk"] = topk;
  table["cumsum"] = cumsum;
}

}  // namespace byoc::kernels
