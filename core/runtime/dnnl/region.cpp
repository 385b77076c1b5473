#include "runtime/dnnl/region.h"

#include <omp.h>

#include <unordered_map>
#include <unordered_set>

#include "ir/op.h"
#include "runtime/dnnl/ops.h"

namespace byoc::dnnl_backend {

namespace {

/// Tensor types of a (possibly tuple) type, flattened.
std::vector<const TensorTypeNode*> flatTypes(const Type& type) {
  std::vector<const TensorTypeNode*> out;
  std::vector<const TypeNode*> stack = {type.get()};
  while (!stack.empty()) {
    const TypeNode* node = stack.back();
    stack.pop_back();
    if (!node) continue;
    if (const auto* tuple = node->as<TupleTypeNode>()) {
      for (std::size_t i = tuple->fields.size(); i-- > 0;) stack.push_back(tuple->fields[i].get());
    } else if (const auto* tensor = node->as<TensorTypeNode>()) {
      out.push_back(tensor);
    }
  }
  return out;
}

/// The values a region node reads: call arguments (a composite's body is lowered as a whole),
/// tuple fields, the projected tuple.
std::vector<const ExprNode*> regionChildren(const ExprNode& node) {
  std::vector<const ExprNode*> children;
  if (const auto* call = node.as<CallNode>())
    for (const Expr& arg : call->args) children.push_back(arg.get());
  else if (const auto* tuple = node.as<TupleNode>())
    for (const Expr& field : tuple->fields) children.push_back(field.get());
  else if (const auto* item = node.as<TupleGetItemNode>())
    children.push_back(item->tuple.get());
  return children;
}

/// Walks a region body in post-order, lowering each call once.
class RegionWalker {
 public:
  RegionWalker(Lowering& lowering, const Module* module) : lowering_(lowering), module_(module) {}

  Result<std::vector<Tensor>> walk(const FunctionNode& function) {
    int input = 0;
    for (const Var& param : function.params) {
      std::vector<Tensor>& slots = values_[param.get()];
      for (const TensorTypeNode* type : flatTypes(param->type())) {
        if (type->dtype != DType::Float32)
          return makeError("region input %" + param->name + " is " + std::string(dtypeName(type->dtype)) +
                           "; only float32 is supported");
        slots.push_back(lowering_.input(input++, dimsOf(type->shape)));
      }
    }
    countUses(function);
    std::vector<std::pair<const ExprNode*, bool>> stack = {{function.body.get(), false}};
    while (!stack.empty()) {
      auto [node, expanded] = stack.back();
      if (values_.count(node)) {
        stack.pop_back();
        continue;
      }
      if (!expanded) {
        stack.back().second = true;
        const std::vector<const ExprNode*> children = regionChildren(*node);
        for (std::size_t i = children.size(); i-- > 0;)
          if (!values_.count(children[i])) stack.push_back({children[i], false});
        continue;
      }
      stack.pop_back();
      Result<std::vector<Tensor>> lowered = lowerNode(*node);
      if (!lowered) {
        Diagnostic error = lowered.error();
        if (error.location.file.empty() && module_)
          error.location = module_->locate(Expr(node)).value_or(SourceLocation{});
        return error;
      }
      values_[node] = std::move(lowered).value();
      noteReads(*node);
    }
    return values_[function.body.get()];
  }

 private:
  std::vector<Tensor> gather(const std::vector<Expr>& exprs) {
    std::vector<Tensor> out;
    for (const Expr& expr : exprs) {
      const auto& part = values_.at(expr.get());
      out.insert(out.end(), part.begin(), part.end());
    }
    return out;
  }

  Result<std::vector<Tensor>> lowerNode(const ExprNode& node) {
    if (const auto* constant = node.as<ConstantNode>()) {
      if (constant->data.dtype() != DType::Float32)
        return makeError("constant of dtype " + std::string(dtypeName(constant->data.dtype())) +
                         "; only float32 is supported");
      return std::vector<Tensor>{lowering_.constant(constant->data.bytes().data(), dimsOf(constant->data.shape()))};
    }
    if (const auto* tuple = node.as<TupleNode>()) return gather(tuple->fields);
    if (const auto* item = node.as<TupleGetItemNode>()) {
      const auto* tupleType = item->tuple->type()->as<TupleTypeNode>();
      std::size_t begin = 0;
      for (int i = 0; i < item->index; ++i) begin += flatTypes(tupleType->fields[static_cast<std::size_t>(i)]).size();
      const std::size_t count = flatTypes(tupleType->fields[static_cast<std::size_t>(item->index)]).size();
      const auto& all = values_.at(item->tuple.get());
      return std::vector<Tensor>(all.begin() + static_cast<std::ptrdiff_t>(begin),
                                 all.begin() + static_cast<std::ptrdiff_t>(begin + count));
    }
    if (const auto* call = node.as<CallNode>()) {
      std::vector<Tensor> inputs = gather(call->args);
      if (call->opDef()) return lowerOpCall(lowering_, *call, inputs);
      const auto* composite = call->callee->as<FunctionNode>();
      if (composite && composite->attrs.contains("Composite")) {
        // The residual may be overwritten when it is a call's result, this call is its last
        // reader in execution order, and no earlier reader kept a view of its memory.
        auto lastRead = [&](const Expr& residual) {
          return residual->kind() == ExprKind::Call && pending_[residual.get()] == 1 && !aliased_.count(residual.get());
        };
        return lowerCompositeCall(lowering_, *call, *composite, inputs, lastRead);
      }
      return makeError("a region may call only ops and composite functions");
    }
    if (const auto* var = node.as<VarNode>()) return makeError("free variable %" + var->name + " in a region");
    return makeError("a region may not contain a " + std::string(exprKindName(node.kind())));
  }

