/// \file
/// Function helpers shared by the passes.

#include "pass/analysis/function_utils.h"

#include <algorithm>

#include "ir/op.h"

namespace byoc {

bool hasNonzeroAttr(const Attrs& attrs, std::string_view name) {
  const AttrValue* value = attrs.find(name);
  if (!value) return false;
  if (value->isBool()) return value->asBool();
  return value->isInt() && value->asInt() != 0;
}

bool isPrimitiveOrExternal(const FunctionNode& function) {
  return hasNonzeroAttr(function.attrs, "Primitive") || function.attrs.contains("Compiler");
}

bool callsAnyOf(const Function& function, const std::vector<std::string>& ops) {
  bool found = false;
  postOrderVisit(function, [&](const Expr& node) {
    const auto* call = node->as<CallNode>();
    if (!found && call && call->opDef() && std::find(ops.begin(), ops.end(), call->opDef()->name) != ops.end()) found = true;
  });
  return found;
}

Function withBody(const Function& function, const Expr& body) {
  if (body == function->body) return function;
  return FunctionNode::make(function->params, body, function->retType, function->attrs, function->origin());
}

bool OpaqueFunctionSkippingMutator::shouldDescend(const Expr& node) {
  const auto* function = node->as<FunctionNode>();
  return !function || !isPrimitiveOrExternal(*function);
}

}  // namespace byoc
