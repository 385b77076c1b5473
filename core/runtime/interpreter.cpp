#include "runtime/interpreter.h"

#include <unordered_set>

#include "ir/op.h"
#include "ir/traversal.h"
#include "runtime/kernels/kernel.h"
#include "runtime/run_time_type.h"
#include "runtime/source_node.h"
#include "support/limits.h"

namespace byoc {

/// The evaluation state of one `Interpreter::apply`: a stack of frames, each with its own
/// stack of pending expressions and the values computed so far.
class Interpreter::Machine {
 public:
  explicit Machine(Interpreter& interpreter) : in_(interpreter) {}

  Result<Value> run(const Value& function, std::span<const Value> args) {
    if (!function.isClosure()) return makeError("cannot call a value that is not a function");
    BYOC_TRY(invoke(function.closure(), std::vector<Value>(args.begin(), args.end()), nullptr, false));
    if (frames_.empty()) return result_;
    return loop();
  }

 private:
  struct Task {
    const ExprNode* node;
    int stage;
  };
  struct Frame {
    const FunctionNode* function;
    std::unordered_map<const ExprNode*, Value> values;
    std::vector<Task> tasks;
    const ExprNode* returnTo;
  };

  SourceLocation where(const ExprNode& node) const {
    return in_.module_.locate(Expr(&node)).value_or(SourceLocation{});
  }

  Diagnostic locatedError(const Diagnostic& error, const ExprNode& node) const {
    Diagnostic located = error;
    if (located.location.file.empty()) located.location = where(node);
    return located;
  }

  /// Gives `value` to whoever waits for the current call: the caller's frame, or the final result.
  void deliver(Value value, const ExprNode* returnTo) {
    if (frames_.empty()) result_ = std::move(value);
    else frames_.back()->values[returnTo] = std::move(value);
  }

  /// Calls `closure`; the result goes to `returnTo` in the current top frame (or is final).
  /// A tail call of an interpreted function replaces the current frame.
  Status invoke(const Closure& closure, std::vector<Value> args, const ExprNode* returnTo, bool tail) {
    const FunctionNode& function = *closure.function;
    if (args.size() != function.params.size())
      return makeError("function expects " + std::to_string(function.params.size()) + " arguments, got " +
                       std::to_string(args.size()));
    if (const ExternalFunction* external = in_.externals_.find(closure.globalName, &function))
      return callExternal(*external, function, args, returnTo);
    if (closure.captured.empty()) {
      if (DataflowProgram* program = in_.programFor(closure.function)) {
        std::vector<NDArray> flat;
        for (const Value& arg : args)
          if (!arg.flattenInto(flat)) return makeError("a dataflow function cannot take a function argument");
        BYOC_ASSIGN_OR_RETURN(std::vector<NDArray> results, program->run(flat, in_.cancel_));
        std::size_t next = 0;
        deliver(assemble(program->resultType(), results, next), returnTo);
        return Status::ok();
      }
    }
    auto frame = std::make_unique<Frame>();
    frame->function = &function;
    frame->returnTo = returnTo;
    // A function calling itself runs one more iteration of a loop. The iterations of all loops
    // count together: loops nested in loops multiply, and each must not be bounded alone.
    if (!frames_.empty() && frames_.back()->function == &function && ++loopIterations_ > in_.maxLoopIterations_)
      return makeError(loopName(closure) + " did not end within " + std::to_string(in_.maxLoopIterations_) +
                       " iterations of the run's loops, the limit of loop iterations in one run");
    for (const auto& [var, value] : closure.captured) frame->values[var] = *value;
    if (closure.self) frame->values[closure.self.get()] = Value::closure(closure);
    for (std::size_t i = 0; i < args.size(); ++i) frame->values[function.params[i].get()] = std::move(args[i]);
    frame->tasks.push_back({function.body.get(), 0});
    if (tail) {
      frame->returnTo = frames_.back()->returnTo;
      frames_.pop_back();
    }
    frames_.push_back(std::move(frame));
    return Status::ok();
  }

