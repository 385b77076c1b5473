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
  Result<Expr> rewriteCall(const Call& pre, const Call& post) override {
    if (!partitioning::isCompilerEnd(pre)) return Expr(post);
    const Expr& value = post->args[0];
    const auto* tuple = value->as<TupleNode>();
    if (!tuple) return Expr(post);
    const std::string& target = partitioning::annotationTarget(pre);
    std::vector<Expr> fields;
    fields.reserve(tuple->fields.size());
    for (const Expr& field : tuple->fields) fields.push_back(partitioning::makeCompilerEnd(field, target));
    return Expr(TupleNode::make(std::move(fields), value->origin()));
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
  return makeFunctionPass(std::move(info), [](const Function& function, const Module&, PassContext&) -> Result<Function> {
    flatten_nested_tuples::EndsOnFields mutator;
    BYOC_ASSIGN_OR_RETURN(Expr flattened, mutator.mutate(function));
    return Result<Function>(downcast<FunctionNode>(flattened));
  });
}

}  // namespace byoc
