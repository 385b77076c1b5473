/// \file
/// The outlining step of PartitionGraph (spec §5.3): every annotated region of every function
/// becomes a global function called in its place.
///
/// Input: a typed module after MergeCompilerRegions, FlattenNestedTuples and
/// RemoveDefaultAnnotations (only non-default annotations remain). Output: for region N of target
/// T in function F, a function `@T_F_N` whose parameters `%T_N_i<k>` replace the region's begins
/// (`k`: the begin's position among the region's inputs; begins of one value share a parameter),
/// whose body returns the region's outputs (a tuple when there are several), with constant
/// arguments bound into the body, and attributes `Compiler`, `Primitive=1`, `Inline=1`,
/// `global_symbol`. The region's ends become the call (or a `TupleGetItem` of it). The call carries
/// the union of the origins of the region's nodes. Run NameMangleExtFuncs next.
///
/// The call, its global and its `TupleGetItem`s get the types type inference gives them (when
/// the region's body is typed), so that the nodes rebuilt above them keep their types and the
/// closing type inference only types the new functions instead of rebuilding the caller.
///
/// A region is outlined once every region feeding it is: a first walk over the function, where
/// an end leads to all of its region's outputs, orders the regions producers first (and finds a
/// region that feeds itself, which is an error); then each region's outputs are rewritten in that
/// order, so no outlining waits on another (no recursion, however long the chain of regions).

#include "ir/traversal.h"
#include "ir/function_attrs.h"
#include "pass/analysis/annotated_region_set.h"
#include "pass/infer_type.h"
#include "pass/partition/annotations.h"
#include "pass/analysis/function_utils.h"
#include "pass/partition/global_names.h"
#include "pass/partition/partition_passes.h"

namespace byoc {

namespace outline_regions {

using partitioning::annotationTarget;
using partitioning::isCompilerBegin;
using partitioning::isCompilerEnd;

/// What outlining has built for one region so far.
struct RegionFunction {
  /// Parameters in order, with the (rewritten) outside value each one receives.
  std::vector<std::pair<Var, Expr>> args;
  /// The parameter already made for a value feeding the region (several begins share one).
  NodeMap<Var> paramOfValue;
  /// Each output value of the region (a pre-rewrite node) → what replaces its ends.
  NodeMap<Expr> replacementOfOutput;
  /// Each begin's position among the region's inputs (the `k` of `_i<k>`).
  NodeMap<std::size_t> positionOfBegin;
};

class Outliner final : public ExprMutator {
 public:
  Outliner(AnnotatedRegionSet& regions, std::string functionName, GlobalNames& names, bool bindConstants)
      : regions_(regions),
        functionName_(std::move(functionName)),
        names_(names),
        bindConstants_(bindConstants),
        builtIndex_(regions.idCount(), -1) {}

  /// The functions outlined so far, in creation order.
  std::vector<std::pair<std::string, Function>>& outlined() { return outlined_; }

  /// `function` with every region outlined; errors placed in `module`.
  Result<Expr> outlineAll(const Function& function, const Module& module) {
    BYOC_ASSIGN_OR_RETURN(std::vector<AnnotatedRegion*> order, producersFirst(function, module));
    built_.reserve(order.size());
    for (AnnotatedRegion* region : order) {
      builtIndex_[region->id] = static_cast<int>(built_.size());
      BYOC_TRY(outline(*region, built_.emplace_back()));
    }
    return mutate(function);
  }

 protected:
  Result<Expr> rewriteCall(const Call& pre, const Call& post) override {
    if (isCompilerBegin(pre)) return parameterFor(pre, post);
    if (!isCompilerEnd(pre)) return Expr(post);
    // Regions are outlined producers first, so the region of an end met here is already outlined.
    return *builtOf(*regions_.regionOf(pre)).replacementOfOutput.find(pre->args[0].get());
  }
  /// Only annotations change: what holds none stays as it is.
  bool shouldDescend(const Expr& node) override { return partitioning::mayHoldAnnotations(*node); }

