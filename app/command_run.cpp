/// \file
/// `byoc run`: load, partition for the `--target`s if any, build the executor (regions compiled by
/// their codegens), bind inputs, run, report. Without targets the model runs as loaded (already
/// partitioned, or entirely on the reference kernels); an export directory runs with the codegens it records.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

#include "commands.h"
#include "export/export_reader.h"
#include "ir/ops/op_helpers.h"
#include "model_input.h"
#include "pass/partition/partition_flow.h"
#include "pass/pass_runner.h"
#include "runtime/executor.h"
#include "runtime/npy.h"
#include "support/dims_text.h"
#include "runtime/reference_check.h"
#include "runtime/run_timing.h"

namespace byoc::cli {

namespace {

/// Reads every `--input NAME=FILE.npy`; a leading `%` on NAME is optional.
Result<std::map<std::string, NDArray>> readInputs(const Options& options) {
  std::map<std::string, NDArray> named;
  for (const std::string& spec : options.values("--input")) {
    const std::size_t equals = spec.find('=');
    std::string name = spec.substr(0, equals);
    if (!name.empty() && name[0] == '%') name.erase(0, 1);
    BYOC_ASSIGN_OR_RETURN(NDArray array, readNpy(spec.substr(equals + 1)));
    if (!named.emplace(name, std::move(array)).second) return makeError("input %" + name + " is given twice");
  }
  return named;
}

/// Every `--input-shape NAME=DIMS` (its syntax was checked with the options), each naming an input
/// that is filled with random values; a leading `%` on NAME is optional.
Result<std::map<std::string, Shape>> readInputShapes(const Options& options, const Executor& executor,
                                                     const std::map<std::string, NDArray>& named) {
  std::map<std::string, Shape> shapes;
  for (const std::string& spec : options.values("--input-shape")) {
    const std::size_t equals = spec.find('=');
    std::string name = spec.substr(0, equals);
    if (!name.empty() && name[0] == '%') name.erase(0, 1);
    const auto& params = executor.inputs();
    if (std::none_of(params.begin(), params.end(), [&](const Var& param) { return param->name == name; }))
      return makeError("--input-shape " + spec + ": the model has no input %" + name);
    if (named.count(name)) return makeError("--input-shape " + spec + ": input %" + name + " is given with --input");
    if (!options.has("--random-inputs"))
      return makeError("--input-shape " + spec + ": the shape of a random input; fill inputs with --random-inputs SEED");
    if (!shapes.emplace(name, readDims(spec.substr(equals + 1)).sizes).second)
      return makeError("--input-shape: input %" + name + " is given twice");
  }
  return shapes;
}

/// Fills every input not given from the seed (input k uses seed + k), in the shape `--input-shape`
/// gives it (which must fill its declared type), else its declared shape (which must be known).
Status addRandomInputs(const Executor& executor, uint64_t seed, const std::map<std::string, Shape>& shapes,
                       std::map<std::string, NDArray>& named) {
  uint64_t k = 0;
  for (const Var& param : executor.inputs()) {
    const auto* type = param->type() ? param->type()->as<TensorTypeNode>() : nullptr;
    const uint64_t inputSeed = seed + k++;
    if (!type || named.count(param->name)) continue;
    auto given = shapes.find(param->name);
    if (given == shapes.end() && !ops::isStaticShape(type->shape))
      return makeError("input %" + param->name + " has unknown dimensions " + ops::shapeText(type->shape) +
                       "; give its shape with --input-shape " + param->name + "=DIMS");
    Shape shape = type->shape;
    if (given != shapes.end()) {
      Result<Shape> concrete = concreteShape(type->shape, given->second);
      if (!concrete) return makeError("--input-shape for input %" + param->name + ": " + concrete.error().message);
      shape = *concrete;
    }
    Result<NDArray> array = NDArray::allocate(type->dtype, shape);
    if (!array) return makeError("input %" + param->name + ": " + array.error().message);
    fillRandom(*array, inputSeed);
    named.emplace(param->name, std::move(array).value());
  }
  return Status::ok();
}

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

std::string summary(const NDArray& array) {
  std::string text = typeToString(array.type());
  const int64_t count = array.numElements();
  if (count == 0 || !(isFloat(array.dtype()) || isInteger(array.dtype()) || array.dtype() == DType::Bool)) return text;
  double low = INFINITY, high = -INFINITY, sum = 0;
  for (int64_t i = 0; i < count; ++i) {
    const double value = array.elementAsDouble(i);
    low = std::min(low, value);
    high = std::max(high, value);
    sum += value;
  }
  return text + "  min " + number(low) + "  max " + number(high) + "  mean " + number(sum / static_cast<double>(count));
}

/// `FILE.npy` for one output, `FILE_<i>.npy` for each of several.
std::string outputPath(const std::string& path, std::size_t index, std::size_t count) {
  if (count == 1) return path;
  std::filesystem::path p(path);
  std::string stem = (p.parent_path() / p.stem()).string();
  return stem + "_" + std::to_string(index) + (p.has_extension() ? p.extension().string() : ".npy");
}

double milliseconds(std::chrono::steady_clock::duration duration) {
  return std::chrono::duration<double, std::milli>(duration).count();
}

/// Runs `reference` (the unpartitioned model, or the module itself) with every region on the
/// reference codegen and compares the outputs; runs `regionsChecked` with each region call checked
/// against the reference codegen on the same inputs.
int compareWithReference(const Module& reference, const Module& regionsChecked, const ExecutorOptions& executorOptions,
                         const std::vector<Value>& args, const std::vector<NDArray>& outputs) {
  Result<std::vector<NDArray>> expected = runOnReference(reference, args);
  if (!expected) return reportError(expected.error());
  Result<std::vector<RegionAgreement>> regions = checkRegions(regionsChecked, executorOptions, args);
  if (!regions) return reportError(regions.error());
  ReferenceComparison comparison = byoc::compareWithReference(outputs, *expected);
  comparison.regions = std::move(regions).value();
  std::cout << "compare with reference (reference kernels only):\n";
  for (std::size_t i = 0; i < comparison.outputs.size(); ++i) {
    const Difference& difference = comparison.outputs[i];
    std::cout << "  " << i << "  max abs error " << number(difference.maxAbsolute) << "  max rel error "
              << number(difference.maxRelative) << (difference.within ? "  ok\n" : "  DIFFERS\n");
  }
  std::size_t agreeing = 0;
  for (const RegionAgreement& region : comparison.regions) agreeing += region.worst.within ? 1 : 0;
  std::cout << "each offloaded call on the inputs the run gave it (int8 and uint8 within two steps):\n  " << agreeing
            << " of " << comparison.regions.size() << " agree\n";
  for (const RegionAgreement& region : comparison.regions)
    if (!region.worst.within)
      std::cout << "  " << region.label << "  max abs error " << number(region.worst.maxAbsolute) << "  DIFFERS\n";
  if (agreeing != comparison.regions.size())
    return reportError(makeError("offloaded calls differ from the reference codegen on the same inputs"));
  if (comparison.quantized() && comparison.sameCount)
    std::cout << "quantized: each call decides, as later layers amplify a one-step rounding difference in the outputs\n";
  if (!comparison.agree()) return reportError(makeError("the outputs differ from the reference by more than 1e-3 + 1e-3 * |reference|"));
  return 0;
}

int bench(Executor& executor, const std::vector<Value>& args, int runs, int threads) {
  Result<RunTimings> timings = timeRuns(executor, args, runs);
  if (!timings) return reportError(timings.error());
  std::cout << "bench: " << runs << " runs after 1 warm-up, " << threads << " thread(s)\n";
  std::cout << "  median " << number(timings->median()) << " ms  p90 " << number(timings->p90()) << " ms\n";
  for (const RegionInfo& region : timings->regions)
    std::cout << "  " << region.label() << " (" << region.codegen << "): " << number(timings->regionMilliseconds(region))
              << " ms per run, " << region.calls / runs << " call(s) per run\n";
  return 0;
}

/// What `byoc run` runs, and what its outputs are compared with.
struct RunPlan {
  Module module;
  /// The module whose regions `--compare-reference` runs on the reference codegen; none for an
  /// export with kernel graphs (their IR is not in the export).
  std::optional<Module> reference;
  /// The module whose region calls `--compare-reference` checks one by one: the model partitioned
  /// with a region per offloaded call, or the export as it is.
  std::optional<Module> regionsChecked;
  /// For an export with regions a plugin compiled: what was done with their compiled files.
  std::string compiledRegions = {};
};

/// An export directory as it was exported (its regions through the codegens it records, kernel
/// graphs through the dnnl codegen), else the model partitioned for the `--target`s, each target's
/// regions sent to its codegen.
Result<RunPlan> planRun(const Options& options, ExecutorOptions& executorOptions) {
  if (options.file && isExportDirectory(*options.file)) {
    if (options.has("--target")) return makeError("an export is already partitioned; --target does not apply", {*options.file});
    BYOC_ASSIGN_OR_RETURN(LoadedExport loaded, loadExport(*options.file));
    const bool trusted = options.has("--trust-compiled");
    executorOptions = exportExecutorOptions(loaded, trusted ? CompiledRegions::Trust : CompiledRegions::Rebuild, executorOptions.threads);
    RunPlan plan{loaded.module, loaded.module, loaded.module};
    if (!loaded.compiled.empty())
      plan.compiledRegions = std::to_string(loaded.compiled.size()) +
                             (trusted ? " plugin region(s) run from the export's compiled files (--trust-compiled)"
                                      : " plugin region(s) compiled again from their IR; the export's compiled files were not run "
                                        "(--trust-compiled runs them)");
    if (!loaded.kernelGraphs.empty()) plan.reference.reset();
    return plan;
  }
  if (options.has("--trust-compiled")) return makeError("--trust-compiled applies to an export directory only");
  BYOC_ASSIGN_OR_RETURN(Module model, loadTypedModel(options));
  BYOC_ASSIGN_OR_RETURN(PartitionedModel partitioned, partitionForTargets(options, model));
  addTargetCodegens(partitioned.targets, executorOptions);
  RunPlan plan{std::move(partitioned.module), model, model};
  if (options.has("--compare-reference") && !partitioned.targets.empty()) {
    BYOC_ASSIGN_OR_RETURN(std::vector<PassPtr> steps, regionPerCallSteps(partitioned.targets));
    BYOC_ASSIGN_OR_RETURN(PassRun run, runPasses(steps, model));
    plan.regionsChecked = std::move(run.steps.back().module);
  }
  return plan;
}

}  // namespace

int runRun(const Options& options) {
  ExecutorOptions executorOptions;
  executorOptions.threads = static_cast<int>(options.number("--threads", 1));
  Result<RunPlan> plan = planRun(options, executorOptions);
  if (!plan) return reportError(plan.error());
  if (options.has("--compare-reference") && !plan->reference)
    return reportError(makeError("--compare-reference: the export's dnnl regions are kernel graphs, which only the dnnl codegen "
                                 "runs; compare the model before export instead",
                                 {*options.file}));
  Result<std::unique_ptr<Executor>> created = Executor::create(plan->module, executorOptions);
  if (!created) return reportError(created.error());
  Executor& executor = **created;

  Result<std::map<std::string, NDArray>> named = readInputs(options);
  if (!named) return reportError(named.error());
  Result<std::map<std::string, Shape>> shapes = readInputShapes(options, executor, *named);
  if (!shapes) return reportError(shapes.error());
  std::optional<std::string> seed = options.value("--random-inputs");
  if (seed) {
    Status filled = addRandomInputs(executor, options.number("--random-inputs", 0), *shapes, *named);
    if (!filled) return reportError(filled.error());
  }
  Result<std::vector<Value>> args = executor.bindInputs(*named);
  if (!args) {
    Diagnostic error = args.error();
    if (!seed && error.message.rfind("missing input", 0) == 0)
      error.notes.push_back("give it with --input NAME=FILE.npy, or fill inputs with --random-inputs SEED");
    return reportError(error);
  }

  std::cout << "regions:" << (executor.regions().empty() ? " none\n" : "\n");
  for (const RegionInfo& region : executor.regions())
    std::cout << "  " << region.label() << "  Compiler=" << region.compiler << "  codegen=" << region.codegen << "\n";
  if (!plan->compiledRegions.empty()) std::cout << "compiled regions: " << plan->compiledRegions << "\n";
  const auto start = std::chrono::steady_clock::now();
  Result<Value> result = executor.run(*args);
  const double first = milliseconds(std::chrono::steady_clock::now() - start);
  if (!result) return reportError(result.error());
  std::vector<NDArray> outputs;
  if (!result->flattenInto(outputs)) return reportError(makeError("@main returned a function, not tensors"));
  std::cout << "outputs:\n";
  for (std::size_t i = 0; i < outputs.size(); ++i) std::cout << "  " << i << "  " << summary(outputs[i]) << "\n";
  std::cout << "time: " << number(first) << " ms (first run)\n";
  if (std::optional<std::string> output = options.value("--output")) {
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      const std::string path = outputPath(*output, i, outputs.size());
      Status written = writeNpy(path, outputs[i]);
      if (!written) return reportError(written.error());
      std::cout << "wrote " << path << "\n";
    }
  }
  if (options.has("--compare-reference")) {
    if (int status = compareWithReference(*plan->reference, *plan->regionsChecked, executorOptions, *args, outputs)) return status;
  }
  int runs = static_cast<int>(options.number("--bench", 0));
  return runs > 0 ? bench(executor, *args, runs, executorOptions.threads) : 0;
}

}  // namespace byoc::cli
