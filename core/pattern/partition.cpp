#include "pattern/partition.h"

#include "pattern/grouper.h"

namespace byoc {

Result<Expr> partition(const Pattern& pattern, const Expr& expr, const Attrs& attrs, const PartitionCheck& check) {
  return partition(pattern, std::make_shared<const IndexedGraph>(expr), attrs, check);
}

Result<Expr> partition(const Pattern& pattern, const std::shared_ptr<const IndexedGraph>& graph, const Attrs& attrs,
                       const PartitionCheck& check) {
  if (pattern->kind() == PatternKind::Function)
    return makeError("partition: a function pattern cannot be partitioned (there is no call to replace)");
  Grouping grouping = groupMatches(pattern, graph);
  if (grouping.groups.empty()) return graph->node(graph->size() - 1);
  Attrs functionAttrs{{"PartitionedFromPattern", std::string()}};
  for (const auto& [key, value] : attrs.entries()) functionAttrs.set(key, value);
  auto outline = [&](const PatternGroup& group, const Expr&, const std::vector<Expr>& rebuilt) -> Expr {
    functionAttrs.set("PartitionedFromPattern", group.name);
    Function outlined = FunctionNode::make(group.params, group.body, {}, functionAttrs, group.origin);
    std::vector<Expr> args;
    args.reserve(group.argIndices.size());
    for (int arg : group.argIndices) args.push_back(rebuilt[arg]);
    return CallNode::make(outlined, std::move(args), {}, group.origin);
  };
  auto accepted = [&](const PatternGroup& group) { return !check || check(group.root); };
  return rebuildGroups(grouping, outline, accepted);
}

}  // namespace byoc
