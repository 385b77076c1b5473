/// \file
/// FlattenNestedTuples (first step of PartitionGraph): `compiler_end(Tuple(f1, …, fn), t)` becomes
/// `Tuple(compiler_end(f1, t), …, compiler_end(fn, t))`, one level deep, so that each field is a
/// separate output of its region and a region never returns a tuple of tuples.

#include "ir/traversal.h"
#include "pass/partition/annotations.h"
#include "pass/partition/partition_passes.h"

namespace byoc {

namespace flatten_nested_tuples {

class EndsOnFields final : public ExprMutator {
 protected:
  Expr rewrite(const Expr& pre, const Expr& post) override {
    if (!partitioning::isCompilerEnd(pre)) return post;
    const Expr& value = post->as<CallNode>()->args[0];
    const auto* tuple = value->as<TupleNode>();
    if (!tuple) return post;
    const std::string& target = partitioning::annotationTarget(pre);
    std::vector<Expr> fields;
    fields.reserve(tuple->fields.size());
    for (const Expr& field : tuple->fields) fields.push_back(partitioning::makeCompilerEnd(field, target));
    return TupleNode::make(std::move(fields), value->origin());
  }
  bool shouldDescend(const Expr& node) override {
    return node->reaches(ExprKind::Tuple) && partitioning::mayHoldAnnotations(*node);
  }
};

}  // namespace flatten_nested_tuples

PassPtr createFlattenNestedTuplesPass() {
  PassInfo info;
  info.name = "FlattenNestedTuples";
  info.summary = "moves a compiler_end on a tuple onto each of its fields";
  info.description = "First step of PartitionGraph: compiler_end(Tuple(f1, …, fn), t) becomes "
                     "Tuple(compiler_end(f1, t), …), one level deep, so a region never returns a tuple of tuples.";
  return makeFunctionPass(std::move(info), [](const Function& function, const Module&, PassContext&) {
    flatten_nested_tuples::EndsOnFields mutator;
    return Result<Function>(downcast<FunctionNode>(mutator.mutate(function)));
  });
}

}  // namespace byoc