 private:
  Expr parameterFor(const Expr& begin, const Expr& post) {
    const Expr& input = post->as<CallNode>()->args[0];
    if (bindConstants_ && isConstantArgument(input)) return input;  // bound into the body
    AnnotatedRegion& region = *regions_.regionOf(begin);
    RegionFunction& built = builtOf(region);
    Expr value = partitioning::skipAnnotations(begin->as<CallNode>()->args[0]);
    if (const Var* shared = built.paramOfValue.find(value.get())) return *shared;
    if (built.positionOfBegin.size() == 0) {
      std::size_t position = 0;
      for (const Expr& input : region.ins) built.positionOfBegin.emplace(input.get(), position++);
    }
    std::size_t position = *built.positionOfBegin.find(begin.get());
    std::string name = annotationTarget(begin) + "_" + std::to_string(region.id) + "_i" + std::to_string(position);
    Var param = VarNode::make(std::move(name), begin->type(), begin->origin());
    built.args.emplace_back(param, input);
    built.paramOfValue.emplace(value.get(), param);
    return param;
  }

  static bool isConstantArgument(const Expr& value) {
    if (value->kind() == ExprKind::Constant) return true;
    const auto* tuple = value->as<TupleNode>();
    return tuple && std::all_of(tuple->fields.begin(), tuple->fields.end(),
                                [](const Expr& field) { return field->kind() == ExprKind::Constant; });
  }

  /// The union of the origins of every node of an outlined body.
  static Origin originOfBody(const Expr& body) {
    std::vector<Origin> parts;
    postOrderVisit(body, [&](const Expr& node) {
      if (!node->origin().empty()) parts.push_back(node->origin());
    });
    return Origin::unite(parts);
  }

  /// The regions in the order the recursive definition outlines them: a region once the regions
  /// its outputs' rewriting meets (in the order met), each after the ones its outputs need. An
  /// end leads to every output of its region, the first time it is met.
  Result<std::vector<AnnotatedRegion*>> producersFirst(const Function& function, const Module& module) {
    enum class State : char { Unopened, Open, Done };
    std::vector<State> state(regions_.idCount(), State::Unopened);
    NodeMap<int> openedBy;  // the end that opened each open region → its id
    NodeSet visited;
    std::vector<AnnotatedRegion*> order;
    auto done = [&](const ExprNode* node) { return visited.contains(node); };
    auto childrenOf = [&](const ExprNode& node, std::vector<const ExprNode*>& children) -> Status {
      const Expr expr(&node);
      if (!isCompilerEnd(expr)) {
        for (int i = 0, count = childCount(node); i < count; ++i)
          if (const ExprNode* child = childAt(node, i); partitioning::mayHoldAnnotations(*child)) children.push_back(child);
        return Status::ok();
      }
      AnnotatedRegion& region = *regions_.regionOf(expr);
      if (state[region.id] == State::Open) {
        Diagnostic error = makeError("the region of " + region.target +
                                     " takes a value computed from its own output: outlining it would create a cycle");
        if (auto location = module.locate(expr)) error.location = *location;
        return error;
      }
      if (state[region.id] == State::Done) return Status::ok();  // its outputs are walked already
      state[region.id] = State::Open;
      openedBy.emplace(&node, region.id);
      NodeSet outputs;
      for (const Expr& end : region.outs)
        if (const ExprNode* value = end->as<CallNode>()->args[0].get(); outputs.insert(value)) children.push_back(value);
      return Status::ok();
    };
    auto visit = [&](const ExprNode& node) -> Status {
      visited.insert(&node);
      if (const int* opened = openedBy.find(&node)) {
        state[*opened] = State::Done;
        order.push_back(&regions_.withId(*opened));
      }
      return Status::ok();
    };
    BYOC_TRY(visitChildrenFirst(function.get(), done, childrenOf, visit));
    return order;
  }

