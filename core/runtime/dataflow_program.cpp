#include "runtime/dataflow_program.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "ir/function_attrs.h"
#include "ir/op.h"
#include "ir/traversal.h"
#include "runtime/source_node.h"

namespace byoc {

namespace {

/// Number of tensors in a (possibly tuple) type.
std::size_t tensorCount(const Type& type) {
  const auto* tuple = type ? type->as<TupleTypeNode>() : nullptr;
  if (!tuple) return 1;
  std::size_t count = 0;
  for (const Type& field : tuple->fields) count += tensorCount(field);
  return count;
}

/// A slot awaiting its place in the pool.
struct SlotInfo {
  DType dtype;
  Shape shape;
  bool temporary;
};

std::size_t rounded(std::size_t bytes) { return (bytes + kStorageAlignment - 1) / kStorageAlignment * kStorageAlignment; }

}  // namespace

const ExternalFunction* ExternalTable::find(const std::string& name, const FunctionNode* literal) const {
  if (!name.empty()) {
    auto found = globals.find(name);
    if (found != globals.end()) return &found->second;
  }
  if (literal) {
    auto found = literals.find(literal);
    if (found != literals.end()) return &found->second;
  }
  return nullptr;
}

/// Builds a `DataflowProgram`: lowering to steps, then planning memory.
class DataflowBuilder {
 public:
  DataflowBuilder(DataflowProgram& program, const Module* module, const ExternalTable* externals)
      : program_(program), module_(module), externals_(externals) {}

  /// Lowers `function`'s body with its parameters bound to `params`; returns the result slots.
  /// Nested function literals lower through a nested call: depth follows literal nesting, not the graph.
  Result<std::vector<int>> lower(const FunctionNode& function, const std::vector<std::vector<int>>& params) {
    std::unordered_map<const ExprNode*, std::vector<int>> memo;
    for (std::size_t i = 0; i < function.params.size(); ++i) memo[function.params[i].get()] = params[i];
    auto done = [&](const ExprNode* node) { return memo.count(node) > 0; };
    auto childrenOf = [&](const ExprNode& node, std::vector<const ExprNode*>& children) {
      return childrenFor(node, children);
    };
    BYOC_TRY(visitChildrenFirst(function.body.get(), done, childrenOf, [&](const ExprNode& node) -> Status {
      BYOC_ASSIGN_OR_RETURN(memo[&node], lowerNode(node, memo));
      return Status::ok();
    }));
    return memo[function.body.get()];
  }

  /// Assigns pool offsets to temporaries, reusing blocks after their last reader; an error when
  /// the pool cannot be allocated.
  Status plan() {
    const int never = std::numeric_limits<int>::max();
    std::vector<int> lastUse(slotInfo_.size(), -1);
    for (std::size_t s = 0; s < program_.steps_.size(); ++s)
      for (int input : program_.steps_[s].inputs) lastUse[static_cast<std::size_t>(input)] = static_cast<int>(s);
    for (int result : program_.resultSlots_) lastUse[static_cast<std::size_t>(result)] = never;
    struct Block {
      std::size_t offset, size;
      bool free;
    };
    std::vector<Block> blocks;
    std::vector<std::size_t> offsets(slotInfo_.size(), 0);
    std::vector<int> blockOf(slotInfo_.size(), -1);
    std::size_t end = 0;
    for (std::size_t s = 0; s < program_.steps_.size(); ++s) {
      const auto& step = program_.steps_[s];
      for (int output : step.outputs) {
        const SlotInfo& info = slotInfo_[static_cast<std::size_t>(output)];
        const std::size_t bytes = rounded(static_cast<std::size_t>(shapeElements(info.shape)) * dtypeSize(info.dtype));
        program_.intermediateBytes_ += bytes;
        int best = -1;
        for (std::size_t b = 0; b < blocks.size(); ++b)
          if (blocks[b].free && blocks[b].size >= bytes && (best < 0 || blocks[b].size < blocks[static_cast<std::size_t>(best)].size))
            best = static_cast<int>(b);
        if (best < 0) {
          blocks.push_back({end, bytes, false});
          end += bytes;
          best = static_cast<int>(blocks.size() - 1);
        }
        blocks[static_cast<std::size_t>(best)].free = false;
        offsets[static_cast<std::size_t>(output)] = blocks[static_cast<std::size_t>(best)].offset;
        blockOf[static_cast<std::size_t>(output)] = best;
      }
      // Release what this step read for the last time, and outputs nobody reads.
      auto release = [&](int slot) {
        const int block = blockOf[static_cast<std::size_t>(slot)];
        if (block >= 0 && lastUse[static_cast<std::size_t>(slot)] <= static_cast<int>(s))
          blocks[static_cast<std::size_t>(block)].free = true;
      };
      for (int input : step.inputs) release(input);
      for (int output : step.outputs) release(output);
    }
    program_.poolBytes_ = end;
    Result<std::shared_ptr<Storage>> pool = Storage::allocate(end);
    if (!pool)
      return makeError("cannot allocate the " + std::to_string(end) + " bytes of the intermediate tensors: " +
                       pool.error().message);
    program_.pool_ = std::move(pool).value();
    for (std::size_t slot = 0; slot < slotInfo_.size(); ++slot)
      if (slotInfo_[slot].temporary)
        program_.slots_[slot] =
            NDArray::view(slotInfo_[slot].dtype, slotInfo_[slot].shape, program_.pool_, offsets[slot]);
    return Status::ok();
  }

