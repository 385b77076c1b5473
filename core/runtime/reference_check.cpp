#include "runtime/reference_check.h"

#include <algorithm>

#include "ir/function_attrs.h"

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
    if (std::string compiler = regionCompiler(*function); !compiler.empty()) options.codegens[compiler] = "reference";
  }
  BYOC_ASSIGN_OR_RETURN(std::unique_ptr<Executor> executor, Executor::create(reference, options));
  BYOC_ASSIGN_OR_RETURN(Value expected, executor->run(args));
  std::vector<NDArray> outputs;
  if (!expected.flattenInto(outputs)) return makeError("@main returned a function, not tensors");
  return outputs;
}

Result<std::unique_ptr<RegionCheck>> RegionCheck::attach(Executor& executor) {
  std::unique_ptr<RegionCheck> check(new RegionCheck(executor));
  const Codegen reference = referenceCodegen();
  for (std::size_t i = 0; i < executor.regions().size(); ++i) {
    const RegionInfo& region = executor.regions()[i];
    Result<std::unique_ptr<RuntimeModule>> built =
        reference.build(executor.regionFunction(i), region.symbol, CodegenOptions{1, &executor.module()});
    if (!built) return makeError(region.label() + " on the reference codegen: " + built.error().message);
    check->references_.push_back(std::move(built).value());
    check->regions_.push_back({region.label(), 0, {}, false});
  }
  executor.setRegionObserver([self = check.get()](std::size_t region, std::span<const NDArray> inputs,
                                                  std::span<const NDArray> outputs) {
    return self->observe(region, inputs, outputs);
  });
  return check;
}

RegionCheck::~RegionCheck() { executor_.setRegionObserver({}); }

Status RegionCheck::observe(std::size_t region, std::span<const NDArray> inputs, std::span<const NDArray> outputs) {
  std::vector<NDArray> expected;
  for (const NDArray& output : outputs) expected.push_back(NDArray::empty(output.dtype(), output.shape()));
  BYOC_TRY(references_[region]->run(executor_.regions()[region].symbol, inputs, expected));
  RegionAgreement& agreement = regions_[region];
  ++agreement.calls;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const bool quantized = outputs[i].dtype() == DType::Int8 || outputs[i].dtype() == DType::UInt8;
    const Difference difference = quantized ? compareArrays(outputs[i], expected[i], 2, 0)
                                          : compareArrays(outputs[i], expected[i], kReferenceTolerance, kReferenceTolerance);
    agreement.quantized = agreement.quantized || quantized;
    agreement.worst.maxAbsolute = std::max(agreement.worst.maxAbsolute, difference.maxAbsolute);
    agreement.worst.maxRelative = std::max(agreement.worst.maxRelative, difference.maxRelative);
    agreement.worst.within = agreement.worst.within && difference.within;
  }
  return Status::ok();
}

Result<std::vector<RegionAgreement>> checkRegions(const Module& partitioned, const ExecutorOptions& options,
                                                  std::span<const Value> args) {
  BYOC_ASSIGN_OR_RETURN(std::unique_ptr<Executor> executor, Executor::create(partitioned, options));
  BYOC_ASSIGN_OR_RETURN(std::unique_ptr<RegionCheck> check, RegionCheck::attach(*executor));
  BYOC_TRY(executor->run(args).status());
  return check->regions();
}

bool ReferenceComparison::quantized() const {
  return std::any_of(regions.begin(), regions.end(), [](const RegionAgreement& region) { return region.quantized; });
}

bool ReferenceComparison::agree() const {
  const auto within = [](const auto& each) { return each.within; };
  const bool regionsAgree = std::all_of(regions.begin(), regions.end(),
                                        [](const RegionAgreement& region) { return region.worst.within; });
  return sameCount && regionsAgree && (quantized() || std::all_of(outputs.begin(), outputs.end(), within));
}

ReferenceComparison compareWithReference(const std::vector<NDArray>& actual, const std::vector<NDArray>& expected) {
  ReferenceComparison comparison;
  comparison.sameCount = actual.size() == expected.size();
  for (std::size_t i = 0; i < actual.size() && i < expected.size(); ++i)
    comparison.outputs.push_back(compareArrays(actual[i], expected[i], kReferenceTolerance, kReferenceTolerance));
  return comparison;
}

}  // namespace byoc
