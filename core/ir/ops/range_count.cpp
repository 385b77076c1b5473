#include "ir/ops/range_count.h"

#include <cmath>
#include <string>

#include "support/limits.h"

namespace byoc::ops {

namespace {

Result<int64_t> checkedLength(double length) {
  if (!(length <= static_cast<double>(limits::kMaxElements)))
    return makeError("Range has more than " + std::to_string(limits::kMaxElements) +
                     " elements (the limit of one tensor)");
  return static_cast<int64_t>(length);
}

}  // namespace

Result<int64_t> rangeLength(int64_t start, int64_t limit, int64_t delta) {
  if (delta == 0) return makeError("Range has a delta of 0; expected a non-zero step");
  const __int128 diff = static_cast<__int128>(limit) - start;
  const __int128 count = diff / delta + ((diff % delta != 0 && (diff > 0) == (delta > 0)) ? 1 : 0);
  return checkedLength(count > 0 ? static_cast<double>(count) : 0.0);
}

Result<int64_t> rangeLength(double start, double limit, double delta) {
  if (delta == 0) return makeError("Range has a delta of 0; expected a non-zero step");
  const double length = std::ceil((limit - start) / delta);
  if (std::isnan(length)) return makeError("Range's bounds are not numbers; expected finite start, limit and delta");
  return checkedLength(std::max(length, 0.0));
}

}  // namespace byoc::ops