  /// A new slot of `type` (which must be a tensor type with known dimensions).
  Result<int> newSlot(const Type& type, bool temporary) {
    const auto* tensor = type ? type->as<TensorTypeNode>() : nullptr;
    if (!tensor || tensor->numElements() < 0)
      return makeError("dataflow: expected a tensor of known shape, found " + typeToString(type));
    slotInfo_.push_back({tensor->dtype, tensor->shape, temporary});
    program_.slots_.emplace_back();
    return static_cast<int>(slotInfo_.size() - 1);
  }

  /// New slots for every tensor of `type`, tuples flattened.
  Result<std::vector<int>> newSlots(const Type& type, bool temporary) {
    std::vector<int> slots;
    for (const TypeNode* node : flattenTupleTypes(type)) {
      BYOC_ASSIGN_OR_RETURN(int slot, newSlot(Type(node), temporary));
      slots.push_back(slot);
    }
    return slots;
  }

 private:
  Status childrenFor(const ExprNode& node, std::vector<const ExprNode*>& children) {
    switch (node.kind()) {
      case ExprKind::Var:
      case ExprKind::Constant: return Status::ok();
      case ExprKind::Tuple:
        for (const Expr& field : node.as<TupleNode>()->fields) children.push_back(field.get());
        return Status::ok();
      case ExprKind::TupleGetItem: children.push_back(node.as<TupleGetItemNode>()->tuple.get()); return Status::ok();
      case ExprKind::Call: {
        const auto* call = node.as<CallNode>();
        const ExprKind callee = call->callee->kind();
        if (callee != ExprKind::Op && callee != ExprKind::Function && !externalFor(*call))
          return makeError("not pure dataflow: calls a " + std::string(exprKindName(callee)));
        for (const Expr& arg : call->args) children.push_back(arg.get());
        return Status::ok();
      }
      default: return makeError("not pure dataflow: contains a " + std::string(exprKindName(node.kind())));
    }
  }

  Result<std::vector<int>> lowerNode(const ExprNode& node, const std::unordered_map<const ExprNode*, std::vector<int>>& memo) {
    switch (node.kind()) {
      case ExprKind::Var:
        return makeError("not pure dataflow: free variable %" + node.as<VarNode>()->name);
      case ExprKind::Constant: {
        const auto* constant = node.as<ConstantNode>();
        BYOC_ASSIGN_OR_RETURN(int slot, newSlot(constant->type(), false));
        program_.slots_[static_cast<std::size_t>(slot)] = NDArray::fromTensorData(constant->data);
        return std::vector<int>{slot};
      }
      case ExprKind::Tuple: {
        std::vector<int> slots;
        for (const Expr& field : node.as<TupleNode>()->fields) {
          const auto& part = memo.at(field.get());
          slots.insert(slots.end(), part.begin(), part.end());
        }
        return slots;
      }
      case ExprKind::TupleGetItem: {
        const auto* item = node.as<TupleGetItemNode>();
        const auto* tupleType = item->tuple->type() ? item->tuple->type()->as<TupleTypeNode>() : nullptr;
        if (!tupleType || item->index < 0 || static_cast<std::size_t>(item->index) >= tupleType->fields.size())
          return makeError("dataflow: projection of a value that is not a tuple (run type inference first)");
        std::size_t begin = 0;
        for (int i = 0; i < item->index; ++i) begin += tensorCount(tupleType->fields[static_cast<std::size_t>(i)]);
        const std::size_t count = tensorCount(tupleType->fields[static_cast<std::size_t>(item->index)]);
        const auto& all = memo.at(item->tuple.get());
        return std::vector<int>(all.begin() + static_cast<std::ptrdiff_t>(begin),
                                all.begin() + static_cast<std::ptrdiff_t>(begin + count));
      }
      case ExprKind::Call: return lowerCall(*node.as<CallNode>(), memo);
      default: return makeError("not pure dataflow");
    }
  }

