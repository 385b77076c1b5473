/// \file
/// libFuzzer target: `Predicate::parse` on arbitrary bytes must return a condition or an error,
/// never crash, hang or read out of bounds. A condition it accepts is evaluated on every call of
/// a small typed module, as a target's op rules and pattern checks are during partitioning.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ir/expr.h"
#include "sample_module.h"
#include "support/result.h"
#include "target/predicate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  byoc::Result<byoc::Predicate> predicate = byoc::Predicate::parse(text, "input rule");
  if (!predicate) return 0;
  for (const byoc::Expr& call : byoc::fuzz::sampleCalls()) (void)predicate->evaluate(call);
  return 0;
}
