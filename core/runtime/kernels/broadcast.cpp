/// \file
/// Binary kernels with numpy broadcasting (arithmetic, comparisons, logic) and `where`.

#include <cmath>

#include "runtime/kernels/broadcast_loop.h"
#include "runtime/kernels/kernel_families.h"

namespace byoc::kernels {

namespace {

/// out[i] = fn(lhs[i], rhs[i]) with broadcasting; `Bool` selects a bool output.
template <bool Bool, typename Fn>
Status binary(const KernelArgs& args, Fn fn) {
  const NDArray& lhs = args.inputs[0];
  const NDArray& rhs = args.inputs[1];
  const NDArray& out = args.outputs[0];
  return dispatchDType(args.op, lhs.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using R = std::conditional_t<Bool, bool, T>;
    const T* a = lhs.data<T>();
    const T* b = rhs.data<T>();
    R* y = out.data<R>();
    if (lhs.shape() == rhs.shape()) {
      const int64_t n = out.numElements();
      for (int64_t i = 0; i < n; ++i) y[i] = static_cast<R>(fn(a[i], b[i]));
      return;
    }
    R* row = y;
    forEachBroadcastRow<2>(out.shape(), {&lhs.shape(), &rhs.shape()},
                           [&](const std::array<int64_t, 2>& at, int64_t inner, const std::array<int64_t, 2>& step) {
                             const T* pa = a + at[0];
                             const T* pb = b + at[1];
                             for (int64_t i = 0; i < inner; ++i) row[i] = static_cast<R>(fn(pa[i * step[0]], pb[i * step[1]]));
                             row += inner;
                           });
  });
}

Status where(const KernelArgs& args) {
  const NDArray& cond = args.inputs[0];
  const NDArray& lhs = args.inputs[1];
  const NDArray& rhs = args.inputs[2];
  const NDArray& out = args.outputs[0];
  if (cond.dtype() != DType::Bool) return makeError("where: the condition must be bool, found " +
                                                    std::string(dtypeName(cond.dtype())));
  return dispatchDType(args.op, lhs.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const bool* c = cond.data<bool>();
    const T* a = lhs.data<T>();
    const T* b = rhs.data<T>();
    T* row = out.data<T>();
    forEachBroadcastRow<3>(out.shape(), {&cond.shape(), &lhs.shape(), &rhs.shape()},
                           [&](const std::array<int64_t, 3>& at, int64_t inner, const std::array<int64_t, 3>& step) {
                             for (int64_t i = 0; i < inner; ++i)
                               row[i] = c[at[0] + i * step[0]] ? a[at[1] + i * step[1]] : b[at[2] + i * step[2]];
                             row += inner;
                           });
  });
}

template <typename T>
T power(T x, T y) {
  return static_cast<T>(std::pow(static_cast<double>(x), static_cast<double>(y)));
}
inline float power(float x, float y) { return std::pow(x, y); }

}  // namespace

void addBroadcastKernels(KernelTable& table) {
  table["add"] = [](const KernelArgs& a) { return binary<false>(a, [](auto x, auto y) { return x + y; }); };
  table["subtract"] = [](const KernelArgs& a) { return binary<false>(a, [](auto x, auto y) { return x - y; }); };
  table["multiply"] = [](const KernelArgs& a) { return binary<false>(a, [](auto x, auto y) { return x * y; }); };
  table["divide"] = [](const KernelArgs& a) {
    return binary<false>(a, [](auto x, auto y) { return y == 0 && !std::is_floating_point_v<decltype(x)> ? 0 : x / y; });
  };
  table["power"] = [](const KernelArgs& a) { return binary<false>(a, [](auto x, auto y) { return power(x, y); }); };
  table["maximum"] = [](const KernelArgs& a) { return binary<false>(a, [](auto x, auto y) { return x > y ? x : y; }); };
  table["minimum"] = [](const KernelArgs& a) { return binary<false>(a, [](auto x, auto y) { return x < y ? x : y; }); };
  table["logical_and"] = [](const KernelArgs& a) { return binary<false>(a, [](auto x, auto y) { return x && y; }); };
  table["logical_or"] = [](const KernelArgs& a) { return binary<false>(a, [](auto x, auto y) { return x || y; }); };
  table["less"] = [](const KernelArgs& a) { return binary<true>(a, [](auto x, auto y) { return x < y; }); };
  table["greater"] = [](const KernelArgs& a) { return binary<true>(a, [](auto x, auto y) { return x > y; }); };
  table["less_equal"] = [](const KernelArgs& a) { return binary<true>(a, [](auto x, auto y) { return x <= y; }); };
  table["greater_equal"] = [](const KernelArgs& a) { return binary<true>(a, [](auto x, auto y) { return x >= y; }); };
  table["equal"] = [](const KernelArgs& a) { return binary<true>(a, [](auto x, auto y) { return x == y; }); };
  table["not_equal"] = [](const KernelArgs& a) { return binary<true>(a, [](auto x, auto y) { return x != y; }); };
  table["where"] = where;
}

}  // namespace byoc::kernels
