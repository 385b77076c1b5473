/// \file
/// Unary elementwise kernels: activations, math functions, rounding, cast, clip.

#include <cmath>

#include "ir/ops/attr_views.h"
#include "ir/ops/op_helpers.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/kernel_families.h"

namespace byoc::kernels {

namespace {

/// Applies `fn` to every element of input 0, writing output 0 of the same dtype.
template <typename Fn>
Status unary(const KernelArgs& args, Fn fn) {
  const NDArray& in = args.inputs[0];
  const NDArray& out = args.outputs[0];
  return dispatchDType(args.op, in.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* x = in.data<T>();
    T* y = out.data<T>();
    const int64_t n = in.numElements();
    for (int64_t i = 0; i < n; ++i) y[i] = static_cast<T>(fn(x[i]));
  });
}

/// The float type computations of `T` run in: T itself for floats, double otherwise.
template <typename T>
using Real = std::conditional_t<std::is_floating_point_v<T>, T, double>;

template <typename T>
Real<T> real(T x) {
  return static_cast<Real<T>>(x);
}

Status cast(const KernelArgs& args) {
  const NDArray& in = args.inputs[0];
  const NDArray& out = args.outputs[0];
  const int64_t n = in.numElements();
  Status inner;
  Status outer = dispatchDType(args.op, in.dtype(), [&](auto inTag) {
    using In = decltype(inTag);
    const In* x = in.data<In>();
    inner = dispatchDType(args.op, out.dtype(), [&](auto outTag) {
      using Out = decltype(outTag);
      Out* y = out.data<Out>();
      for (int64_t i = 0; i < n; ++i) y[i] = static_cast<Out>(x[i]);
    });
  });
  return outer ? inner : outer;
}

Status clip(const KernelArgs& args) {
  BYOC_ASSIGN_OR_RETURN(const ops::ClipAttrs bounds, ops::readClipAttrs(std::string(args.op), args.attrs));
  return unary(args, [low = bounds.low, high = bounds.high](auto x) {
    using T = decltype(x);
    return x < static_cast<T>(low) ? static_cast<T>(low) : (x > static_cast<T>(high) ? static_cast<T>(high) : x);
  });
}

Status leakyRelu(const KernelArgs& args) {
  BYOC_ASSIGN_OR_RETURN(const double alpha, ops::floatAttr(std::string(args.op), args.attrs, "alpha"));
  return unary(args, [alpha](auto x) { return x > 0 ? real(x) : real(x) * static_cast<decltype(real(x))>(alpha); });
}

}  // namespace

void addElementwiseKernels(KernelTable& table) {
  table["nn.relu"] = [](const KernelArgs& a) { return unary(a, [](auto x) { return x > 0 ? x : decltype(x)(0); }); };
  table["sigmoid"] = [](const KernelArgs& a) {
    return unary(a, [](auto x) { return 1 / (1 + std::exp(-real(x))); });
  };
  table["tanh"] = [](const KernelArgs& a) { return unary(a, [](auto x) { return std::tanh(real(x)); }); };
  table["erf"] = [](const KernelArgs& a) { return unary(a, [](auto x) { return std::erf(real(x)); }); };
  table["exp"] = [](const KernelArgs& a) { return unary(a, [](auto x) { return std::exp(real(x)); }); };
  table["log"] = [](const KernelArgs& a) { return unary(a, [](auto x) { return std::log(real(x)); }); };
  table["sqrt"] = [](const KernelArgs& a) { return unary(a, [](auto x) { return std::sqrt(real(x)); }); };
  table["rsqrt"] = [](const KernelArgs& a) { return unary(a, [](auto x) { return 1 / std::sqrt(real(x)); }); };
  table["nn.gelu"] = [](const KernelArgs& a) {
    return unary(a, [](auto x) { return real(x) * 0.5 * (1 + std::erf(real(x) / std::sqrt(2.0))); });
  };
  table["abs"] = [](const KernelArgs& a) { return unary(a, [](auto x) { return std::abs(real(x)); }); };
  table["negative"] = [](const KernelArgs& a) { return unary(a, [](auto x) { return -real(x); }); };
  table["round"] = [](const KernelArgs& a) { return unary(a, [](auto x) { return std::round(real(x)); }); };
  table["floor"] = [](const KernelArgs& a) { return unary(a, [](auto x) { return std::floor(real(x)); }); };
  table["ceil"] = [](const KernelArgs& a) { return unary(a, [](auto x) { return std::ceil(real(x)); }); };
  table["copy"] = [](const KernelArgs& a) { return unary(a, [](auto x) { return x; }); };
  table["zeros_like"] = [](const KernelArgs& a) { return unary(a, [](auto) { return 0; }); };
  table["ones_like"] = [](const KernelArgs& a) { return unary(a, [](auto) { return 1; }); };
  table["logical_not"] = [](const KernelArgs& a) { return unary(a, [](auto x) { return !x; }); };
  table["nn.leaky_relu"] = leakyRelu;
  table["clip"] = clip;
  table["cast"] = cast;
}

}  // namespace byoc::kernels
