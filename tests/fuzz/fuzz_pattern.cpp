/// \file
/// libFuzzer target: `parsePattern` on arbitrary bytes must return a pattern or an error, never
/// crash, hang or read out of bounds. A pattern it accepts is printed (the printed form must
/// parse and print the same again, as pattern_printer.h promises) and matched against every
/// function of a small typed module, as `byoc match` does.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "pattern/find_matches.h"
#include "pattern/pattern.h"
#include "pattern/pattern_parser.h"
#include "pattern/pattern_printer.h"
#include "sample_module.h"
#include "support/result.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  byoc::Result<byoc::Pattern> pattern = byoc::parsePattern(text, "input.pattern");
  if (!pattern) return 0;
  const std::string printed = byoc::printPattern(*pattern);
  byoc::Result<byoc::Pattern> reparsed = byoc::parsePattern(printed, "printed.pattern");
  BYOC_CHECK(reparsed.isOk(), reparsed.error().str() + "\n" + printed);
  BYOC_CHECK(byoc::printPattern(*reparsed) == printed, "printing the printed pattern changed it:\n" + printed);
  for (const auto& [name, function] : byoc::fuzz::sampleModule().functions())
    (void)byoc::findMatches(*pattern, function);
  // A recursive pattern is a reference cycle its owner breaks (pattern.h).
  byoc::clearRedirects(*pattern);
  byoc::clearRedirects(*reparsed);
  return 0;
}