  Status outline(AnnotatedRegion& region, RegionFunction& built) {
    // Outputs: the values under the region's ends, once each, in the order the ends were met.
    std::vector<Expr> outputs;
    std::vector<Expr> fields;
    NodeSet seen;
    for (const Expr& end : region.outs) {
      const Expr& value = end->as<CallNode>()->args[0];
      if (!seen.insert(value.get())) continue;
      outputs.push_back(value);
      BYOC_ASSIGN_OR_RETURN(Expr field, mutate(value));  // rewrites the region's inside; begins become parameters
      fields.push_back(std::move(field));
    }
    Origin origin = originOfBody(TupleNode::make(fields));
    Expr body = fields.size() == 1 ? fields[0] : Expr(TupleNode::make(fields, origin));

    std::vector<Var> params;
    std::vector<Expr> callArgs;
    for (const auto& [param, value] : built.args) {
      params.push_back(param);
      callArgs.push_back(value);
    }

    std::string name = names_.fresh(region.target + "_" + functionName_ + "_" + std::to_string(region.id));
    Attrs attrs{{attr::kCompiler, region.target}, {attr::kPrimitive, 1}, {attr::kInline, 1}, {attr::kGlobalSymbol, name}};
    outlined_.emplace_back(name, FunctionNode::make(std::move(params), body, {}, std::move(attrs), origin));

    const Type globalType = outlinedFunctionType(outlined_.back().second->params, fields);
    const Type resultType = globalType ? globalType->as<FuncTypeNode>()->ret : Type();
    Expr call = CallNode::make(GlobalVarNode::make(name, origin, globalType), std::move(callArgs), {}, origin, resultType);
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      Expr replacement = outputs.size() == 1 ? call
                                             : Expr(TupleGetItemNode::make(call, static_cast<int>(i), outputs[i]->origin(),
                                                                           resultType ? fields[i]->type() : Type()));
      built.replacementOfOutput.emplace(outputs[i].get(), replacement);
    }
    return Status::ok();
  }

  RegionFunction& builtOf(const AnnotatedRegion& region) { return built_[static_cast<std::size_t>(builtIndex_[region.id])]; }

  AnnotatedRegionSet& regions_;
  std::string functionName_;
  GlobalNames& names_;
  bool bindConstants_;
  std::vector<RegionFunction> built_;  ///< in outlining order
  std::vector<int> builtIndex_;        ///< by region id: the region's entry in `built_`
  std::vector<std::pair<std::string, Function>> outlined_;
};

Result<PassResult> outlineRegions(const Module& module, bool bindConstants, const PassContext& context) {
  GlobalNames names(module);
  Module result = module;
  bool changed = false;
  for (const auto& [name, function] : module.functions()) {
    if (isPrimitiveOrExternal(*function)) continue;
    BYOC_ASSIGN_OR_RETURN(AnnotatedRegionSet regions, AnnotatedRegionSet::create(function, &context, &module));
    if (regions.regions().empty()) continue;
    Outliner outliner(regions, name, names, bindConstants);
    BYOC_ASSIGN_OR_RETURN(Expr outlinedMain, outliner.outlineAll(function, module));
    result.set(name, downcast<FunctionNode>(outlinedMain));
    BYOC_TRY(context.checkCancelled());
    for (auto& [outlinedName, outlinedFunction] : outliner.outlined()) result.set(outlinedName, outlinedFunction);
    changed = true;
  }
  if (!changed) return PassResult{module, false};
  BYOC_ASSIGN_OR_RETURN(Module typed, inferTypes(result, TypeReuse::KeepTypedSubgraphs, &context));
  return PassResult{std::move(typed), true};
}

}  // namespace outline_regions

PassPtr createOutlineRegionsPass(bool bindConstants) {
  PassInfo info;
  info.name = "OutlineRegions";
  info.summary = "turns each annotated region into a global function with Compiler, Primitive, Inline and global_symbol";
  info.description = "Third step of PartitionGraph: region N of target T in function F becomes @T_F_N with parameters "
                     "%T_N_i<k> (k: the begin's position among the region's inputs), attributes Compiler, Primitive, "
                     "Inline and global_symbol, called in the region's place; several outputs return a tuple.";
  info.options = {{"bind_constants", AttrValue(true), "bind constant arguments into the outlined functions"}};
  return makeModulePass(std::move(info), [bindConstants](const Module& module, PassContext& context) {
    return outline_regions::outlineRegions(module, bindConstants, context);
  });
}

}  // namespace byoc
