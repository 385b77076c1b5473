/// \file
/// libFuzzer target: `parseModule` on arbitrary bytes must return a module or an error, never
/// crash, hang or read out of bounds. A module it accepts goes where a user's model goes next:
/// printed, read back (the printed form must parse), typed, and printed with its types.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "pass/infer_type.h"
#include "support/result.h"
#include "text/parser.h"
#include "text/printer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  byoc::Result<byoc::Module> module = byoc::parseModule(text, "input.relay");
  if (!module) return 0;
  const std::string printed = byoc::printModule(*module);
  byoc::Result<byoc::Module> reparsed = byoc::parseModule(printed, "printed.relay");
  BYOC_CHECK(reparsed.isOk(), reparsed.error().str() + "\n" + printed);
  byoc::Result<byoc::Module> typed = byoc::inferTypes(*module);
  if (typed) (void)byoc::printModule(*typed, {.showTypes = true});
  return 0;
}
