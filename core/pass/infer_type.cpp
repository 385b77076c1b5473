#include "pass/infer_type.h"

#include <algorithm>
#include <memory>
#include <string_view>
#include <unordered_map>

#include "ir/op.h"
#include "ir/ops/type_join.h"
#include "ir/traversal.h"
#include "support/limits.h"

namespace byoc {

namespace infer_type {

/// Types one function bottom-up; the first type error ends the walk.
class FunctionTyper final : public ExprMutator {
 public:
  /// `globalType` answers the type of `@name` (or an error) for calls of other functions.
  FunctionTyper(const Module& module, std::function<Result<Type>(const std::string&)> globalType, TypeReuse reuse)
      : module_(module), globalType_(std::move(globalType)), reuse_(reuse) {}

  /// Walks the part of `function` the typing will visit before typing it: records its let
  /// bindings and the function literals it calls in place, and returns the names of the globals
  /// it refers to.
  std::vector<std::string> scan(const Function& function) {
    std::vector<std::string> globals;
    auto visit = [&](const Expr& node) {
      if (const auto* global = node->as<GlobalVarNode>()) {
        globals.push_back(global->name);
      } else if (const auto* let = node->as<LetNode>()) {
        recordLetBinding(*let);
      } else if (const auto* call = node->as<CallNode>(); call && call->callee->kind() == ExprKind::Function) {
        inPlaceCalls_.push_back(call);
      }
    };
    postOrderVisit(function, visit, [&](const Expr& node) { return shouldDescend(node); });
    return globals;
  }

  /// Types `function`, which `scan` has walked.
  Result<Function> typeFunction(const Function& function) {
    BYOC_TRY(typeParamsFromCallSites());
    BYOC_ASSIGN_OR_RETURN(Expr typed, mutate(function));
    return downcast<FunctionNode>(typed);
  }

 protected:
  /// With `TypeReuse::KeepTypedSubgraphs`, a typed node that refers to no global function is kept
  /// with everything under it.
  bool shouldDescend(const Expr& node) override {
    return reuse_ != TypeReuse::KeepTypedSubgraphs || !node->type() || node->refersToGlobal();
  }

  // Every kind is typed alike: `typeOf` gives its type.
  Result<Expr> rewrite(const Expr& pre, const Expr& post) override {
    // A node that kept its children keeps its type; a global's type may change with its function.
    if (reuse_ != TypeReuse::RecomputeAll && pre == post && pre->type() && pre->kind() != ExprKind::GlobalVar)
      return post;
    Result<Type> type = typeOf(pre, post);
    if (!type) {
      Diagnostic error = type.error();
      if (auto location = module_.locate(pre)) error.location = *location;
      error.message = "type error: " + error.message;
      return error;
    }
    if (const auto* var = post->as<VarNode>(); var && !var->annotation && paramTypes_.count(pre->as<VarNode>()))
      return Expr(VarNode::make(var->name, *type, var->origin(), *type));  // as TVM, record what was inferred
    Expr typed = *type ? withType(post, *type) : post;
    return post->kind() == ExprKind::Function ? withInferredReturnType(typed) : typed;
  }

  /// Records the inferred return type on a function that did not declare one, as TVM does.
  static Expr withInferredReturnType(const Expr& expr) {
    const auto& function = *expr->as<FunctionNode>();
    if (function.retType) return expr;
    const Type& bodyType = function.body->type();
    return FunctionNode::make(function.params, function.body, bodyType, function.attrs, function.origin(), expr->type());
  }

 private:
  /// Records what an unannotated let variable is bound to, and the signature of a let-bound
  /// function that spells out its full type (which is what lets it call itself).
  void recordLetBinding(const LetNode& let) {
    if (let.var->annotation) return;
    letValues_.emplace(let.var.get(), let.value);
    if (const auto* value = let.value->as<FunctionNode>()) {
      if (Type signature = declaredSignature(*value)) signatures_.emplace(let.var.get(), signature);
    }
  }

