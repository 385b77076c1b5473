/// \file
/// Registry entries of the partitioning passes, so that pipelines as text can name them
/// (`MergeComposite(targets="dnnl"),AnnotateTarget(targets="dnnl"),MergeCompilerRegions,PartitionGraph`).

#include "ir/ops/op_helpers.h"
#include "pass/transforms/canonicalize_ops.h"
#include "pass/partition/partition_flow.h"
#include "pass/partition/partition_passes.h"
#include "target/target_library.h"

namespace byoc {

namespace {

using TargetList = std::vector<std::shared_ptr<const Target>>;

/// The targets named by a comma-separated option value.
Result<TargetList> targetsOption(const std::string& pass, const Attrs& options, const char* name) {
  TargetList targets;
  BYOC_ASSIGN_OR_RETURN(const std::string text, ops::requiredStringAttr(pass, options, name));
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t comma = std::min(text.find(',', start), text.size());
    std::string item = text.substr(start, comma - start);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (!item.empty()) {
      BYOC_ASSIGN_OR_RETURN(Target target, loadTarget(item));
      BYOC_TRY(checkTargetPipelines(target));
      targets.push_back(std::make_shared<const Target>(std::move(target)));
    }
    start = comma + 1;
  }
  if (targets.empty()) return makeError(std::string("option ") + name + " names no target");
  return targets;
}

/// A registration whose metadata is that of the pass built with default options.
PassRegistration registration(const PassPtr& prototype, PassFactory factory) {
  return {prototype->info(), std::move(factory)};
}

PassInfo partitionGraphInfo() {
  return {"PartitionGraph", "outlines every annotated region as an external function (TVM's PartitionGraph)", 0, {},
          "Runs FlattenNestedTuples, RemoveDefaultAnnotations, OutlineRegions and NameMangleExtFuncs. Input: a module "
          "after MergeCompilerRegions. Output: one function per region, named tvmgen_<mod_name>_<target>_<function>_<N>.",
          {{"mod_name", AttrValue("default"), "the module name in tvmgen_<mod_name>_…"},
           {"bind_constants", AttrValue(true), "bind constant arguments into the outlined functions"}}};
}

}  // namespace

std::vector<PassRegistration> partitionPassRegistrations() {
  Target none;
  return {
      registration(createCanonicalizeOpsPass(), [](const Attrs&) { return Result<PassPtr>(createCanonicalizeOpsPass()); }),
      registration(*createMergeCompositePass({}),
                   [](const Attrs& options) -> Result<PassPtr> {
                     BYOC_ASSIGN_OR_RETURN(TargetList targets, targetsOption("MergeComposite", options, "targets"));
                     return createMergeCompositePass(targets);
                   }),
      registration(createAnnotateTargetPass({}),
                   [](const Attrs& options) -> Result<PassPtr> {
                     BYOC_ASSIGN_OR_RETURN(TargetList targets, targetsOption("AnnotateTarget", options, "targets"));
                     BYOC_ASSIGN_OR_RETURN(const bool nonCalls, ops::requiredBoolAttr("AnnotateTarget", options, "include_non_call_ops"));
                     return createAnnotateTargetPass(targets, nonCalls);
                   }),
      registration(createMergeCompilerRegionsPass(), [](const Attrs&) { return Result<PassPtr>(createMergeCompilerRegionsPass()); }),
      registration(createFlattenNestedTuplesPass(), [](const Attrs&) { return Result<PassPtr>(createFlattenNestedTuplesPass()); }),
      registration(createRemoveDefaultAnnotationsPass(),
                   [](const Attrs&) { return Result<PassPtr>(createRemoveDefaultAnnotationsPass()); }),
      registration(createOutlineRegionsPass(),
                   [](const Attrs& options) -> Result<PassPtr> {
                     BYOC_ASSIGN_OR_RETURN(const bool bind, ops::requiredBoolAttr("OutlineRegions", options, "bind_constants"));
                     return createOutlineRegionsPass(bind);
                   }),
      registration(createNameMangleExtFuncsPass(),
                   [](const Attrs& options) -> Result<PassPtr> {
                     BYOC_ASSIGN_OR_RETURN(const std::string modName, ops::requiredStringAttr("NameMangleExtFuncs", options, "mod_name"));
                     return createNameMangleExtFuncsPass(modName);
                   }),
      {partitionGraphInfo(),
       [](const Attrs& options) -> Result<PassPtr> {
         BYOC_ASSIGN_OR_RETURN(const std::string modName, ops::requiredStringAttr("PartitionGraph", options, "mod_name"));
         BYOC_ASSIGN_OR_RETURN(const bool bind, ops::requiredBoolAttr("PartitionGraph", options, "bind_constants"));
         return createPartitionGraphPass(modName, bind);
       }},
      registration(*createFuseOpsByPatternPass({}),
                   [](const Attrs& options) -> Result<PassPtr> {
                     const std::string pass = "FuseOpsByPattern";
                     BYOC_ASSIGN_OR_RETURN(TargetList targets, targetsOption(pass, options, "targets"));
                     FuseOpsByPatternOptions fuse;
                     BYOC_ASSIGN_OR_RETURN(fuse.bindConstants, ops::requiredBoolAttr(pass, options, "bind_constants"));
                     BYOC_ASSIGN_OR_RETURN(fuse.annotateCodegen, ops::requiredBoolAttr(pass, options, "annotate_codegen"));
                     BYOC_ASSIGN_OR_RETURN(fuse.rejectLeakingIntermediates,
                                           ops::requiredBoolAttr(pass, options, "reject_leaking_intermediates"));
                     return createFuseOpsByPatternPass(targets, fuse);
                   }),
      registration(createMergeCompositeFunctionsPass(),
                   [](const Attrs& options) -> Result<PassPtr> {
                     BYOC_ASSIGN_OR_RETURN(const bool lift, ops::requiredBoolAttr("MergeCompositeFunctions", options, "lift_constants"));
                     return createMergeCompositeFunctionsPass(lift);
                   }),
      registration(createRunCodegenPass(), [](const Attrs&) { return Result<PassPtr>(createRunCodegenPass()); }),
      registration(createPruneRegionsPass(std::make_shared<const Target>(none)),
                   [](const Attrs& options) -> Result<PassPtr> {
                     BYOC_ASSIGN_OR_RETURN(TargetList targets, targetsOption("PruneRegions", options, "target"));
                     return createPruneRegionsPass(targets.front());
                   }),
  };
}

}  // namespace byoc
