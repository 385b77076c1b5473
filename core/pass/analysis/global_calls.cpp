/// \file
/// Global reference analysis.

#include "pass/analysis/global_calls.h"

#include <vector>

#include "ir/traversal.h"

namespace byoc {

std::set<std::string, std::less<>> referencedGlobals(const Function& function) {
  std::set<std::string, std::less<>> names;
  postOrderVisit(function, [&names](const Expr& node) {
    if (const auto* global = node->as<GlobalVarNode>()) names.insert(global->name);
  });
  return names;
}

std::set<std::string, std::less<>> reachableGlobals(const Module& module, const std::set<std::string, std::less<>>& entries) {
  std::set<std::string, std::less<>> reached;
  std::vector<std::string> work(entries.begin(), entries.end());
  while (!work.empty()) {
    std::string name = std::move(work.back());
    work.pop_back();
    Function function = module.find(name);
    if (!function || !reached.insert(name).second) continue;
    for (const std::string& callee : referencedGlobals(function))
      if (!reached.count(callee)) work.push_back(callee);
  }
  return reached;
}

}  // namespace byoc
