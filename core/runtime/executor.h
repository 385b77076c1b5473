#pragma once
/// \file
/// The executor: runs a module whose regions — global functions with `Compiler=<target>` (or
/// `Codegen=<target>`, as the Relax pipeline names it), and such functions inlined at their call
/// site as literals — are compiled by their codegens, and everything else on the interpreter.
///
/// Creating an executor type-checks the module and builds one runtime module per region, once;
/// running it calls `@main`. Region calls are timed (per region: calls and total time), which
/// is what `byoc run --bench` reports.

#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ir/module.h"
#include "runtime/interpreter.h"
#include "runtime/runtime_module.h"
#include "runtime/value.h"
#include "support/limits.h"
#include "support/result.h"

namespace byoc {

/// Builds the runtime module of a region from a form its codegen loaded (an export's kernel graph)
/// rather than from the region's function.
using RegionLoader = std::function<Result<std::unique_ptr<RuntimeModule>>(const std::string& symbol, const CodegenOptions& options)>;

/// How to execute a module.
struct ExecutorOptions {
  /// Threads of the one OpenMP pool: the codegens' and the reference GEMM's.
  int threads = 1;
  /// `Compiler` value → codegen name. A compiler not listed uses the built-in codegen of the
  /// same name if there is one, else `reference`.
  std::map<std::string, std::string> codegens;
  /// Global region name → its loader; such a region's function only declares its signature.
  std::map<std::string, RegionLoader> loadedRegions;
  /// Run pure dataflow host functions through their planned programs.
  bool fastPath = true;
  /// Most iterations of the loops of a run, all together (Interpreter::setMaxLoopIterations).
  int64_t maxLoopIterations = limits::kMaxLoopIterations;
  /// When set, runs poll it between steps and stop with an error once it is true (the UI's cancel button).
  const std::atomic<bool>* cancel = nullptr;
};

/// One offloaded region and what running it cost so far.
struct RegionInfo {
  std::string name;      ///< Global function name; empty for a region inlined as a function literal.
  std::string symbol;    ///< Its `global_symbol` (the name when absent).
  std::string compiler;  ///< Its `Compiler` (or `Codegen`) attribute.
  std::string codegen;   ///< The codegen that built it.
  int64_t calls = 0;
  double seconds = 0;

  /// `@name` for a global region, the symbol for an inlined one.
  std::string label() const { return name.empty() ? symbol : "@" + name; }
};

/// Called after each successful region call with the region's index in `Executor::regions()` and
/// its flattened inputs and outputs; an error it returns fails the run.
using RegionObserver =
    std::function<Status(std::size_t region, std::span<const NDArray> inputs, std::span<const NDArray> outputs)>;

/// Runs one module; not copyable (region callbacks point into it).
class Executor {
 public:
  /// Type-checks `module` and builds its regions; errors name the region that failed to build.
  static Result<std::unique_ptr<Executor>> create(const Module& module, const ExecutorOptions& options = {});

  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  /// The type-checked module.
  const Module& module() const { return module_; }
  /// The parameters of `@main`, in order.
  const std::vector<Var>& inputs() const;
  /// Calls `@main` with positional arguments.
  Result<Value> run(std::span<const Value> args);
  /// Orders named tensors as `@main`'s parameters, checking that each is present with the
  /// declared dtype and shape (any size where the declared dimension is unknown) and that no
  /// unknown name is given.
  Result<std::vector<Value>> bindInputs(const std::map<std::string, NDArray>& named) const;
  /// The regions, in module order, with their timings.
  const std::vector<RegionInfo>& regions() const { return regions_; }
  /// Zeroes the region timings.
  void resetTimings();
  /// The function of region `index` (in `regions()` order).
  const Function& regionFunction(std::size_t index) const { return regionFunctions_[index]; }
  /// Observes every region call from now on (outside the region's timing); an empty observer stops.
  void setRegionObserver(RegionObserver observer) { regionObserver_ = std::move(observer); }

 private:
  Executor() = default;
  /// Builds the runtime module of one region; `label` names it in errors, `name` is its global name.
  Status addRegion(const Function& function, const std::string& label, const std::string& name,
                   const ExecutorOptions& options, const CodegenOptions& codegenOptions);

  Module module_;
  std::vector<std::unique_ptr<RuntimeModule>> runtimeModules_;
  std::vector<RegionInfo> regions_;
  std::vector<Function> regionFunctions_;
  std::unique_ptr<Interpreter> interpreter_;
  RegionObserver regionObserver_;
  int threads_ = 1;
};

/// Whether a tensor of shape `concrete` is a value of a type of shape `declared`: same rank, and
/// the same size wherever `declared` knows it.
bool shapeFills(const Shape& declared, const Shape& concrete);

/// `given` as the shape of a value of a type of shape `declared` (`shapeFills`, and within the
/// limits); the error names the first dimension that differs.
Result<Shape> concreteShape(const Shape& declared, const Shape& given);

/// Fills `array` deterministically from `seed`: floats uniform in [-1, 1), integers in [0, 10), bools fair.
void fillRandom(const NDArray& array, uint64_t seed);
/// A tensor of `type`, a size the program already holds (tests, tools), filled by `fillRandom`.
/// Inputs of a size the user gives are allocated with `NDArray::allocate` and then filled.
NDArray randomTensorOf(const TensorTypeNode& type, uint64_t seed);

}  // namespace byoc
