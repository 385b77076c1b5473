/// \file
/// Function helpers shared by the passes.

#include "pass/analysis/function_utils.h"

#include <algorithm>

#include "ir/function_attrs.h"
#include "ir/op.h"

namespace byoc {

bool hasNonzeroAttr(const Attrs& attrs, std::string_view name) {
  const AttrValue* value = attrs.find(name);
  if (!value) return false;
  if (value->isBool()) return value->asBool();
  return value->isInt() && value->asInt() != 0;
}

bool isPrimitiveOrExternal(const FunctionNode& function) {
  return hasNonzeroAttr(function.attrs, attr::kPrimitive) || function.attrs.contains(attr::kCompiler);
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

Type outlinedFunctionType(const std::vector<Var>& params, const std::vector<Expr>& results) {
  std::vector<Type> paramTypes, resultTypes;
  for (const Var& param : params) paramTypes.push_back(param->type());
  for (const Expr& result : results) resultTypes.push_back(result->type());
  auto untyped = [](const Type& type) { return !type; };
  if (std::any_of(paramTypes.begin(), paramTypes.end(), untyped) || std::any_of(resultTypes.begin(), resultTypes.end(), untyped))
    return {};
  return funcType(std::move(paramTypes), resultTypes.size() == 1 ? resultTypes[0] : tupleType(std::move(resultTypes)));
}

}  // namespace byoc