  /// A function literal called in place (a composite) may leave its parameters unannotated:
  /// they take the types of the call's arguments, which are typed first.
  Status typeParamsFromCallSites() {
    for (const CallNode* call : inPlaceCalls_) {
      const auto& callee = *call->callee->as<FunctionNode>();
      if (callee.params.size() != call->args.size()) continue;
      for (std::size_t i = 0; i < callee.params.size(); ++i) {
        if (callee.params[i]->annotation) continue;
        BYOC_ASSIGN_OR_RETURN(Expr typedArg, mutate(call->args[i]));
        if (typedArg->type()) paramTypes_.emplace(callee.params[i].get(), typedArg->type());
      }
    }
    return Status::ok();
  }

  static Type declaredSignature(const FunctionNode& function) {
    if (!function.retType) return {};
    std::vector<Type> params;
    for (const Var& param : function.params) {
      if (!param->annotation) return {};
      params.push_back(param->annotation);
    }
    return funcType(std::move(params), function.retType);
  }

  /// An op among `node`'s children other than a call's callee: an op has no type of its own, so
  /// it can only be called.
  static const OpNode* opUsedAsValue(const ExprNode& node) {
    for (int i = node.kind() == ExprKind::Call ? 1 : 0; i < childCount(node); ++i)
      if (const auto* op = childAt(node, i)->as<OpNode>()) return op;
    return nullptr;
  }

  Result<Type> typeOf(const Expr& pre, const Expr& post) {
    if (const OpNode* op = opUsedAsValue(*post))
      return makeError(op->name() + " is used as a value; an op can only be called");
    switch (post->kind()) {
      case ExprKind::Var: return varType(*pre->as<VarNode>());
      case ExprKind::GlobalVar: return globalType_(post->as<GlobalVarNode>()->name);
      case ExprKind::Constant: return post->type();
      case ExprKind::Op: return Type();  // ops are polymorphic; their calls are typed
      case ExprKind::Call: return callType(*post->as<CallNode>());
      case ExprKind::Tuple: {
        std::vector<Type> fields;
        for (const Expr& field : post->as<TupleNode>()->fields) fields.push_back(field->type());
        return bounded(tupleType(std::move(fields)));
      }
      case ExprKind::TupleGetItem: return tupleGetItemType(*post->as<TupleGetItemNode>());
      case ExprKind::Function: {
        BYOC_ASSIGN_OR_RETURN(Type type, functionType(*post->as<FunctionNode>()));
        return bounded(std::move(type));
      }
      case ExprKind::If: return ifType(*post->as<IfNode>());
      case ExprKind::Let: return letType(*post->as<LetNode>());
    }
    return makeError("unknown expression kind");
  }

  /// How deep `type` nests. Tuple and function types built here are remembered, so that a chain of
  /// tuples of tuples costs one step per link; other types come from parsed text or JSON, whose
  /// nesting the readers bound.
  int typeDepth(const Type& type) {
    if (!type || type->as<TensorTypeNode>()) return 1;
    if (auto it = typeDepths_.find(type.get()); it != typeDepths_.end()) return it->second;
    int deepest = 0;
    if (const auto* tuple = type->as<TupleTypeNode>()) {
      for (const Type& field : tuple->fields) deepest = std::max(deepest, typeDepth(field));
    } else if (const auto* function = type->as<FuncTypeNode>()) {
      deepest = typeDepth(function->ret);
      for (const Type& param : function->params) deepest = std::max(deepest, typeDepth(param));
    }
    return typeDepths_[type.get()] = deepest + 1;
  }

  /// `type`, or an error when it nests deeper than any reader accepts: every later walk of types
  /// (printing, saving, running) may then rely on that bound.
  Result<Type> bounded(Type type) {
    if (typeDepth(type) > limits::kMaxNestingDepth)
      return makeError("the inferred type nests more than " + std::to_string(limits::kMaxNestingDepth) +
                       " tuple or function types deep");
    return type;
  }

  Result<Type> varType(const VarNode& var) {
    if (var.annotation) return var.annotation;
    if (auto it = signatures_.find(&var); it != signatures_.end()) return it->second;
    if (auto it = paramTypes_.find(&var); it != paramTypes_.end()) return it->second;
    if (auto it = letValues_.find(&var); it != letValues_.end()) {
      if (const Expr* value = findRewritten(it->second); value && (*value)->type()) return (*value)->type();
      return makeError("cannot infer the type of %" + var.name +
                       " where it is used inside its own definition; annotate it or give the function a return type");
    }
    return makeError("cannot infer the type of %" + var.name + ": it has no type annotation");
  }

