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
#include "session/model_run.h"
#include "step_runner.h"
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

/// Compares the run's `outputs` with the reference as `plan` says (model_run.h) and prints how
/// they agree: each output, then each offloaded call.
int compareWithReference(const RunPlan& plan, const std::vector<Value>& args, const std::vector<NDArray>& outputs) {
  Result<ReferenceComparison> compared = compareRun(plan, args, outputs);
  if (!compared) return reportError(compared.error());
  const ReferenceComparison& comparison = *compared;
  std::cout << "compare with reference (reference kernels only"
            << (plan.referenceFile.empty() ? std::string() : "; the model exported, " + plan.referenceFile) << "):\n";
  for (std::size_t i = 0; i < comparison.outputs.size(); ++i) {
    const Difference& difference = comparison.outputs[i];
    std::cout << "  " << i << "  max abs error " << number(difference.maxAbsolute) << "  max rel error "
              << number(difference.maxRelative) << (difference.within ? "  ok\n" : "  DIFFERS\n");
  }
  std::size_t agreeing = 0;
  for (const RegionAgreement& region : comparison.regions) agreeing += region.worst.within ? 1 : 0;
  if (plan.regionsChecked) {
    std::cout << "each offloaded call on the inputs the run gave it (int8 and uint8 within two steps):\n  " << agreeing
              << " of " << comparison.regions.size() << " agree\n";
  } else {
    std::cout << "each offloaded call: not checked (the export's kernel graphs hold no IR for the reference kernels)\n";
  }
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

/// What `byoc run` runs (model_run.h): an export as it was exported, else the model partitioned for
/// the `--target`s with the instruments the flags ask for.
Result<RunPlan> planCommandRun(const Options& options) {
  BYOC_ASSIGN_OR_RETURN(OpenedModel opened, openInput(options));
  if (opened.exported && options.has("--target"))
    return makeError("an export is already partitioned; --target does not apply", {opened.path});
  if (!opened.exported && options.has("--trust-compiled")) return makeError("--trust-compiled applies to an export directory only");
  BYOC_ASSIGN_OR_RETURN(PartitionPipeline pipeline, parsePartitionPipeline(options.value("--pipeline").value_or("relay")));
  BYOC_ASSIGN_OR_RETURN(PartitionedModel partitioned, partitionForTargets(options, opened.module));
  RunSettings settings;
  settings.threads = static_cast<int>(options.number("--threads", 1));
  settings.trustCompiled = options.has("--trust-compiled");
  settings.checkEachCall = options.has("--compare-reference");
  Result<RunPlan> plan = planRun(opened, {std::move(partitioned.targets), pipeline}, settings, &partitioned.module);
  if (plan && !plan->compiledRegions.empty() && !settings.trustCompiled) plan->compiledRegions += " (--trust-compiled runs them)";
  return plan;
}

}  // namespace

int runRun(const Options& options) {
  Result<RunPlan> plan = planCommandRun(options);
  if (!plan) return reportError(plan.error());
  if (options.has("--compare-reference") && !plan->reference)
    return reportError(makeError("--compare-reference: " + plan->notComparable, {*options.file}));
  const ExecutorOptions& executorOptions = plan->executorOptions;
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
    if (int status = compareWithReference(*plan, *args, outputs)) return status;
  }
  int runs = static_cast<int>(options.number("--bench", 0));
  return runs > 0 ? bench(executor, *args, runs, executorOptions.threads) : 0;
}

}  // namespace byoc::cli
