/// \file
/// libFuzzer target: a Relay module the parser and type inference accept goes where `byoc run
/// --target dnnl` takes it: through the dnnl target's partition steps (FakeQuantizationToInteger,
/// LegalizeQnnForDnnl and the rest of its preparation, MergeComposite, AnnotateTarget,
/// MergeCompilerRegions, PartitionGraph, pruning), checked by the verifier after each, and then its
/// regions are built for their codegens (nothing runs). Every step must give a module or an
/// error, never crash or hang.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "pass/infer_type.h"
#include "pass/partition/partition_flow.h"
#include "pass/verifier.h"
#include "runtime/executor.h"
#include "support/result.h"
#include "target/target_library.h"
#include "dnnl_steps.h"
#include "text/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  byoc::Result<byoc::Module> parsed = byoc::parseModule(text, "input.relay");
  if (!parsed) return 0;
  byoc::Result<byoc::Module> typed = byoc::inferTypes(*parsed);
  if (!typed) return 0;
  byoc::Module module = *typed;
  byoc::PassContext context;
  for (const byoc::PassPtr& step : byoc::fuzzing::dnnlSteps()) {
    byoc::Result<byoc::PassResult> ran = (*step)(module, context);
    if (!ran) return 0;
    module = ran->module;
    const byoc::Status verified = byoc::verifyModule(module);
    BYOC_CHECK(verified.isOk(), "a partition step left a module the verifier refuses: " + verified.error().str());
  }
  (void)byoc::Executor::create(module);
  return 0;
}