  Result<Type> callType(const CallNode& call) {
    std::vector<Type> argTypes;
    argTypes.reserve(call.args.size());
    for (const Expr& arg : call.args) argTypes.push_back(arg->type());

    if (const OpDef* def = call.opDef()) {
      if (!def->variadic && call.args.size() != def->inputs.size())
        return makeError(def->name + " expects " + std::to_string(def->inputs.size()) + " argument(s), got " +
                         std::to_string(call.args.size()));
      for (std::size_t i = 0; i < argTypes.size(); ++i)
        if (!argTypes[i]) return makeError(def->name + ": argument " + std::to_string(i) + " has no type");
      if (!def->relation) return makeError(def->name + " has no type relation");
      return def->relation({argTypes, call.attrs});
    }

    const Type& calleeType = call.callee->type();
    const auto* signature = calleeType ? calleeType->as<FuncTypeNode>() : nullptr;
    if (!signature)
      return makeError("the callee of a call must be a function, found " + typeToString(calleeType));
    if (signature->params.size() != argTypes.size())
      return makeError("the call passes " + std::to_string(argTypes.size()) + " argument(s) to a function of " +
                       std::to_string(signature->params.size()) + " parameter(s)");
    for (std::size_t i = 0; i < argTypes.size(); ++i) {
      if (!ops::typeAccepts(signature->params[i], argTypes[i]))
        return makeError("argument " + std::to_string(i) + " of the call: expected " +
                         typeToString(signature->params[i]) + ", found " + typeToString(argTypes[i]));
    }
    return signature->ret;
  }

  static Result<Type> tupleGetItemType(const TupleGetItemNode& item) {
    const Type& tupleTy = item.tuple->type();
    const auto* tuple = tupleTy ? tupleTy->as<TupleTypeNode>() : nullptr;
    if (!tuple) return makeError("'." + std::to_string(item.index) + "' needs a tuple, found " + typeToString(tupleTy));
    if (item.index < 0 || static_cast<std::size_t>(item.index) >= tuple->fields.size())
      return makeError("tuple index " + std::to_string(item.index) + " is out of range for " + typeToString(tupleTy));
    return tuple->fields[static_cast<std::size_t>(item.index)];
  }

  static Result<Type> functionType(const FunctionNode& function) {
    std::vector<Type> params;
    for (const Var& param : function.params) params.push_back(param->type());
    const Type& bodyType = function.body->type();
    if (function.retType && !typeEqual(function.retType, bodyType))
      return makeError("the function's body has type " + typeToString(bodyType) + ", but its declared return type is " +
                       typeToString(function.retType));
    return funcType(std::move(params), bodyType);
  }

  static Result<Type> ifType(const IfNode& branch) {
    const Type& condType = branch.cond->type();
    const auto* cond = condType ? condType->as<TensorTypeNode>() : nullptr;
    if (!cond || !cond->shape.empty() || cond->dtype != DType::Bool)
      return makeError("the condition of 'if' must be a bool scalar, found " + typeToString(condType));
    // Branches whose tensors differ only in sizes give the type with ? where they differ.
    std::optional<Type> joined = ops::joinTypes(branch.thenBranch->type(), branch.elseBranch->type());
    if (!joined)
      return makeError("the branches of 'if' have different types: " + typeToString(branch.thenBranch->type()) +
                       " and " + typeToString(branch.elseBranch->type()));
    return *joined;
  }

  static Result<Type> letType(const LetNode& let) {
    if (!typeEqual(let.var->type(), let.value->type()))
      return makeError("%" + let.var->name + " is declared as " + typeToString(let.var->type()) +
                       " but bound to a value of type " + typeToString(let.value->type()));
    return let.body->type();
  }

