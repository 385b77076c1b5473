/// \file
/// Inline (contract in the header).

#include "pass/transforms/inline.h"

#include <unordered_map>

#include "ir/function_attrs.h"
#include "pass/analysis/function_utils.h"
#include "pass/analysis/global_calls.h"
#include "pass/infer_type.h"

namespace byoc {

namespace inline_functions {

/// The functions that may be inlined: marked, not reaching themselves.
std::unordered_map<std::string, Function> inlinable(const Module& module) {
  std::unordered_map<std::string, Function> result;
  for (const auto& [name, function] : module.functions()) {
    if (!hasNonzeroAttr(function->attrs, attr::kInline)) continue;
    bool recursive = false;
    for (const std::string& callee : referencedGlobals(function))
      recursive = recursive || reachableGlobals(module, {callee}).count(name);
    if (!recursive) result.emplace(name, function);
  }
  return result;
}

/// Replaces the parameters of an inlined function by the call's arguments.
class Binder final : public ExprMutator {
 public:
  explicit Binder(std::unordered_map<const ExprNode*, Expr> values) : values_(std::move(values)) {}

 protected:
  Result<Expr> rewriteVar(const Var& var) override {
    auto it = values_.find(var.get());
    return it == values_.end() ? Expr(var) : it->second;
  }

 private:
  std::unordered_map<const ExprNode*, Expr> values_;
};

/// Whether `function` is for an external codegen (a `Compiler` other than "default").
bool isExternal(const FunctionNode& function) {
  const AttrValue* compiler = function.attrs.find(attr::kCompiler);
  return compiler && !(compiler->isString() && compiler->asString() == "default");
}

/// Replaces each call of an inlinable global by the bound body, or, for an external function, by
/// a call of the function itself as a literal (one level per sweep).
class Inliner final : public ExprMutator {
 public:
  explicit Inliner(const std::unordered_map<std::string, Function>& functions) : functions_(functions) {}

 protected:
  Result<Expr> rewriteCall(const Call& /*pre*/, const Call& call) override {
    const auto* global = call->callee->as<GlobalVarNode>();
    if (!global) return Expr(call);
    auto it = functions_.find(global->name);
    if (it == functions_.end() || it->second->params.size() != call->args.size()) return Expr(call);
    if (isExternal(*it->second)) return Expr(CallNode::make(it->second, call->args, call->attrs, call->origin()));
    std::unordered_map<const ExprNode*, Expr> values;
    for (std::size_t i = 0; i < call->args.size(); ++i) values.emplace(it->second->params[i].get(), call->args[i]);
    return Binder(std::move(values)).mutate(it->second->body);
  }

 private:
  const std::unordered_map<std::string, Function>& functions_;
};

}  // namespace inline_functions

Module inlineFunctions(const Module& module) {
  std::unordered_map<std::string, Function> functions = inline_functions::inlinable(module);
  if (functions.empty()) return module;
  Module result = module;
  for (const auto& [name, function] : module.functions()) {
    Function current = function;
    while (true) {  // ends: inlinable functions do not reach themselves
      inline_functions::Inliner inliner(functions);
      Function next = withBody(current, inliner.mutate(current->body).value());  // its hooks cannot fail
      if (next == current) break;
      current = next;
    }
    if (current != function) result.set(name, current);
  }
  std::set<std::string, std::less<>> referenced;
  for (const auto& [name, function] : result.functions())
    for (const std::string& callee : referencedGlobals(function))
      if (callee != name) referenced.insert(callee);
  for (const auto& [name, function] : functions)
    if (!referenced.count(name)) result.erase(name);
  return result;
}

namespace {

PassInfo inlineInfo() {
  return {"Inline", "inlines global functions marked Inline=1", 1, {},
          "Replaces each call of a global function with Inline=1 (not recursive) by its body with the parameters "
          "bound to the arguments, or, for an external function (Compiler), by a call of the function as a literal "
          "keeping its attributes; then removes the inlined functions nothing refers to. "
          "InferType runs after it.",
          {}};
}

}  // namespace

PassPtr createInlinePass() {
  return makeModulePass(inlineInfo(), [](const Module& module, PassContext& context) -> Result<PassResult> {
    Module inlined = inlineFunctions(module);
    if (inlined.sameNodes(module)) return PassResult{module, false};
    BYOC_ASSIGN_OR_RETURN(PassResult typed, (*createInferTypePass(TypeReuse::KeepTypedSubgraphs))(inlined, context));
    return PassResult{std::move(typed.module), true};
  });
}

PassRegistration inlineRegistration() {
  return {inlineInfo(), [](const Attrs&) { return Result<PassPtr>(createInlinePass()); }};
}

}  // namespace byoc
