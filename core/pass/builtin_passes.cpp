/// \file
/// The list of built-in passes. Adding a pass to the registry is one line here.

#include "pass/builtin_passes.h"

#include "pass/infer_type.h"
#include "pass/partition/partition_passes.h"
#include "pass/registry.h"
#include "pass/transforms/dead_code_elimination.h"
#include "pass/transforms/dnnl_rewrites.h"
#include "pass/transforms/eliminate_common_subexpr.h"
#include "pass/transforms/fake_quantization_to_integer.h"
#include "pass/transforms/fold_constant.h"
#include "pass/transforms/fold_scale_axis.h"
#include "pass/transforms/fuse_ops.h"
#include "pass/transforms/inline.h"
#include "pass/transforms/legalize_qnn_for_dnnl.h"
#include "pass/transforms/remove_unused_functions.h"
#include "pass/transforms/simplify_expr.h"
#include "pass/transforms/simplify_inference.h"

namespace byoc {

void registerBuiltinPasses(PassRegistry& registry) {
  const PassRegistration builtins[] = {
      inferTypeRegistration(),
      foldConstantRegistration(),
      eliminateCommonSubexprRegistration(),
      fuseOpsRegistration(),
      simplifyInferenceRegistration(),
      simplifyExprRegistration(),
      backwardFoldScaleAxisRegistration(),
      forwardFoldScaleAxisRegistration(),
      foldScaleAxisRegistration(),
      deadCodeEliminationRegistration(),
      inlineRegistration(),
      removeUnusedFunctionsRegistration(),
      fakeQuantizationToIntegerRegistration(),
      legalizeQnnForDnnlRegistration(),
      rewriteLayerNormRegistration(),
      rewriteDenseBiasGeluReshapeLastRegistration(),
  };
  for (const PassRegistration& registration : builtins) {
    Status added = registry.add(registration);
    BYOC_CHECK(added.isOk(), added.isOk() ? std::string() : added.error().message);
  }
  for (PassRegistration& registration : partitionPassRegistrations()) {
    Status added = registry.add(std::move(registration));
    BYOC_CHECK(added.isOk(), added.isOk() ? std::string() : added.error().message);
  }
}

const PassRegistry& builtinPasses() {
  static const PassRegistry registry = [] {
    PassRegistry built;
    registerBuiltinPasses(built);
    return built;
  }();
  return registry;
}

}  // namespace byoc
