#include "pattern/partition.h"

#include "ir/function_attrs.h"
#include "pattern/grouper.h"

namespace byoc {

Result<Expr> partition(const Pattern& pattern, const Expr& expr, const Attrs& attrs, const PartitionCheck& check) {
  return partition(pattern, std::make_shared<const IndexedGraph>(expr), attrs, check);
}

Result<Expr> partition(const Pattern& pattern, const std::shared_ptr<const IndexedGraph>& graph, const Attrs& attrs,
                       const PartitionCheck& check, ReturnTypes returnTypes) {
  if (pattern->kind() == PatternKind::Function)
    return makeError("partition: a function pattern cannot be partitioned (there is no call to replace)");
  Grouping grouping = groupMatches(pattern, graph);
  if (grouping.groups.empty()) return graph->node(graph->size() - 1);
  Attrs functionAttrs{{attr::kPartitionedFromPattern, std::string()}};
  for (const auto& [key, value] : attrs.entries()) functionAttrs.set(key, value);
  auto outline = [&](const PatternGroup& group, const Expr&, const std::vector<Expr>& rebuilt) -> Result<Expr> {
    functionAttrs.set(attr::kPartitionedFromPattern, group.name);
    std::vector<Expr> args;
    args.reserve(group.argIndices.size());
    for (int arg : group.argIndices) args.push_back(rebuilt[arg]);
    const Type& bodyType = group.body->type();
    bool typed = static_cast<bool>(bodyType);
    std::vector<Type> paramTypes;
    for (std::size_t i = 0; i < args.size() && typed; ++i) {
      typed = group.params[i]->type() && args[i]->type();
      paramTypes.push_back(group.params[i]->type());
    }
    if (!typed) {
      Function outlined = FunctionNode::make(group.params, group.body, {}, functionAttrs, group.origin);
      return Expr(CallNode::make(outlined, std::move(args), {}, group.origin));
    }
    const Type retType = returnTypes == ReturnTypes::Recorded ? bodyType : Type();
    Function outlined = FunctionNode::make(group.params, group.body, retType, functionAttrs, group.origin,
                                           funcType(std::move(paramTypes), bodyType));
    return Expr(CallNode::make(outlined, std::move(args), {}, group.origin, bodyType));
  };
  auto accepted = [&](const PatternGroup& group) -> Result<bool> {
    if (!check) return true;
    return check(group.root);
  };
  return rebuildGroups(grouping, outline, accepted);
}

}  // namespace byoc
