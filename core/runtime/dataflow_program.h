#pragma once
/// \file
/// The fast path for pure dataflow functions: a schedule and a memory plan computed once.
///
/// A function is pure dataflow when its body uses only its parameters, constants, op calls,
/// tuples, projections, calls of external global functions (offloaded regions), and calls of
/// function literals (composites) whose bodies are pure dataflow themselves. Compiling one flattens it into a list of kernel steps over tensor
/// slots (tuples disappear: they only group slots) and plans every intermediate tensor into
/// one pool, reusing a block as soon as its last reader has run. Running the program binds
/// the parameters, runs the steps, and copies the results out; nothing is allocated per op.
/// A program is not reentrant: one run at a time.

#include <atomic>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/module.h"
#include "runtime/kernels/kernel.h"
#include "runtime/ndarray.h"
#include "support/result.h"

namespace byoc {

/// A global function implemented outside the interpreter (an offloaded region): flattened
/// inputs in, preallocated flattened outputs to fill.
using ExternalFunction = std::function<Status(std::span<const NDArray> inputs, std::span<const NDArray> outputs)>;
/// The offloaded regions an interpreter calls instead of evaluating them: global functions by
/// name, and region function literals (a region inlined at its call site keeps its attributes).
struct ExternalTable {
  std::unordered_map<std::string, ExternalFunction> globals;
  std::unordered_map<const FunctionNode*, ExternalFunction> literals;

  /// The external for a call of global `name` (empty for none) or of `literal` (may be null), or null.
  const ExternalFunction* find(const std::string& name, const FunctionNode* literal) const;
};

/// A compiled pure dataflow function.
class DataflowProgram {
 public:
  /// Compiles `function` (which must be type-checked); the error says why it is not pure
  /// dataflow or names an op without a kernel. `module`, when given, locates errors; calls of
  /// the global functions in `externals` become steps that call them.
  static Result<std::shared_ptr<DataflowProgram>> compile(const Function& function, const Module* module = nullptr,
                                                          const ExternalTable* externals = nullptr);

  /// Runs on the flattened parameter tensors; returns fresh result tensors (flattened).
  /// When `cancel` is given and becomes true, the run stops before the next step with an error.
  Result<std::vector<NDArray>> run(std::span<const NDArray> params, const std::atomic<bool>* cancel = nullptr);

  /// The function's result type.
  const Type& resultType() const { return resultType_; }
  /// Number of kernel steps.
  std::size_t stepCount() const { return steps_.size(); }
  /// Bytes of the planned pool (after reuse).
  std::size_t poolBytes() const { return poolBytes_; }
  /// Bytes all intermediates would take without reuse.
  std::size_t intermediateBytes() const { return intermediateBytes_; }

 private:
  friend class DataflowBuilder;

  /// One op call or external call: its kernel or external function, argument and result slots.
  struct Step {
    kernels::Kernel kernel;
    const ExternalFunction* external;
    std::string name;
    const CallNode* call;
    std::vector<int> inputs;
    std::vector<int> outputs;
    SourceLocation location;
    /// "node 'n' (Gather): ", the model node an error of the step names (`sourceNodePrefix`).
    std::string sourceNode;
  };

  /// Drops the caller's parameter tensors after a run.
  void unbindParams();

  Type resultType_;
  std::vector<Step> steps_;
  /// Every tensor of the program; parameter slots are rebound at each run.
  std::vector<NDArray> slots_;
  std::vector<int> paramSlots_;
  std::vector<int> resultSlots_;
  std::shared_ptr<Storage> pool_;
  std::size_t poolBytes_ = 0;
  std::size_t intermediateBytes_ = 0;
  std::vector<NDArray> scratchInputs_;
  std::vector<NDArray> scratchOutputs_;
};

}  // namespace byoc
