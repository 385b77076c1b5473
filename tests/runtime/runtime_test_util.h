#pragma once
/// \file
/// Helpers of the runtime tests: parsing and typing modules, deterministic random tensors,
/// naive reference loops, and tolerance checks.

#include <QtTest>

#include <cmath>
#include <random>
#include <string>

#include "pass/infer_type.h"
#include "runtime/ndarray.h"
#include "runtime/value.h"
#include "text/parser.h"

namespace byoc::testing {

/// Parses and type-checks `text`; fails the test on error.
inline Module typedModule(const std::string& text) {
  Result<Module> parsed = parseModule(text, "in.relay");
  if (!parsed) qFatal("%s", parsed.error().str().c_str());
  Result<Module> typed = inferTypes(*parsed);
  if (!typed) qFatal("%s", typed.error().str().c_str());
  return *typed;
}

/// A float32 tensor of `shape` with values uniform in [-scale, scale) from `seed`.
inline NDArray randomTensor(Shape shape, unsigned seed, float scale = 1.0f) {
  NDArray array = NDArray::empty(DType::Float32, std::move(shape));
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> uniform(-scale, scale);
  for (int64_t i = 0; i < array.numElements(); ++i) array.data<float>()[i] = uniform(generator);
  return array;
}

/// The largest violation of |a - b| <= atol + rtol * |b| (0 when all within); -1 on a shape mismatch.
inline double toleranceExcess(const NDArray& actual, const NDArray& expected, double atol = 1e-4, double rtol = 1e-4) {
  if (actual.shape() != expected.shape() || actual.dtype() != expected.dtype()) return -1;
  double worst = 0;
  for (int64_t i = 0; i < actual.numElements(); ++i) {
    const double a = actual.elementAsDouble(i);
    const double b = expected.elementAsDouble(i);
    const double excess = std::abs(a - b) - (atol + rtol * std::abs(b));
    if (std::isnan(a) != std::isnan(b)) return 1e30;
    worst = std::max(worst, excess);
  }
  return worst;
}

/// Naive NCHW/OIHW grouped convolution, the six-loop definition.
inline NDArray naiveConv2d(const NDArray& x, const NDArray& w, int64_t stride, int64_t pad, int64_t dilation,
                           int64_t groups) {
  const int64_t n = x.shape()[0], c = x.shape()[1], h = x.shape()[2], wd = x.shape()[3];
  const int64_t o = w.shape()[0], kh = w.shape()[2], kw = w.shape()[3];
  const int64_t oh = (h + 2 * pad - (kh - 1) * dilation - 1) / stride + 1;
  const int64_t ow = (wd + 2 * pad - (kw - 1) * dilation - 1) / stride + 1;
  const int64_t cg = c / groups, og = o / groups;
  NDArray y = NDArray::zeros(DType::Float32, {n, o, oh, ow});
  const float* xp = x.data<float>();
  const float* wp = w.data<float>();
  float* yp = y.data<float>();
  for (int64_t b = 0; b < n; ++b)
    for (int64_t oc = 0; oc < o; ++oc)
      for (int64_t r = 0; r < oh; ++r)
        for (int64_t q = 0; q < ow; ++q) {
          double sum = 0;
          const int64_t g = oc / og;
          for (int64_t ic = 0; ic < cg; ++ic)
            for (int64_t i = 0; i < kh; ++i)
              for (int64_t j = 0; j < kw; ++j) {
                const int64_t ih = r * stride - pad + i * dilation;
                const int64_t iw = q * stride - pad + j * dilation;
                if (ih < 0 || ih >= h || iw < 0 || iw >= wd) continue;
                sum += double(xp[((b * c + g * cg + ic) * h + ih) * wd + iw]) * wp[((oc * cg + ic) * kh + i) * kw + j];
              }
          yp[((b * o + oc) * oh + r) * ow + q] = static_cast<float>(sum);
        }
  return y;
}

}  // namespace byoc::testing

namespace byoc::testing {

/// A module whose @main passes its parameters to one outlined region `@<compiler>_0` (with the
/// attributes PartitionGraph gives) whose body is `body`. `params` is "%a: T, %b: U".
inline std::string regionModuleText(const std::string& compiler, const std::string& params, const std::string& body) {
  std::string args;
  std::size_t at = 0;
  while ((at = params.find('%', at)) != std::string::npos) {
    std::size_t end = params.find(':', at);
    args += (args.empty() ? "" : ", ") + params.substr(at, end - at);
    at = end;
  }
  const std::string name = "tvmgen_default_" + compiler + "_main_0";
  return "def @" + name + "(" + params + ", Compiler=\"" + compiler + "\", global_symbol=\"" + name +
         "\", Primitive=1, Inline=1) {\n  " + body + "\n}\n" + "def @main(" + params + ") {\n  @" + name + "(" + args +
         ")\n}\n";
}

}  // namespace byoc::testing
