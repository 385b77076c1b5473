/// \file
/// RemoveDefaultAnnotations (second step of PartitionGraph): every `compiler_begin` and
/// `compiler_end` of the "default" target is replaced by its argument, so code no target claimed
/// stays in the host function and its annotations use up no region ids.

#include "ir/traversal.h"
#include "pass/partition/annotations.h"
#include "pass/partition/partition_passes.h"

namespace byoc {

namespace remove_default_annotations {

class DefaultAnnotationRemover final : public ExprMutator {
 protected:
  /// A default annotation stands for the value it wraps.
  const ExprNode* aliasOf(const ExprNode& node) override {
    const Expr expr(&node);
    bool annotation = partitioning::isCompilerBegin(expr) || partitioning::isCompilerEnd(expr);
    if (!annotation || partitioning::annotationTarget(expr) != partitioning::kDefaultTarget) return nullptr;
    return node.as<CallNode>()->args[0].get();
  }
  bool shouldDescend(const Expr& node) override { return partitioning::mayHoldAnnotations(*node); }
};

}  // namespace remove_default_annotations

PassPtr createRemoveDefaultAnnotationsPass() {
  PassInfo info;
  info.name = "RemoveDefaultAnnotations";
  info.summary = "drops the compiler_begin/compiler_end annotations of the \"default\" target";
  info.description = "Second step of PartitionGraph: code no target claimed stays in the host function, and its "
                     "annotations use up no region ids.";
  return makeFunctionPass(std::move(info), [](const Function& function, const Module&, PassContext&) -> Result<Function> {
    remove_default_annotations::DefaultAnnotationRemover mutator;
    BYOC_ASSIGN_OR_RETURN(Expr removed, mutator.mutate(function));
    return Result<Function>(downcast<FunctionNode>(removed));
  });
}

}  // namespace byoc