  const Module& module_;
  std::function<Result<Type>(const std::string&)> globalType_;
  TypeReuse reuse_;
  std::unordered_map<const VarNode*, Expr> letValues_;
  std::unordered_map<const VarNode*, Type> signatures_;
  std::unordered_map<const VarNode*, Type> paramTypes_;
  std::unordered_map<const TypeNode*, int> typeDepths_;
  std::vector<const CallNode*> inPlaceCalls_;  ///< calls of function literals, in post-order
};

/// The positions of a module's functions ordered so that a function comes after the functions it
/// calls (module order otherwise); functions calling each other keep module order and need
/// annotations. `callees[i]` lists the positions of the functions that function `i` refers to.
std::vector<std::size_t> calleesFirst(const std::vector<std::vector<std::size_t>>& callees) {
  enum : char { Unseen, OnStack, Ordered };
  std::vector<char> state(callees.size(), Unseen);
  std::vector<std::size_t> order;
  order.reserve(callees.size());
  std::vector<std::pair<std::size_t, std::size_t>> stack;  // (function, next callee)
  for (std::size_t entry = 0; entry < callees.size(); ++entry) {
    if (state[entry] != Unseen) continue;
    state[entry] = OnStack;
    stack.emplace_back(entry, 0);
    while (!stack.empty()) {
      auto& [function, next] = stack.back();
      if (next < callees[function].size()) {
        const std::size_t callee = callees[function][next++];
        if (state[callee] == Unseen) {
          state[callee] = OnStack;
          stack.emplace_back(callee, 0);
        }
        continue;
      }
      state[function] = Ordered;
      order.push_back(function);
      stack.pop_back();
    }
  }
  return order;
}

}  // namespace infer_type

Result<Module> inferTypes(const Module& module, TypeReuse reuse, const PassContext* context) {
  Module typed = module;
  std::unordered_map<std::string, Type> globalTypes;
  auto globalType = [&](const std::string& name) -> Result<Type> {
    if (auto it = globalTypes.find(name); it != globalTypes.end()) return it->second;
    Function function = module.find(name);
    if (!function) return makeError("unknown global function @" + name);
    std::vector<Type> params;
    for (const Var& param : function->params) {
      if (!param->annotation) return makeError("@" + name + " is used before its parameter types are known");
      params.push_back(param->annotation);
    }
    if (!function->retType) return makeError("@" + name + " is used before it is typed; annotate its return type");
    return funcType(std::move(params), function->retType);
  };
  const auto& functions = module.functions();
  std::unordered_map<std::string_view, std::size_t> position;
  for (std::size_t i = 0; i < functions.size(); ++i) position.emplace(functions[i].first, i);
  std::vector<std::unique_ptr<infer_type::FunctionTyper>> typers;
  std::vector<std::vector<std::size_t>> callees(functions.size());
  for (std::size_t i = 0; i < functions.size(); ++i) {
    if (context) BYOC_TRY(context->checkCancelled());
    typers.push_back(std::make_unique<infer_type::FunctionTyper>(module, globalType, reuse));
    for (const std::string& name : typers.back()->scan(functions[i].second))
      if (auto callee = position.find(name); callee != position.end()) callees[i].push_back(callee->second);
  }
  for (std::size_t i : infer_type::calleesFirst(callees)) {
    if (context) BYOC_TRY(context->checkCancelled());
    BYOC_ASSIGN_OR_RETURN(Function result, typers[i]->typeFunction(functions[i].second));
    typers[i].reset();  // frees its memo
    globalTypes[functions[i].first] = result->type();
    typed.set(functions[i].first, std::move(result));
  }
  return typed;
}

namespace {

PassInfo inferTypeInfo() {
  return {"InferType", "computes the type of every expression", 0, {},
          "Sets the checked type of every expression of every function, and the return type of functions "
          "that did not declare one. Nodes whose type is already right are kept, so a second run changes nothing.",
          {}};
}

}  // namespace

PassRegistration inferTypeRegistration() {
  return {inferTypeInfo(), [](const Attrs&) { return Result<PassPtr>(createInferTypePass()); }};
}

PassPtr createInferTypePass(TypeReuse reuse) {
  return makeModulePass(inferTypeInfo(), [reuse](const Module& module, PassContext& context) -> Result<PassResult> {
    BYOC_ASSIGN_OR_RETURN(Module typed, inferTypes(module, reuse, &context));
    bool changed = !typed.sameNodes(module);
    return PassResult{std::move(typed), changed};
  });
}

}  // namespace byoc
