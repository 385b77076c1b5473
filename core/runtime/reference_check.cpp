#include "runtime/reference_check.h"

#include <algorithm>

namespace byoc {

std::string targetCodegen(const Target& target) { return target.codegen.empty() ? "reference" : target.codegen; }

void addTargetCodegens(const std::vector<std::shared_ptr<const Target>>& targets, ExecutorOptions& options) {
  for (const auto& target : targets) options.codegens[target->name] = targetCodegen(*target);
}

Result<std::vector<NDArray>> runOnReference(const Module& reference, std::span<const Value> args,
                                            const std::atomic<bool>* cancel) {
  ExecutorOptions options;
  options.cancel = cancel;
  for (const auto& [name, function] : reference.functions()) {
    for (const char* attr : {"Compiler", "Codegen"})
      if (const AttrValue* compiler = function->attrs.find(attr); compiler && compiler->isString())
        options.codegens[compiler->asString()] = "reference";
  }
  BYOC_ASSIGN_OR_RETURN(std::unique_ptr<Executor> executor, Executor::create(reference, options));
  BYOC_ASSIGN_OR_RETURN(Value expected, executor->run(args));
  std::vector<NDArray> outputs;
  if (!expected.flattenInto(outputs)) return makeError("@main returned a function, not tensors");
  return outputs;
}

bool ReferenceComparison::agree() const {
  return sameCount && std::all_of(outputs.begin(), outputs.end(), [](const Difference& each) { return each.within; });
}

ReferenceComparison compareWithReference(const std::vector<NDArray>& actual, const std::vector<NDArray>& expected) {
  ReferenceComparison comparison;
  comparison.sameCount = actual.size() == expected.size();
  for (std::size_t i = 0; i < actual.size() && i < expected.size(); ++i)
    comparison.outputs.push_back(compareArrays(actual[i], expected[i], kReferenceTolerance, kReferenceTolerance));
  return comparison;
}

}  // namespace byoc
