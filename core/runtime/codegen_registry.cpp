/// \file
/// The table of built-in codegens.

#include <map>

#include "runtime/runtime_module.h"

namespace byoc {

namespace {

const std::map<std::string, Codegen, std::less<>>& table() {
  static const std::map<std::string, Codegen, std::less<>> codegens = [] {
    std::map<std::string, Codegen, std::less<>> map;
    for (Codegen codegen : {referenceCodegen(), dnnlCodegen()}) map.emplace(codegen.name, std::move(codegen));
    return map;
  }();
  return codegens;
}

}  // namespace

const Codegen* findCodegen(std::string_view name) {
  auto found = table().find(name);
  return found == table().end() ? nullptr : &found->second;
}

std::vector<std::string> codegenNames() {
  std::vector<std::string> names;
  for (const auto& entry : table()) names.push_back(entry.first);
  return names;
}

}  // namespace byoc