  /// Records that `node` (just lowered, its primitives appended) has read its children: one
  /// pending read less for each, and a child whose memory `node`'s results share is aliased.
  void noteReads(const ExprNode& node) {
    const std::vector<Tensor>& results = values_.at(&node);
    for (const ExprNode* child : regionChildren(node)) {
      --pending_[child];
      for (const Tensor& read : values_.at(child))
        for (const Tensor& result : results)
          if (result.memory.get_data_handle() == read.memory.get_data_handle()) aliased_.insert(child);
    }
  }

  /// How many times each node is read in the region (the body counts as read once, by the caller).
  void countUses(const FunctionNode& function) {
    ++pending_[function.body.get()];
    std::unordered_map<const ExprNode*, bool> seen;
    std::vector<const ExprNode*> stack = {function.body.get()};
    while (!stack.empty()) {
      const ExprNode* node = stack.back();
      stack.pop_back();
      if (seen[node]) continue;
      seen[node] = true;
      for (const ExprNode* child : regionChildren(*node)) {
        ++pending_[child];
        stack.push_back(child);
      }
    }
  }

  Lowering& lowering_;
  const Module* module_;
  std::unordered_map<const ExprNode*, std::vector<Tensor>> values_;
  /// Reads of each node not lowered yet (the caller's read of the body never is).
  std::unordered_map<const ExprNode*, int> pending_;
  /// Nodes whose memory a lowered value shares (a view, a tuple field): never overwritten.
  std::unordered_set<const ExprNode*> aliased_;
};

}  // namespace

Result<std::unique_ptr<Region>> Region::build(const Function& function, const Module* module, int threads) {
  int inputCount = 0;
  for (const Var& param : function->params) inputCount += static_cast<int>(flatTypes(param->type()).size());
  std::unique_ptr<Region> region(new Region(inputCount));
  region->threads_ = threads;
  omp_set_num_threads(threads);
  try {
    RegionWalker walker(region->lowering_, module);
    BYOC_ASSIGN_OR_RETURN(std::vector<Tensor> results, walker.walk(*function));
    std::vector<const TensorTypeNode*> resultTypes = flatTypes(function->body->type());
    if (resultTypes.size() != results.size()) return makeError("the region's results do not match its type");
    for (std::size_t i = 0; i < results.size(); ++i) {
      dnnl::memory output(plainDesc(dimsOf(resultTypes[i]->shape)), region->lowering_.engine, DNNL_MEMORY_NONE);
      region->lowering_.add(dnnl::reorder(results[i].memory, output),
                            {{DNNL_ARG_FROM, results[i].memory}, {DNNL_ARG_TO, output}});
      region->outputs_.push_back(output);
    }
  } catch (const dnnl::error& error) {
    return makeError(std::string("oneDNN: ") + error.what());
  }
  return region;
}

Status Region::run(std::span<const NDArray> inputs, std::span<const NDArray> outputs) {
  if (inputs.size() != lowering_.inputViews.size() || outputs.size() != outputs_.size())
    return makeError("dnnl: the region takes " + std::to_string(lowering_.inputViews.size()) + " inputs and " +
                     std::to_string(outputs_.size()) + " outputs");
  omp_set_num_threads(threads_);
  try {
    for (std::size_t i = 0; i < inputs.size(); ++i)
      for (dnnl::memory& view : lowering_.inputViews[i]) view.set_data_handle(inputs[i].bytes());
    for (std::size_t i = 0; i < outputs.size(); ++i) outputs_[i].set_data_handle(outputs[i].bytes());
    for (Step& step : lowering_.steps) step.primitive.execute(lowering_.stream, step.args);
    lowering_.stream.wait();
  } catch (const dnnl::error& error) {
    return makeError(std::string("dnnl: ") + error.what());
  }
  return Status::ok();
}

}  // namespace byoc::dnnl_backend
