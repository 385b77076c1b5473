#pragma once
/// \file
/// A module partitioned for one built-in target, step by step as `byoc partition --target T`
/// runs it, for tests that run, export or inspect the result.

#include <QtGlobal>

#include <memory>
#include <string>
#include <vector>

#include "ir/module.h"
#include "pass/infer_type.h"
#include "pass/partition/partition_flow.h"
#include "target/target_library.h"

namespace byoc::testing {

/// `module`, typed and partitioned for the built-in `target` by the relay flow; fails the calling
/// test on any error.
inline Module partitionedFor(const Module& module, const std::string& target) {
  Result<Module> typed = inferTypes(module);
  if (!typed) qFatal("%s", typed.error().str().c_str());
  Result<Target> loaded = loadTarget(target);
  if (!loaded) qFatal("%s", loaded.error().str().c_str());
  Result<std::vector<PassPtr>> steps = partitionSteps({std::make_shared<const Target>(*loaded)}, PartitionPipeline::Relay);
  if (!steps) qFatal("%s", steps.error().str().c_str());
  PassContext context;
  Module result = *typed;
  for (const PassPtr& step : *steps) {
    Result<PassResult> ran = (*step)(result, context);
    if (!ran) qFatal("%s", ran.error().str().c_str());
    result = ran->module;
  }
  return result;
}

}  // namespace byoc::testing
