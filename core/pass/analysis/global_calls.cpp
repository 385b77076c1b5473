/// \file
/// Global reference analysis.

#include "pass/analysis/global_calls.h"

#include <vector>

#include "ir/traversal.h"

namespace byoc {

std::set<std::string, std::less<>> referencedGlobals(const Function& function) {
  std::set<std::string, std::less<>> names;
  auto visit = [&names](const Expr& node) {
    if (const auto* global = node->as<GlobalVarNode>()) names.insert(global->name);
  };
  postOrderVisit(function, visit, [](const Expr& node) { return node->refersToGlobal(); });
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

namespace {

class GlobalRenamer final : public ExprMutator {
 public:
  explicit GlobalRenamer(const GlobalRenames& renames) : renames_(renames) {}

 protected:
  Result<Expr> rewriteGlobalVar(const GlobalVar& global) override {
    auto renamed = renames_.find(global->name);
    return renamed == renames_.end() ? Expr(global) : Expr(GlobalVarNode::make(renamed->second, global->origin(), global->type()));
  }
  /// What refers to no global stays as it is.
  bool shouldDescend(const Expr& node) override { return node->refersToGlobal(); }

 private:
  const GlobalRenames& renames_;
};

}  // namespace

Function renameGlobalReferences(const Function& function, const GlobalRenames& renames) {
  if (renames.empty()) return function;
  GlobalRenamer renamer(renames);
  return downcast<FunctionNode>(renamer.mutate(function).value());  // its hook cannot fail
}

}  // namespace byoc
