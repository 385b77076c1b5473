/// \file
/// libFuzzer target: `loadModuleJson` on arbitrary bytes must return a module or an error, never
/// crash, hang or read out of bounds. A module it accepts is saved and loaded again (what it
/// saves must load), typed, and printed as Relay text.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "frontend/json_format.h"
#include "pass/infer_type.h"
#include "support/result.h"
#include "text/printer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  byoc::Result<byoc::Module> module = byoc::loadModuleJson(text, "input.json");
  if (!module) return 0;
  const std::string saved = byoc::saveModuleJson(*module);
  byoc::Result<byoc::Module> reloaded = byoc::loadModuleJson(saved, "saved.json");
  BYOC_CHECK(reloaded.isOk(), reloaded.error().str() + "\n" + saved);
  byoc::Result<byoc::Module> typed = byoc::inferTypes(*module);
  (void)byoc::printModule(typed ? *typed : *module, {.showTypes = typed.isOk()});
  return 0;
}
