/// \file
/// libFuzzer target: `parseTarget` on arbitrary bytes must return a target or an error, never
/// crash, hang or read out of bounds. A target it accepts is written back (what it writes must
/// read back and write the same again, as target.h promises), asked about every call of a small
/// typed module, and its pattern table is matched against the module's functions.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "pattern/find_matches.h"
#include "sample_module.h"
#include "support/result.h"
#include "target/target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  byoc::Result<byoc::Target> target = byoc::parseTarget(json, "input.json");
  if (!target) return 0;
  const std::string written = byoc::serializeTarget(*target);
  byoc::Result<byoc::Target> reread = byoc::parseTarget(written, "written.json");
  BYOC_CHECK(reread.isOk(), reread.error().str() + "\n" + written);
  BYOC_CHECK(byoc::serializeTarget(*reread) == written, "writing the written target changed it:\n" + written);
  for (const byoc::Expr& call : byoc::fuzz::sampleCalls()) (void)target->supports(call);
  for (const byoc::PatternEntry& entry : target->patterns)
    for (const auto& [name, function] : byoc::fuzz::sampleModule().functions())
      (void)byoc::findMatches(entry.compiled.get(), function);
  return 0;
}
