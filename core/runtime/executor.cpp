#include "runtime/executor.h"

#include <omp.h>

#include <chrono>
#include <cstring>
#include <random>

#include "ir/function_attrs.h"
#include "ir/ops/op_helpers.h"
#include "ir/traversal.h"
#include "pass/infer_type.h"
#include "runtime/run_time_type.h"
#include "support/limits.h"

namespace byoc {

namespace {

std::string codegenFor(const std::string& compiler, const ExecutorOptions& options) {
  auto chosen = options.codegens.find(compiler);
  if (chosen != options.codegens.end()) return chosen->second;
  return findCodegen(compiler) ? compiler : "reference";
}

/// Refuses a module with a value no tensor can hold, before a codegen builds kernels for it or the
/// interpreter allocates it; the error is at the first such expression. Unknown dimensions are
/// allowed: their sizes come with the inputs of each run.
Status checkTensorTypes(const Module& module) {
  std::optional<Diagnostic> found;
  for (const auto& entry : module.functions()) {
    const std::string& name = entry.first;
    postOrderVisit(entry.second, [&](const Expr& node) {
      if (found || !node->type()) return;
      for (const TypeNode* part : flattenTupleTypes(node->type())) {
        const auto* tensor = part ? part->as<TensorTypeNode>() : nullptr;
        std::string problem = tensor ? limits::typeShapeProblem(tensor->shape) : std::string();
        if (problem.empty()) continue;
        found = makeError("cannot run a value of type " + typeToString(Type(tensor)) + ": " + problem,
                          module.locate(node).value_or(SourceLocation{"@" + name}));
        return;
      }
    });
    if (found) return *found;
  }
  return Status::ok();
}

/// The types of a region's parameters and result.
std::vector<Type> regionTypes(const FunctionNode& function) {
  std::vector<Type> types;
  for (const Var& param : function.params) types.push_back(param->type());
  types.push_back(function.body->type());
  return types;
}

}  // namespace

bool shapeFills(const Shape& declared, const Shape& concrete) {
  if (declared.size() != concrete.size()) return false;
  for (std::size_t i = 0; i < declared.size(); ++i)
    if (declared[i] != kAnyDim && declared[i] != concrete[i]) return false;
  return true;
}

Result<Shape> concreteShape(const Shape& declared, const Shape& given) {
  const std::string expected = ops::shapeText(declared);
  if (given.size() != declared.size())
    return makeError("shape " + ops::shapeText(given) + " has rank " + std::to_string(given.size()) + "; expected " +
                     expected);
  for (std::size_t i = 0; i < declared.size(); ++i)
    if (declared[i] != kAnyDim && declared[i] != given[i])
      return makeError("shape " + ops::shapeText(given) + " gives dimension " + std::to_string(i) + " the size " +
                       std::to_string(given[i]) + "; expected " + expected);
  if (std::string problem = limits::shapeProblem(given); !problem.empty())
    return makeError("shape " + ops::shapeText(given) + ": " + problem);
  return given;
}

Status Executor::addRegion(const Function& function, const std::string& label, const std::string& name,
                           const ExecutorOptions& options, const CodegenOptions& codegenOptions) {
  const std::string compiler = regionCompiler(*function);
  RegionInfo region{name, globalSymbol(*function), compiler, codegenFor(compiler, options)};
  if (region.symbol.empty()) region.symbol = name.empty() ? label : name;
  const Codegen* codegen = findCodegen(region.codegen);
  if (!codegen && region.codegen.starts_with("plugin:"))
    return makeError(label + ": the codegen " + region.codegen + " of Compiler=\"" + compiler +
                     "\" is not loaded; give the plugin with --plugin PATH or put it on BYOC_PLUGIN_PATH");
  if (!codegen) return makeError(label + ": unknown codegen \"" + region.codegen + "\" for Compiler=\"" + compiler + "\"");
  for (const Type& type : regionTypes(*function))
    if (!isStaticType(type))
      return makeError(label + ": the region has a dimension known only at run time, in " + typeToString(type) +
                       "; a codegen compiles static shapes only (static_shape() in a target's rules keeps such calls on "
                       "the host)");
  auto loader = name.empty() ? options.loadedRegions.end() : options.loadedRegions.find(name);
  Result<std::unique_ptr<RuntimeModule>> built = loader != options.loadedRegions.end()
                                                     ? loader->second(region.symbol, codegenOptions)
                                                     : codegen->build(function, region.symbol, codegenOptions);
  if (!built) {
    Diagnostic error = built.error();
    error.message = label + " (" + region.codegen + "): " + error.message;
    return error;
  }
  runtimeModules_.push_back(std::move(built).value());
  regionFunctions_.push_back(function);
  regions_.push_back(region);
  return Status::ok();
}

Result<std::unique_ptr<Executor>> Executor::create(const Module& module, const ExecutorOptions& options) {
  if (options.threads < 1 || options.threads > limits::kMaxThreads)
    return makeError("expected 1 to " + std::to_string(limits::kMaxThreads) + " threads, found " +
                     std::to_string(options.threads));
  std::unique_ptr<Executor> executor(new Executor());
  BYOC_ASSIGN_OR_RETURN(executor->module_, inferTypes(module));
  if (!executor->module_.find("main")) return makeError("the module has no @main function to run");
  BYOC_TRY(checkTensorTypes(executor->module_));
  CodegenOptions codegenOptions{options.threads, &executor->module_};
  // Outlined regions are global functions; a region inlined at its call site is a literal.
  std::vector<const FunctionNode*> literals;
  for (const auto& [name, function] : executor->module_.functions()) {
    if (!regionCompiler(*function).empty()) {
      BYOC_TRY(executor->addRegion(function, "@" + name, name, options, codegenOptions));
      continue;
    }
    postOrderVisit(function->body, [&](const Expr& node) {
      const auto* literal = node->as<FunctionNode>();
      if (literal && !regionCompiler(*literal).empty()) literals.push_back(literal);
    });
  }
  for (const FunctionNode* literal : literals) {
    std::string symbol = globalSymbol(*literal);
    if (symbol.empty()) symbol = regionCompiler(*literal) + "_region_" + std::to_string(executor->regions_.size());
    BYOC_TRY(executor->addRegion(Function(literal), symbol, "", options, codegenOptions));
  }
  // Region callbacks refer to the executor's own vectors, which no longer change size.
  Executor* self = executor.get();
  ExternalTable externals;
  for (std::size_t i = 0; i < self->regions_.size(); ++i) {
    const RegionInfo& info = self->regions_[i];
    ExternalFunction& external =
        info.name.empty() ? externals.literals[self->regionFunctions_[i].get()] : externals.globals[info.name];
    external = [self, i](std::span<const NDArray> inputs, std::span<const NDArray> outputs) {
      RegionInfo& region = self->regions_[i];
      const auto start = std::chrono::steady_clock::now();
      Status status = self->runtimeModules_[i]->run(region.symbol, inputs, outputs);
      region.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      ++region.calls;
      if (status.ok() && self->regionObserver_) status = self->regionObserver_(i, inputs, outputs);
      return status;
    };
  }
  self->interpreter_ = std::make_unique<Interpreter>(self->module_, std::move(externals));
  self->threads_ = options.threads;
  self->interpreter_->setFastPath(options.fastPath);
  self->interpreter_->setCancelFlag(options.cancel);
  self->interpreter_->setMaxLoopIterations(options.maxLoopIterations);
  return executor;
}

const std::vector<Var>& Executor::inputs() const { return module_.find("main")->params; }

Result<Value> Executor::run(std::span<const Value> args) {
  omp_set_num_threads(threads_);
  return interpreter_->call("main", args);
}

Result<std::vector<Value>> Executor::bindInputs(const std::map<std::string, NDArray>& named) const {
  const std::vector<Var>& params = inputs();
  for (const auto& [name, array] : named) {
    bool known = false;
    for (const Var& param : params) known = known || param->name == name;
    if (!known) {
      std::string list;
      for (const Var& param : params) list += (list.empty() ? "%" : ", %") + param->name;
      return makeError("unknown input %" + name + ": the model's inputs are " + (list.empty() ? "none" : list));
    }
  }
  std::vector<Value> args;
  for (const Var& param : params) {
    const std::string expected = typeToString(param->type());
    auto found = named.find(param->name);
    if (found == named.end()) return makeError("missing input %" + param->name + ": expected " + expected);
    const auto* type = param->type() ? param->type()->as<TensorTypeNode>() : nullptr;
    if (!type) return makeError("input %" + param->name + " has type " + expected + "; only tensor inputs can be given");
    const NDArray& array = found->second;
    if (array.dtype() != type->dtype || !shapeFills(type->shape, array.shape()))
      return makeError("input %" + param->name + ": expected " + expected + ", got " + typeToString(array.type()));
    args.push_back(array);
  }
  return args;
}

void Executor::resetTimings() {
  for (RegionInfo& region : regions_) {
    region.calls = 0;
    region.seconds = 0;
  }
}

void fillRandom(const NDArray& array, uint64_t seed) {
  const DType dtype = array.dtype();
  std::mt19937_64 generator(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::uniform_int_distribution<int> digits(0, 9);
  const int64_t count = array.numElements();
  if (dtype == DType::Float32) {
    std::uniform_real_distribution<float> uniformFloat(-1.0f, 1.0f);
    for (int64_t i = 0; i < count; ++i) array.data<float>()[i] = uniformFloat(generator);
    return;
  }
  for (int64_t i = 0; i < count; ++i) {
    double value = isFloat(dtype) ? uniform(generator) : dtype == DType::Bool ? digits(generator) % 2 : digits(generator);
    TensorData scalar = TensorData::scalar(dtype, value);
    std::memcpy(array.bytes() + static_cast<std::size_t>(i) * dtypeSize(dtype), scalar.bytes().data(), scalar.bytes().size());
  }
}

// `type` must be static: callers give a concrete shape for an input with unknown dimensions.
NDArray randomTensorOf(const TensorTypeNode& type, uint64_t seed) {
  NDArray array = NDArray::empty(type.dtype, type.shape);
  fillRandom(array, seed);
  return array;
}

}  // namespace byoc
