#pragma once
/// \file
/// The reference interpreter: runs any function of a type-checked module.
///
/// Evaluation is iterative: an explicit stack of frames (one per function invocation) and,
/// inside each frame, an explicit stack of pending expressions, so neither graph depth nor
/// recursion depth of the program touches the C++ stack. It handles `let`, `if`, closures,
/// recursion through let-bound and global functions (calls in tail position replace their
/// frame, so a loop written as tail recursion runs in constant frame depth, and a function
/// calling itself more often than the loop limit in a row stops with an error), tuples, and op
/// calls on the reference kernels. Calls of global functions listed as external run through
/// the given callback (the executor binds offloaded regions there). A function that is pure
/// dataflow (external calls included) and captures nothing runs through its cached
/// `DataflowProgram`. A function typed with unknown dimensions (`?`) has no such program: it is
/// interpreted, and each op call whose type has an unknown dimension gets its concrete result
/// type from its arguments (runtime/run_time_type.h).

#include <atomic>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>

#include "ir/module.h"
#include "runtime/dataflow_program.h"
#include "runtime/value.h"
#include "support/result.h"

namespace byoc {

/// Interprets the functions of one module.
class Interpreter {
 public:
  /// `module` must be type-checked. `externals` maps global names to their implementation.
  explicit Interpreter(Module module, ExternalTable externals = {});

  /// Calls global function `name` with `args`.
  Result<Value> call(const std::string& name, std::span<const Value> args);
  /// Calls any function value (a closure) with `args`.
  Result<Value> apply(const Value& function, std::span<const Value> args);

  /// Whether the dataflow fast path is used (on by default; tests turn it off to compare).
  void setFastPath(bool enabled) { fastPath_ = enabled; }
  /// A flag polled between evaluation steps: once it is true, a running call stops with the
  /// error "the run was cancelled". Null (the default) means runs cannot be cancelled.
  void setCancelFlag(const std::atomic<bool>* cancel) { cancel_ = cancel; }
  /// Most iterations the loops of a call may run, all together (a function calling itself counts
  /// one per call); the call stops with an error naming the loop that goes beyond it.
  /// limits::kMaxLoopIterations by default.
  void setMaxLoopIterations(int64_t limit) { maxLoopIterations_ = limit; }
  const Module& module() const { return module_; }

 private:
  class Machine;

  /// The compiled program of `function`, or null if it is not pure dataflow.
  DataflowProgram* programFor(const Function& function);
  /// Free variables of a function literal, computed once.
  const std::vector<const VarNode*>& freeVars(const FunctionNode& function);
  /// The tensor of a constant, converted once.
  const NDArray& constant(const ConstantNode& node);

  Module module_;
  ExternalTable externals_;
  std::unordered_map<const FunctionNode*, std::shared_ptr<DataflowProgram>> programs_;
  std::unordered_map<const FunctionNode*, std::vector<const VarNode*>> freeVars_;
  std::unordered_map<const ConstantNode*, NDArray> constants_;
  bool fastPath_ = true;
  const std::atomic<bool>* cancel_ = nullptr;
  int64_t maxLoopIterations_;
};

}  // namespace byoc