  Result<std::vector<int>> lowerCall(const CallNode& call, const std::unordered_map<const ExprNode*, std::vector<int>>& memo) {
    const ExternalFunction* external = externalFor(call);
    if (const auto* literal = call.callee->as<FunctionNode>(); literal && !external) {
      std::vector<std::vector<int>> params;
      for (const Expr& arg : call.args) params.push_back(memo.at(arg.get()));
      if (params.size() != literal->params.size()) return makeError("dataflow: call with the wrong number of arguments");
      return lower(*literal, params);
    }
    SourceLocation location;
    if (module_) location = module_->locate(Expr(&call)).value_or(SourceLocation{});
    const OpDef* def = call.opDef();
    const std::string name = def ? def->name : external ? externalName(call) : std::string();
    kernels::Kernel kernel = def ? kernels::kernelOf(*def) : nullptr;
    if (!kernel && !external) return makeError("no reference kernel for op " + name, location);
    DataflowProgram::Step step{kernel, external, name, &call, {}, {}, location,
                               def && module_ ? sourceNodePrefix(*module_, call.origin()) : std::string()};
    for (const Expr& arg : call.args) {
      const auto& part = memo.at(arg.get());
      step.inputs.insert(step.inputs.end(), part.begin(), part.end());
    }
    if (!call.type()) return makeError("dataflow: untyped call of " + name + " (run type inference first)", location);
    BYOC_ASSIGN_OR_RETURN(step.outputs, newSlots(call.type(), true));
    std::vector<int> result = step.outputs;
    program_.steps_.push_back(std::move(step));
    return result;
  }

  /// The external function a call of a global function runs, or null.
  const ExternalFunction* externalFor(const CallNode& call) const {
    if (!externals_) return nullptr;
    const auto* global = call.callee->as<GlobalVarNode>();
    return externals_->find(global ? global->name : std::string(), call.callee->as<FunctionNode>());
  }

  /// `@name` of a called global, or the `global_symbol` of a called region literal.
  static std::string externalName(const CallNode& call) {
    if (const auto* global = call.callee->as<GlobalVarNode>()) return "@" + global->name;
    const std::string symbol = globalSymbol(*call.callee->as<FunctionNode>());
    return symbol.empty() ? std::string("region") : symbol;
  }

  DataflowProgram& program_;
  const Module* module_;
  const ExternalTable* externals_;
  std::vector<SlotInfo> slotInfo_;
};

Result<std::shared_ptr<DataflowProgram>> DataflowProgram::compile(const Function& function, const Module* module,
                                                                  const ExternalTable* externals) {
  auto program = std::make_shared<DataflowProgram>();
  DataflowBuilder builder(*program, module, externals);
  std::vector<std::vector<int>> params;
  for (const Var& param : function->params) {
    BYOC_ASSIGN_OR_RETURN(std::vector<int> slots, builder.newSlots(param->type(), false));
    program->paramSlots_.insert(program->paramSlots_.end(), slots.begin(), slots.end());
    params.push_back(std::move(slots));
  }
  BYOC_ASSIGN_OR_RETURN(program->resultSlots_, builder.lower(*function, params));
  program->resultType_ = function->body->type();
  BYOC_TRY(builder.plan());
  return program;
}

Result<std::vector<NDArray>> DataflowProgram::run(std::span<const NDArray> params, const std::atomic<bool>* cancel) {
  if (params.size() != paramSlots_.size())
    return makeError("dataflow: expected " + std::to_string(paramSlots_.size()) + " parameter tensors, got " +
                     std::to_string(params.size()));
  for (std::size_t i = 0; i < params.size(); ++i) slots_[static_cast<std::size_t>(paramSlots_[i])] = params[i];
  for (const Step& step : steps_) {
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      unbindParams();
      return makeError("the run was cancelled");
    }
    scratchInputs_.clear();
    scratchOutputs_.clear();
    for (int input : step.inputs) scratchInputs_.push_back(slots_[static_cast<std::size_t>(input)]);
    for (int output : step.outputs) scratchOutputs_.push_back(slots_[static_cast<std::size_t>(output)]);
    Status status = step.external ? (*step.external)(scratchInputs_, scratchOutputs_)
                                  : step.kernel({step.name, scratchInputs_, scratchOutputs_, step.call->attrs});
    if (!status) {
      unbindParams();
      Diagnostic error = status.error();
      if (error.location.file.empty()) error.location = step.location;
      error.message = step.sourceNode + error.message;
      return error;
    }
  }
  std::vector<NDArray> results;
  for (int slot : resultSlots_) {
    const NDArray& source = slots_[static_cast<std::size_t>(slot)];
    Result<NDArray> result = NDArray::allocate(source.dtype(), source.shape());
    if (!result) {
      unbindParams();
      return makeError("result " + std::to_string(results.size()) + ": " + result.error().message);
    }
    result->copyFrom(source);
    results.push_back(std::move(result).value());
  }
  unbindParams();
  return results;
}

void DataflowProgram::unbindParams() {
  for (int slot : paramSlots_) slots_[static_cast<std::size_t>(slot)] = NDArray();
}

}  // namespace byoc
