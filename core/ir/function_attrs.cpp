#include "ir/function_attrs.h"

namespace byoc {

std::string stringAttrOf(const FunctionNode& function, const char* name) {
  const AttrValue* value = function.attrs.find(name);
  return value && value->isString() ? value->asString() : std::string();
}

std::string regionCompiler(const FunctionNode& function) {
  std::string compiler = stringAttrOf(function, attr::kCompiler);
  return compiler.empty() ? stringAttrOf(function, attr::kCodegen) : compiler;
}

}  // namespace byoc