  /// "the loop %while_loop of node 'loop'": the function's variable and the model node it came from.
  std::string loopName(const Closure& closure) const {
    std::string name = closure.self ? "%" + closure.self->name : closure.globalName.empty() ? "" : "@" + closure.globalName;
    std::string text = "the loop" + (name.empty() ? std::string() : " " + name);
    const std::string node = sourceNodeName(in_.module_, closure.function->origin());
    return node.empty() ? text : text + " of node '" + node + "'";
  }

  Status callExternal(const ExternalFunction& external, const FunctionNode& function, const std::vector<Value>& args,
                      const ExprNode* returnTo) {
    std::vector<NDArray> inputs;
    for (const Value& arg : args)
      if (!arg.flattenInto(inputs)) return makeError("an external function cannot take a function argument");
    const Type& resultType = function.body->type();
    BYOC_ASSIGN_OR_RETURN(std::vector<NDArray> outputs, allocateFlat(resultType));
    BYOC_TRY(external(inputs, outputs));
    std::size_t next = 0;
    deliver(assemble(resultType, outputs, next), returnTo);
    return Status::ok();
  }

  /// A closure over the free variables of `literal` as bound in `frame`.
  Result<Closure> capture(const Function& literal, const Frame& frame, const Var& self) {
    Closure closure{literal, {}, self, {}};
    for (const VarNode* var : in_.freeVars(*literal)) {
      if (self && var == self.get()) continue;
      auto found = frame.values.find(var);
      if (found == frame.values.end()) return makeError("unbound variable %" + var->name);
      closure.captured.push_back({var, std::make_shared<const Value>(found->second)});
    }
    return closure;
  }

  /// Tail-position nodes of a function body: the body, both branches of a tail `if`, the body of a tail `let`.
  const std::unordered_set<const ExprNode*>& tails(const FunctionNode* function) {
    auto found = tails_.find(function);
    if (found != tails_.end()) return found->second;
    std::unordered_set<const ExprNode*>& set = tails_[function];
    std::vector<const ExprNode*> stack = {function->body.get()};
    while (!stack.empty()) {
      const ExprNode* node = stack.back();
      stack.pop_back();
      set.insert(node);
      if (const auto* branch = node->as<IfNode>()) {
        stack.push_back(branch->thenBranch.get());
        stack.push_back(branch->elseBranch.get());
      } else if (const auto* let = node->as<LetNode>()) {
        stack.push_back(let->body.get());
      }
    }
    return set;
  }

  Result<Value> loop() {
    while (!frames_.empty()) {
      Frame& frame = *frames_.back();
      if (frame.tasks.empty()) {
        Value value = frame.values.at(frame.function->body.get());
        const ExprNode* returnTo = frame.returnTo;
        frames_.pop_back();
        deliver(std::move(value), returnTo);
        continue;
      }
      if (in_.cancel_ && in_.cancel_->load(std::memory_order_relaxed)) return makeError("the run was cancelled");
      Task task = frame.tasks.back();
      if (task.stage == 0 && frame.values.count(task.node)) {
        frame.tasks.pop_back();
        continue;
      }
      Status status = step(frame, task);
      if (!status) return locatedError(status.error(), *task.node);
    }
    return result_;
  }

  /// Pushes `node` unless it already has a value.
  static void need(Frame& frame, const Expr& node) {
    if (!frame.values.count(node.get())) frame.tasks.push_back({node.get(), 0});
  }

