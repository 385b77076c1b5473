#include "pass/analysis/composite_grouping.h"

#include <algorithm>
#include <iterator>

#include "pass/analysis/merge_barriers.h"
#include "pass/pass.h"

namespace byoc {

Result<std::vector<int>> groupCompositeCalls(std::span<const std::vector<int>> operands, std::span<const std::string> codegens,
                                             const PassContext* context) {
  const std::size_t count = operands.size();
  auto joins = [&](std::size_t consumer, int operand) {  // whether `consumer` may join `operand`'s group
    return !codegens[consumer].empty() && codegens[operand] == codegens[consumer];
  };
  std::vector<int> readers(count, 0), askers(count, 0);
  for (std::size_t i = 0; i < count; ++i) {
    for (int operand : operands[i]) {
      ++readers[operand];
      if (joins(i, operand)) ++askers[operand];
    }
  }
  MergeBarriers groups;
  std::vector<int> groupOf(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (context) BYOC_TRY(context->checkCancelled());
    std::vector<int> operandGroups;
    for (int operand : operands[i]) operandGroups.push_back(groups.find(groupOf[operand]));
    const std::vector<int> reached = groups.unite(operandGroups);  // what the operands' groups depend on
    int group = -1;
    for (int operand : operands[i]) {
      const int g = groups.find(groupOf[operand]);
      if (!joins(i, operand) || MergeBarriers::contains(reached, g)) continue;
      if (group < 0) group = g;
      else groups.merge(g, group);
    }
    if (group < 0) group = groups.add();
    groupOf[i] = group;
    group = groups.find(group);
    // The group now also depends on the operands' groups and on what they depend on.
    for (int& g : operandGroups) g = groups.find(g);
    std::sort(operandGroups.begin(), operandGroups.end());
    std::vector<int> deps;
    std::set_union(reached.begin(), reached.end(), operandGroups.begin(), operandGroups.end(), std::back_inserter(deps));
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    deps.erase(std::remove(deps.begin(), deps.end(), group), deps.end());
    groups.addBarriers(group, deps);
    groups.expectConsumers(group, readers[i], askers[i]);
    groups.close(group);
    for (int operand : operands[i]) groups.consumed(groupOf[operand], joins(i, operand));
  }
  for (int& group : groupOf) group = groups.find(group);
  return groupOf;
}

}  // namespace byoc
