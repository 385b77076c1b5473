#include "pattern/partition.h"

#include "ir/traversal.h"
#include "pattern/grouper.h"

namespace byoc {

namespace {

/// Rebuilds the expression, replacing each accepted group root by a call of its function.
class Partitioner final : public ExprMutator {
 public:
  Partitioner(const Grouping& grouping, const Attrs& attrs, const PartitionCheck& check)
      : grouping_(grouping), attrs_(attrs), check_(check) {}

 protected:
  Expr rewrite(const Expr& pre, const Expr& post) override {
    const PatternGroup* group = grouping_.rootedAt(pre);
    if (!group || (check_ && !check_(pre))) return post;
    Attrs attrs{{"PartitionedFromPattern", group->name}};
    for (const auto& [key, value] : attrs_.entries()) attrs.set(key, value);
    const FunctionNode& function = *group->function;
    Function outlined = FunctionNode::make(function.params, function.body, {}, std::move(attrs), function.origin());
    std::vector<Expr> args;
    args.reserve(group->args.size());
    for (const Expr& arg : group->args) args.push_back(rewritten(arg));
    return CallNode::make(outlined, std::move(args), {}, function.origin());
  }

 private:
  const Grouping& grouping_;
  const Attrs& attrs_;
  const PartitionCheck& check_;
};

}  // namespace

Result<Expr> partition(const Pattern& pattern, const Expr& expr, const Attrs& attrs, const PartitionCheck& check) {
  if (pattern->kind() == PatternKind::Function)
    return makeError("partition: a function pattern cannot be partitioned (there is no call to replace)");
  Grouping grouping = groupMatches(pattern, expr);
  Partitioner partitioner(grouping, attrs, check);
  return partitioner.mutate(expr);
}

}  // namespace byoc
