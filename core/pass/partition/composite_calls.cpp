#include "pass/partition/composite_calls.h"

#include "ir/function_attrs.h"
#include "pass/analysis/global_calls.h"

namespace byoc {

Result<std::string> codegenOfComposite(const std::string& composite) {
  std::size_t dot = composite.find('.');
  if (dot == std::string::npos)
    return makeError("composite '" + composite + "' names no codegen: expected <codegen>.<name>");
  return composite.substr(0, dot);
}

Function localCompositeCopy(const Function& composite) {
  return FunctionNode::make(composite->params, composite->body, composite->retType, composite->attrs.without(attr::kPrimitive),
                            composite->origin());
}

Result<Module> wrapCompositesForCodegen(const Module& module) {
  GlobalRenames wrapperOf;
  std::vector<std::pair<std::string, Function>> wrappers;
  for (const auto& [name, function] : module.functions()) {
    const AttrValue* composite = function->attrs.find(attr::kComposite);
    if (!composite || !composite->isString()) continue;
    BYOC_ASSIGN_OR_RETURN(std::string codegen, codegenOfComposite(composite->asString()));
    std::string wrapperName = name + "_" + codegen;
    std::vector<Var> params;
    std::vector<Expr> args;
    for (const Var& param : function->params) {
      params.push_back(VarNode::make(param->name, param->annotation, param->origin()));
      args.push_back(params.back());
    }
    Expr body = CallNode::make(localCompositeCopy(function), std::move(args), {}, function->origin());
    wrappers.emplace_back(wrapperName, FunctionNode::make(std::move(params), body, function->retType,
                                                          Attrs{{attr::kCodegen, codegen}, {attr::kGlobalSymbol, wrapperName}},
                                                          function->origin()));
    wrapperOf.emplace(name, wrapperName);
  }
  Module result;
  result.setAttrs(module.attrs());
  result.setProvenance(module.provenance());
  for (const auto& [name, function] : module.functions())
    if (!wrapperOf.count(name)) result.set(name, renameGlobalReferences(function, wrapperOf));
  for (auto& [name, wrapper] : wrappers) result.set(name, wrapper);
  return result;
}

}  // namespace byoc
