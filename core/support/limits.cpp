#include "support/limits.h"

#include <algorithm>
#include <vector>

namespace byoc::limits {

std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return std::nullopt;
  return product;
}

std::optional<int64_t> checkedAdd(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) return std::nullopt;
  return sum;
}

std::optional<int64_t> elementCount(std::span<const int64_t> dims) {
  int64_t count = 1;
  bool empty = false;
  for (int64_t dim : dims) {
    if (dim < 0) return std::nullopt;
    if (dim == 0) empty = true;
    // Keep multiplying past a zero dimension so that a huge shape with one 0 is still refused.
    std::optional<int64_t> next = checkedMul(count, dim == 0 ? 1 : dim);
    if (!next || *next > kMaxElements) return std::nullopt;
    count = *next;
  }
  return empty ? 0 : count;
}

std::string shapeProblem(std::span<const int64_t> dims) {
  if (static_cast<int64_t>(dims.size()) > kMaxRank)
    return "rank " + std::to_string(dims.size()) + " exceeds the limit of " + std::to_string(kMaxRank) + " dimensions";
  for (std::size_t i = 0; i < dims.size(); ++i)
    if (dims[i] < 0) return "dimension " + std::to_string(i) + " is " + std::to_string(dims[i]) + ", expected 0 or more";
  if (!elementCount(dims)) return "more than " + std::to_string(kMaxElements) + " elements (the limit of one tensor)";
  return "";
}

std::string typeShapeProblem(std::span<const int64_t> dims) {
  std::vector<int64_t> known(dims.begin(), dims.end());
  std::replace(known.begin(), known.end(), int64_t{-1}, int64_t{1});
  return shapeProblem(known);
}

int jsonNestingDepth(std::string_view text) {
  int depth = 0;
  int deepest = 0;
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\') ++i;
      else if (c == '"') inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > deepest) deepest = depth;
    } else if (c == ']' || c == '}') {
      if (depth > 0) --depth;
    }
  }
  return deepest;
}

}  // namespace byoc::limits