  /// Advances the task on top of `frame` (a copy of it is `task`).
  Status step(Frame& frame, const Task& task) {
    const ExprNode& node = *task.node;
    auto finish = [&](Value value) {
      frame.values[&node] = std::move(value);
      frame.tasks.pop_back();
    };
    auto advance = [&](int stage) { frame.tasks.back().stage = stage; };
    switch (node.kind()) {
      case ExprKind::Var: return makeError("unbound variable %" + node.as<VarNode>()->name);
      case ExprKind::GlobalVar: {
        const std::string& name = node.as<GlobalVarNode>()->name;
        Function function = in_.module_.find(name);
        if (!function) return makeError("unknown global function @" + name);
        finish(Value::closure(Closure{function, {}, {}, name}));
        return Status::ok();
      }
      case ExprKind::Constant: finish(in_.constant(*node.as<ConstantNode>())); return Status::ok();
      case ExprKind::Op: return makeError("op " + node.as<OpNode>()->name() + " used as a value; ops can only be called");
      case ExprKind::Function: {
        BYOC_ASSIGN_OR_RETURN(Closure closure, capture(Function(node.as<FunctionNode>()), frame, {}));
        finish(Value::closure(std::move(closure)));
        return Status::ok();
      }
      case ExprKind::Tuple: {
        const auto& fields = node.as<TupleNode>()->fields;
        if (task.stage == 0) {
          advance(1);
          for (std::size_t i = fields.size(); i-- > 0;) need(frame, fields[i]);
          return Status::ok();
        }
        std::vector<Value> values;
        for (const Expr& field : fields) values.push_back(frame.values.at(field.get()));
        finish(Value::tuple(std::move(values)));
        return Status::ok();
      }
      case ExprKind::TupleGetItem: {
        const auto* item = node.as<TupleGetItemNode>();
        if (task.stage == 0) {
          advance(1);
          need(frame, item->tuple);
          return Status::ok();
        }
        const Value& tuple = frame.values.at(item->tuple.get());
        if (!tuple.isTuple() || item->index < 0 || static_cast<std::size_t>(item->index) >= tuple.fields().size())
          return makeError("projection ." + std::to_string(item->index) + " of a value that has no such field");
        finish(tuple.fields()[static_cast<std::size_t>(item->index)]);
        return Status::ok();
      }
      case ExprKind::Let: {
        const auto* let = node.as<LetNode>();
        if (task.stage == 0) {
          if (Function literal = downcast<FunctionNode>(let->value)) {
            BYOC_ASSIGN_OR_RETURN(Closure closure, capture(literal, frame, let->var));
            frame.values[let->var.get()] = Value::closure(std::move(closure));
            advance(2);
            need(frame, let->body);
            return Status::ok();
          }
          advance(1);
          need(frame, let->value);
          return Status::ok();
        }
        if (task.stage == 1) {
          frame.values[let->var.get()] = frame.values.at(let->value.get());
          advance(2);
          need(frame, let->body);
          return Status::ok();
        }
        finish(frame.values.at(let->body.get()));
        return Status::ok();
      }
      case ExprKind::If: {
        const auto* branch = node.as<IfNode>();
        if (task.stage == 0) {
          advance(1);
          need(frame, branch->cond);
          return Status::ok();
        }
        if (task.stage == 1) {
          const Value& cond = frame.values.at(branch->cond.get());
          if (!cond.isTensor() || cond.tensor().numElements() != 1)
            return makeError("the condition of an if must be a single boolean");
          const bool taken = cond.tensor().elementAsDouble(0) != 0;
          advance(taken ? 2 : 3);
          need(frame, taken ? branch->thenBranch : branch->elseBranch);
          return Status::ok();
        }
        finish(frame.values.at((task.stage == 2 ? branch->thenBranch : branch->elseBranch).get()));
        return Status::ok();
      }
      case ExprKind::Call: return stepCall(frame, task);
    }
    return makeError("unknown expression kind");
  }

  Status stepCall(Frame& frame, const Task& task) {
    const auto* call = task.node->as<CallNode>();
    const ExprKind calleeKind = call->callee->kind();
    if (task.stage == 0) {
      frame.tasks.back().stage = 1;
      for (std::size_t i = call->args.size(); i-- > 0;) need(frame, call->args[i]);
      if (calleeKind != ExprKind::Op && calleeKind != ExprKind::Function) need(frame, call->callee);
      return Status::ok();
    }
    std::vector<Value> args;
    for (const Expr& arg : call->args) args.push_back(frame.values.at(arg.get()));
    if (const OpDef* def = call->opDef()) {
      Result<Value> value = runOp(*call, *def, args);
      if (!value) {
        Diagnostic error = value.error();
        error.message = sourceNodePrefix(in_.module_, call->origin()) + error.message;
        return error;
      }
      frame.values[task.node] = std::move(value).value();
      frame.tasks.pop_back();
      return Status::ok();
    }
    Value callee;
    if (Function literal = downcast<FunctionNode>(call->callee)) {
      BYOC_ASSIGN_OR_RETURN(Closure closure, capture(literal, frame, {}));
      callee = Value::closure(std::move(closure));
    } else {
      callee = frame.values.at(call->callee.get());
    }
    if (!callee.isClosure()) return makeError("cannot call a value that is not a function");
    const bool tail = tails(frame.function).count(task.node) > 0;
    frame.tasks.pop_back();
    // `frame` may be replaced by the call; nothing below touches it.
    return invoke(callee.closure(), std::move(args), task.node, tail);
  }

