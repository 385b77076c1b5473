/// \file
/// NameMangleExtFuncs (last step of PartitionGraph): every function with a `Compiler` attribute is
/// renamed `tvmgen_<module>_<name>` (just `tvmgen_<name>` for an empty module name), with every
/// character that is not a letter or digit turned into `_`; `global_symbol` follows, and every
/// call site is updated. The `Compiler` attribute keeps the raw target name.

#include <cctype>

#include "pass/analysis/global_calls.h"
#include "ir/function_attrs.h"
#include "pass/infer_type.h"
#include "pass/partition/partition_passes.h"

namespace byoc {

namespace name_mangle_ext_funcs {

std::string sanitize(std::string name) {
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

Result<PassResult> mangle(const Module& module, const std::string& moduleName) {
  std::string prefix = moduleName.empty() ? "tvmgen" : "tvmgen_" + moduleName;
  GlobalRenames renames;
  for (const auto& [name, function] : module.functions())
    if (function->attrs.contains(attr::kCompiler)) renames.emplace(name, sanitize(prefix + "_" + name));
  if (renames.empty()) return PassResult{module, false};

  Module result;
  result.setAttrs(module.attrs());
  result.setProvenance(module.provenance());
  for (const auto& [name, function] : module.functions()) {
    auto renamed = renames.find(name);
    Function body = renameGlobalReferences(function, renames);
    if (renamed == renames.end()) {
      result.set(name, body);
      continue;
    }
    Attrs attrs = body->attrs;
    attrs.set(attr::kGlobalSymbol, renamed->second);
    result.set(renamed->second, FunctionNode::make(body->params, body->body, body->retType, std::move(attrs), body->origin()));
  }
  BYOC_ASSIGN_OR_RETURN(Module typed, inferTypes(result, TypeReuse::KeepTypedSubgraphs));
  return PassResult{std::move(typed), true};
}

}  // namespace name_mangle_ext_funcs

PassPtr createNameMangleExtFuncsPass(std::string moduleName) {
  PassInfo info;
  info.name = "NameMangleExtFuncs";
  info.summary = "renames external functions to tvmgen_<module>_<name> and sets their global_symbol";
  info.description = "Last step of PartitionGraph: every function with Compiler is renamed tvmgen_<mod_name>_<name> "
                     "with non-alphanumeric characters turned into _, its global_symbol follows and call sites are updated.";
  info.options = {{"mod_name", AttrValue("default"), "the module name in tvmgen_<mod_name>_…"}};
  return makeModulePass(std::move(info), [moduleName = std::move(moduleName)](const Module& module, PassContext&) {
    return name_mangle_ext_funcs::mangle(module, moduleName);
  });
}

PassPtr createPartitionGraphPass(std::string moduleName, bool bindConstants) {
  return makeSequential({createFlattenNestedTuplesPass(), createRemoveDefaultAnnotationsPass(),
                         createOutlineRegionsPass(bindConstants), createNameMangleExtFuncsPass(std::move(moduleName))},
                        "PartitionGraph");
}

}  // namespace byoc
