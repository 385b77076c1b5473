/// \file
/// AnnotateTarget: marks which target runs each call, with `compiler_begin` on every input edge
/// and `compiler_end` on every output edge of the call.
///
/// Input: a typed module (the op-support rules read dtypes and shapes), usually after
/// MergeComposite. Output: every call wrapped for the first target in the list that claims it
/// (by the target's op rules, or for a composite `<target>.…` by its name), unclaimed calls for
/// "default"; tuples and tuple items inherit their inputs' target; if, let and function bodies get
/// ends (spec §3). Composite function bodies are left untouched. Run MergeCompilerRegions next.

#include <algorithm>
#include <deque>

#include "ir/traversal.h"
#include "ir/function_attrs.h"
#include "pass/partition/annotations.h"
#include "pass/partition/partition_passes.h"

namespace byoc {

namespace annotate_target {

using partitioning::annotationTarget;
using partitioning::isCompilerBegin;
using partitioning::isCompilerEnd;
using partitioning::kDefaultTarget;
using partitioning::makeCompilerBegin;
using partitioning::makeCompilerEnd;

using TargetList = std::vector<std::shared_ptr<const Target>>;

/// The rewriter; `includeNonCallOps` false leaves tuples, tuple items, ifs and calls of variables
/// unannotated (their inputs only get ends).
class Annotator final : public ExprMutator {
 public:
  Annotator(const TargetList& targets, bool includeNonCallOps)
      : targets_(targets), includeNonCallOps_(includeNonCallOps) {}

 protected:
  /// Composite function bodies are never annotated: only calls of them are.
  bool shouldDescend(const Expr& node) override {
    const auto* function = node->as<FunctionNode>();
    return !function || !function->attrs.contains(attr::kComposite);
  }

 private:
  struct AnnotatedArgs {
    std::string target;       ///< the target the node takes when it has none of its own
    std::vector<Expr> args;   ///< the arguments, wrapped
  };

  /// Records that `node` (a rewritten node) runs on `target`; keeps it alive while recorded.
  void record(const Expr& node, std::string_view target) {
    auto known = std::find(targetNames_.begin(), targetNames_.end(), target);
    const auto position = known - targetNames_.begin();
    if (known == targetNames_.end()) targetNames_.emplace_back(target);
    targetOf_[node.get()] = {node, static_cast<int>(position)};
  }

  const std::string* recordedTarget(const Expr& node) const {
    const Recorded* found = targetOf_.find(node.get());
    return found ? &targetNames_[found->target] : nullptr;
  }

  /// Wraps each argument for a node of target `target` (or, when empty, of the target its
  /// arguments agree on): `begin(end(a, Ta), T)` for annotated producers, `begin(a, T)` for inputs.
  AnnotatedArgs annotateArgs(const std::vector<Expr>& args, const std::string& target = {}) {
    std::string agreed;
    std::vector<Expr> begins;
    std::vector<Expr> ends;
    for (const Expr& arg : args) {
      std::string argTarget(kDefaultTarget);
      if (isCompilerBegin(arg)) {
        // Annotated by an earlier run: keep a non-default begin, re-annotate a default one.
        const Expr& inner = arg->as<CallNode>()->args[0];
        if (annotationTarget(arg) != kDefaultTarget) begins.push_back(arg);
        else ends.push_back(inner);
        if (isCompilerEnd(inner)) argTarget = annotationTarget(inner);
      } else if (const std::string* producer = recordedTarget(arg)) {
        argTarget = *producer;
        const auto* call = arg->as<CallNode>();
        // A call without arguments (zeros, ones) is an input, not a region output.
        ends.push_back(call && call->args.empty() ? arg : makeCompilerEnd(arg, argTarget));
      } else {
        ends.push_back(arg);
      }
      if (agreed.empty()) agreed = argTarget;
      else if (agreed != argTarget) agreed = kDefaultTarget;
    }
    std::string nodeTarget = target.empty() ? agreed : target;
    if (agreed.empty()) return {nodeTarget, args};  // no arguments: nothing to annotate
    for (const Expr& end : ends) begins.push_back(makeCompilerBegin(end, nodeTarget));
    return {nodeTarget, std::move(begins)};
  }

  /// `expr` with a `compiler_end` of its recorded target, if it is an annotated node with inputs;
  /// a "default" end is re-targeted.
  Expr endOf(const Expr& expr) {
    if (const std::string* target = recordedTarget(expr)) {
      const auto* call = expr->as<CallNode>();
      const auto* tuple = expr->as<TupleNode>();
      bool hasInputs = expr->kind() == ExprKind::TupleGetItem || (tuple && !tuple->fields.empty()) ||
                       (call && !call->args.empty());
      if (!hasInputs) return expr;
      std::string copy = *target;
      Expr end = makeCompilerEnd(expr, copy);
      record(end, copy);
      return end;
    }
    if (isCompilerEnd(expr) && annotationTarget(expr) == kDefaultTarget) {
      const Expr& inner = expr->as<CallNode>()->args[0];
      const std::string* target = recordedTarget(inner);
      std::string copy = target ? *target : std::string(kDefaultTarget);
      Expr end = makeCompilerEnd(inner, copy);
      record(end, copy);
      return end;
    }
    return expr;
  }