  Result<Value> runOp(const CallNode& call, const OpDef& def, const std::vector<Value>& args) {
    kernels::Kernel kernel = kernels::kernelOf(def);
    if (!kernel) return makeError("no reference kernel for op " + def.name);
    std::vector<NDArray> inputs;
    for (const Value& arg : args)
      if (!arg.flattenInto(inputs)) return makeError(def.name + ": an argument is a function");
    if (!call.type()) return makeError(def.name + ": untyped call (run type inference first)");
    BYOC_ASSIGN_OR_RETURN(Type type, runTimeCallType(call, def, args, inputs));
    BYOC_ASSIGN_OR_RETURN(std::vector<NDArray> outputs, allocateFlat(type));
    BYOC_TRY(kernel({def.name, inputs, outputs, call.attrs}));
    std::size_t next = 0;
    return assemble(type, outputs, next);
  }

  Interpreter& in_;
  std::vector<std::unique_ptr<Frame>> frames_;
  /// Iterations of loops so far in this call, all loops together.
  int64_t loopIterations_ = 0;
  std::unordered_map<const FunctionNode*, std::unordered_set<const ExprNode*>> tails_;
  Value result_;
};

Interpreter::Interpreter(Module module, ExternalTable externals)
    : module_(std::move(module)), externals_(std::move(externals)), maxLoopIterations_(limits::kMaxLoopIterations) {}

Result<Value> Interpreter::call(const std::string& name, std::span<const Value> args) {
  Function function = module_.find(name);
  if (!function) return makeError("the module has no function @" + name);
  return apply(Value::closure(Closure{function, {}, {}, name}), args);
}

Result<Value> Interpreter::apply(const Value& function, std::span<const Value> args) {
  Machine machine(*this);
  return machine.run(function, args);
}

DataflowProgram* Interpreter::programFor(const Function& function) {
  if (!fastPath_) return nullptr;
  auto found = programs_.find(function.get());
  if (found == programs_.end()) {
    Result<std::shared_ptr<DataflowProgram>> program = DataflowProgram::compile(function, &module_, &externals_);
    found = programs_.emplace(function.get(), program ? *program : nullptr).first;
  }
  return found->second.get();
}

const std::vector<const VarNode*>& Interpreter::freeVars(const FunctionNode& function) {
  auto found = freeVars_.find(&function);
  if (found != freeVars_.end()) return found->second;
  std::unordered_set<const VarNode*> bound;
  std::vector<const VarNode*> used;
  postOrderVisit(Function(&function), [&](const Expr& node) {
    if (const auto* inner = node->as<FunctionNode>())
      for (const Var& param : inner->params) bound.insert(param.get());
    else if (const auto* let = node->as<LetNode>())
      bound.insert(let->var.get());
    else if (const auto* var = node->as<VarNode>())
      used.push_back(var);
  });
  std::vector<const VarNode*>& free = freeVars_[&function];
  std::unordered_set<const VarNode*> seen;
  for (const VarNode* var : used)
    if (!bound.count(var) && seen.insert(var).second) free.push_back(var);
  return free;
}

const NDArray& Interpreter::constant(const ConstantNode& node) {
  auto found = constants_.find(&node);
  if (found == constants_.end()) found = constants_.emplace(&node, NDArray::fromTensorData(node.data)).first;
  return found->second;
}

}  // namespace byoc
