#pragma once
/// \file
/// The passes that carve a module into regions for external compilers, as TVM's "bring your own
/// codegen" flow does (spec §2–5):
///
///   MergeComposite(patterns) → AnnotateTarget(targets) → MergeCompilerRegions → PartitionGraph
///
/// Each keeps the origins of the nodes it rewrites, and each node it creates gets the union of the
/// origins of what it replaces, so every outlined function maps back to the loaded model.

#include <memory>
#include <string>
#include <vector>

#include "pass/pass.h"
#include "pass/registry.h"
#include "target/target.h"

namespace byoc {

/// MergeComposite: the pattern tables of `targets`, in order, each row outlining its matches into
/// composite functions (`Composite="<row name>"`). An error if a pattern does not parse.
Result<PassPtr> createMergeCompositePass(const std::vector<std::shared_ptr<const Target>>& targets);

/// AnnotateTarget: wraps every call a target supports (by its op rules, or a composite named
/// `<target>.…`) in `compiler_begin`/`compiler_end` of that target; the first target in `targets`
/// that claims a call wins; unclaimed calls get the target "default".
PassPtr createAnnotateTargetPass(std::vector<std::shared_ptr<const Target>> targets, bool includeNonCallOps = true);

/// MergeCompilerRegions: merges adjacent regions of one target where that creates no cycle.
PassPtr createMergeCompilerRegionsPass();

/// FlattenNestedTuples: moves a `compiler_end` on a tuple onto each of its fields.
PassPtr createFlattenNestedTuplesPass();
/// RemoveDefaultAnnotations: drops the begin/end annotations of the "default" target.
PassPtr createRemoveDefaultAnnotationsPass();
/// The outlining step of PartitionGraph: each region becomes a global function with `Compiler`,
/// `Primitive`, `Inline` and `global_symbol`, called in its place.
PassPtr createOutlineRegionsPass(bool bindConstants = true);
/// NameMangleExtFuncs: renames every external function to `tvmgen_<moduleName>_<name>`.
PassPtr createNameMangleExtFuncsPass(std::string moduleName = "default");
/// PruneRegions: inlines back the functions of `target` that call none of its `pruneKeepOps`
/// (when it has more than one).
PassPtr createPruneRegionsPass(std::shared_ptr<const Target> target);
/// PartitionGraph: FlattenNestedTuples, RemoveDefaultAnnotations, the outlining, NameMangleExtFuncs.
PassPtr createPartitionGraphPass(std::string moduleName = "default", bool bindConstants = true);

/// Options of FuseOpsByPattern, named as TVM's.
struct FuseOpsByPatternOptions {
  /// Keep the constants a match reads inside its function; otherwise they become parameters
  /// `param_<k>`, as TVM's backends partition.
  bool bindConstants = true;
  /// Also wrap each composite call for its codegen (no MergeCompositeFunctions needed).
  bool annotateCodegen = false;
  /// Drop a match whose intermediate value is read outside it, the check TVM's backends run on
  /// every pattern (`has_leaking_intermediate_variables`): a kernel has one output.
  bool rejectLeakingIntermediates = false;
};

/// FuseOpsByPattern (Relax): each row of the targets' pattern tables outlines its matches into
/// global `fused_…` functions with `Primitive=1` and `Composite`.
Result<PassPtr> createFuseOpsByPatternPass(const std::vector<std::shared_ptr<const Target>>& targets,
                                           FuseOpsByPatternOptions options = {});
/// MergeCompositeFunctions (Relax): merges calls of composites of one codegen into functions
/// `fused_…_<codegen>` with `Codegen` and `global_symbol`, never creating a cycle. With
/// `liftConstants` (TVM's behaviour), constants the merged calls read become parameters
/// `param_<k>` of the merged function; otherwise they stay inside it, so that its codegen sees
/// the weights when it compiles.
PassPtr createMergeCompositeFunctionsPass(bool liftConstants = true);
/// RunCodegen (Relax): every function with `Codegen` becomes an external function
/// (`Compiler=<codegen>`, `Primitive=1`) named and called by its `global_symbol`; the module
/// attribute `external_mods` lists the symbols.
PassPtr createRunCodegenPass();

/// Registry entries of the passes above and of CanonicalizeOps; target options name built-in
/// targets or target files, comma-separated.
std::vector<PassRegistration> partitionPassRegistrations();

}  // namespace byoc
