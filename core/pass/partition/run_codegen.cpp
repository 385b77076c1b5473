/// \file
/// RunCodegen: the Relax flow's last step (spec §7.3), in the form this project's runtime runs.
///
/// Input: a module whose functions with `Codegen=<name>` (from MergeCompositeFunctions, or the
/// wrappers of FuseOpsByPattern's `annotate_codegen`) are to be compiled externally. Output: each
/// becomes an external function like PartitionGraph's: renamed to its `global_symbol`, attributes
/// `Compiler=<name>`, `Primitive=1` and `global_symbol`, and every call site calls it by that name.
/// The module attribute `external_mods` lists the symbols; codegens compile those functions when
/// the module is loaded for execution.

#include <unordered_map>

#include "ir/ops/op_helpers.h"
#include "ir/function_attrs.h"
#include "pass/analysis/global_calls.h"
#include "pass/infer_type.h"
#include "pass/partition/partition_passes.h"

namespace byoc {

namespace run_codegen {

Result<PassResult> runCodegen(const Module& module) {
  GlobalRenames symbolOf;
  AttrValue::List symbols;
  for (const auto& [name, function] : module.functions()) {
    const AttrValue* codegen = function->attrs.find(attr::kCodegen);
    if (!codegen || !codegen->isString()) continue;
    const AttrValue* symbol = function->attrs.find(attr::kGlobalSymbol);
    std::string external = symbol && symbol->isString() ? symbol->asString() : name;
    symbolOf.emplace(name, external);
    symbols.emplace_back(external);
  }
  if (symbolOf.empty()) return PassResult{module, false};
  Module result;
  result.setProvenance(module.provenance());
  Attrs attrs = module.attrs();
  attrs.set("external_mods", AttrValue(symbols));
  result.setAttrs(std::move(attrs));
  for (const auto& [name, function] : module.functions()) {
    Function renamed = renameGlobalReferences(function, symbolOf);
    auto external = symbolOf.find(name);
    if (external == symbolOf.end()) {
      result.set(name, renamed);
      continue;
    }
    Attrs functionAttrs{{attr::kCompiler, ops::stringAttr(function->attrs, attr::kCodegen)}, {attr::kPrimitive, 1},
                        {attr::kGlobalSymbol, external->second}};
    result.set(external->second, FunctionNode::make(renamed->params, renamed->body, renamed->retType,
                                                    std::move(functionAttrs), renamed->origin()));
  }
  BYOC_ASSIGN_OR_RETURN(Module typed, inferTypes(result, TypeReuse::KeepTypedSubgraphs));
  return PassResult{std::move(typed), true};
}

}  // namespace run_codegen

PassPtr createRunCodegenPass() {
  PassInfo info;
  info.name = "RunCodegen";
  info.summary = "turns functions with Codegen into external functions called by their global symbol (Relax)";
  info.description = "Input: a module with Codegen functions. Each becomes an external function named by its "
                     "global_symbol with Compiler=<codegen> and Primitive=1; call sites follow; the module attribute "
                     "external_mods lists the symbols.";
  return makeModulePass(std::move(info), [](const Module& module, PassContext&) { return run_codegen::runCodegen(module); });
}

}  // namespace byoc