  /// The first target in the list that claims the call, else "default".
  Result<std::string> chooseTarget(const CallNode& pre, const Expr& preExpr) {
    if (pre.opDef()) {
      for (const auto& target : targets_) {
        BYOC_ASSIGN_OR_RETURN(bool supported, target->supports(preExpr));
        if (supported) return target->name;
      }
    } else if (const auto* function = pre.callee->as<FunctionNode>()) {
      const AttrValue* composite = function->attrs.find(attr::kComposite);
      if (composite && composite->isString()) {
        const std::string& name = composite->asString();
        std::size_t dot = name.find('.');
        if (dot != std::string::npos) {
          for (const auto& target : targets_)
            if (target->name == name.substr(0, dot)) return target->name;
        }
      }
    }
    return std::string(kDefaultTarget);
  }

 protected:
  Result<Expr> rewriteCall(const Call& pre, const Call& post) override {
    if (isCompilerBegin(pre)) return Expr(post);  // handled by its consumer
    if (isCompilerEnd(pre)) {
      const Expr& input = post->args[0];
      if (!recordedTarget(input)) record(input, annotationTarget(post));
      return Expr(post);
    }
    // Already annotated for another target by an earlier run.
    if (!pre->args.empty() && isCompilerBegin(pre->args[0]) && annotationTarget(pre->args[0]) != kDefaultTarget)
      return Expr(post);
    if (pre->callee->kind() == ExprKind::Var && !includeNonCallOps_) {
      std::vector<Expr> ends;
      for (const Expr& arg : post->args) ends.push_back(endOf(arg));
      return callOverAnnotated(post, std::move(ends));
    }
    BYOC_ASSIGN_OR_RETURN(std::string target, chooseTarget(*pre, pre));
    AnnotatedArgs annotated = annotateArgs(post->args, target);
    Expr call = callOverAnnotated(post, std::move(annotated.args));
    record(call, target);
    return call;
  }

  /// The call `post` over `args`, its arguments wrapped in annotations. Annotations pass values
  /// through, so the call keeps its type (`withChildren`) and retyping skips it.
  static Expr callOverAnnotated(const Expr& post, std::vector<Expr> args) {
    args.insert(args.begin(), post->as<CallNode>()->callee);
    return withChildren(post, args);
  }

  Result<Expr> rewriteTuple(const Tuple& /*pre*/, const Tuple& post) override {
    if (post->fields.empty()) return Expr(post);  // like a call without arguments: no input to annotate
    if (!includeNonCallOps_) {
      std::vector<Expr> fields;
      for (const Expr& field : post->fields) fields.push_back(endOf(field));
      return Expr(TupleNode::make(std::move(fields), post->origin()));
    }
    AnnotatedArgs annotated = annotateArgs(post->fields);
    Expr rebuilt = TupleNode::make(std::move(annotated.args), post->origin());
    record(rebuilt, annotated.target);
    return rebuilt;
  }

  Result<Expr> rewriteTupleGetItem(const TupleGetItem& /*pre*/, const TupleGetItem& item) override {
    if (!includeNonCallOps_) return Expr(TupleGetItemNode::make(endOf(item->tuple), item->index, item->origin()));
    AnnotatedArgs annotated = annotateArgs({item->tuple});
    Expr rebuilt = TupleGetItemNode::make(annotated.args[0], item->index, item->origin());
    record(rebuilt, annotated.target);
    return rebuilt;
  }

  Result<Expr> rewriteFunction(const Function& /*pre*/, const Function& function) override {
    Expr body = endOf(function->body);
    if (body == function->body) return Expr(function);
    return Expr(FunctionNode::make(function->params, body, function->retType, function->attrs, function->origin()));
  }

  Result<Expr> rewriteLet(const Let& /*pre*/, const Let& let) override {
    Expr body = endOf(let->body);
    Expr value = let->value->kind() == ExprKind::Function ? let->value : annotateArgs({let->value}).args[0];
    return Expr(LetNode::make(let->var, value, body, let->origin()));
  }

  Result<Expr> rewriteIf(const If& /*pre*/, const If& branch) override {
    return Expr(IfNode::make(endOf(branch->cond), endOf(branch->thenBranch), endOf(branch->elseBranch), branch->origin()));
  }

 private:
  struct Recorded {
    Expr node;
    int target = 0;  ///< position in `targetNames_`
  };

  const TargetList& targets_;
  bool includeNonCallOps_;
  std::deque<std::string> targetNames_;  ///< the targets recorded so far (a few names; they never move)
  NodeMap<Recorded> targetOf_;
};

}  // namespace annotate_target

PassPtr createAnnotateTargetPass(std::vector<std::shared_ptr<const Target>> targets, bool includeNonCallOps) {
  PassInfo info;
  info.name = "AnnotateTarget";
  info.summary = "marks each call with the first target that supports it, by compiler_begin/compiler_end";
  info.description = "Input: a typed module, usually after MergeComposite. Every call gets the first target of the list "
                     "that claims it (op rules, or a composite named <target>.…), else \"default\"; its input edges get "
                     "compiler_begin and its output edges compiler_end. Run MergeCompilerRegions next.";
  info.options = {{"targets", AttrValue(""), "targets in priority order: built-in names or target files, comma-separated"},
                  {"include_non_call_ops", AttrValue(true), "annotate tuples, tuple items and if/let too"}};
  info.required = {"InferType"};
  return makeFunctionPass(std::move(info), [targets = std::move(targets), includeNonCallOps](
                                                const Function& function, const Module&, PassContext&) -> Result<Function> {
    annotate_target::Annotator annotator(targets, includeNonCallOps);
    BYOC_ASSIGN_OR_RETURN(Expr annotated, annotator.mutate(function));
    return downcast<FunctionNode>(annotated);
  });
}

}  // namespace byoc
