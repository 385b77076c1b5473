#include "pass/analysis/placement.h"

#include <algorithm>
#include <unordered_map>

#include "ir/function_attrs.h"
#include "ir/op.h"
#include "ir/traversal.h"

namespace byoc {

namespace {

std::string stringAttr(const Attrs& attrs, std::string_view name) {
  const AttrValue* value = attrs.find(name);
  return value && value->isString() ? value->asString() : std::string();
}

/// The composites around the op calls of one global function.
class CompositeScopes {
 public:
  /// Records the op calls of `literal`'s body that no inner composite claimed.
  void enter(const FunctionNode& literal, std::size_t instance) {
    const std::string name = compositeName(literal);
    postOrderVisit(literal.body, [&](const Expr& node) {
      if (node->as<CallNode>()) scopes_.try_emplace(node.get(), Scope{name, instance});
    });
  }
  /// The innermost composite around `call`, if any.
  std::pair<std::string, std::size_t> of(const ExprNode* call) const {
    auto scope = scopes_.find(call);
    return scope == scopes_.end() ? std::pair<std::string, std::size_t>{} : std::pair{scope->second.name, scope->second.instance};
  }

 private:
  struct Scope {
    std::string name;
    std::size_t instance;
  };
  std::unordered_map<const ExprNode*, Scope> scopes_;
};

}  // namespace

PlacementMap placeOpCalls(const Module& module) {
  PlacementMap placements;
  std::unordered_map<const ExprNode*, std::size_t> instances;  // composite literal → its number
  for (const Module::Entry& entry : module.functions()) {
    const std::string& name = entry.first;
    const Function& function = entry.second;
    const std::string compiler = stringAttr(function->attrs, attr::kCompiler);
    CompositeScopes scopes;
    // Post-order meets an inner composite literal before the one around it, so inner ones claim
    // their calls first.
    postOrderVisit(function->body, [&](const Expr& node) {
      const auto* literal = node->as<FunctionNode>();
      if (!literal || !literal->attrs.contains(attr::kComposite)) return;
      auto [slot, added] = instances.try_emplace(node.get(), instances.size() + 1);
      scopes.enter(*literal, slot->second);
    });
    postOrderVisit(function->body, [&](const Expr& node) {
      const auto* call = node->as<CallNode>();
      if (!call || !call->opDef()) return;
      auto [composite, instance] = scopes.of(node.get());
      const Placement placement{name, compiler, composite, instance};
      for (NodeId id : node->origin().ids()) {
        std::vector<Placement>& pieces = placements[id];
        if (std::find(pieces.begin(), pieces.end(), placement) == pieces.end()) pieces.push_back(placement);
      }
    });
  }
  return placements;
}

std::map<NodeId, std::string> loadedOpCalls(const Module& loaded) {
  std::map<NodeId, std::string> calls;
  postOrderVisit(loaded, [&](const Expr& node) {
    const auto* call = node->as<CallNode>();
    if (!call || !call->opDef()) return;
    for (NodeId id : node->origin().ids()) calls.try_emplace(id, call->opDef()->name);
  });
  return calls;
}

}  // namespace byoc
