#include "runtime/compare.h"

#include <cmath>

namespace byoc {

Difference compareArrays(const NDArray& actual, const NDArray& expected, double atol, double rtol) {
  Difference difference;
  if (actual.shape() != expected.shape() || actual.dtype() != expected.dtype()) {
    difference.within = false;
    difference.maxAbsolute = difference.maxRelative = INFINITY;
    return difference;
  }
  const int64_t count = actual.numElements();
  for (int64_t i = 0; i < count; ++i) {
    const double a = actual.elementAsDouble(i);
    const double b = expected.elementAsDouble(i);
    if (std::isnan(a) || std::isnan(b)) {
      if (std::isnan(a) != std::isnan(b)) difference.within = false;
      continue;
    }
    const double gap = std::abs(a - b);
    difference.maxAbsolute = std::max(difference.maxAbsolute, gap);
    if (b != 0) difference.maxRelative = std::max(difference.maxRelative, gap / std::abs(b));
    if (gap > atol + rtol * std::abs(b)) difference.within = false;
  }
  return difference;
}

}  // namespace byoc
