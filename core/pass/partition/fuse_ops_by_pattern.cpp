/// \file
/// FuseOpsByPattern: the Relax flow's first step (spec §7.1). Each pattern-table row, in order,
/// groups the calls it matches into a global function `fused_<ops>` with `Primitive=1` and
/// `Composite=<row name>`, called in the group's place.
///
/// Input: a typed module. Nodes are visited producers first (Relax's binding order); a match that
/// overlaps an earlier group of the same row absorbs it if it contains all of it, and is dropped
/// otherwise. A member read outside its group becomes an extra output (a tuple, read by index).
/// Identical functions are shared. Constants stay inside a group's function unless
/// `bind_constants` is off (then they become parameters `param_<k>`, as TVM's backends ask, so
/// that a codegen reads weights from a composite's inputs). With `reject_leaking_intermediates`, a
/// match whose intermediate is read outside it is dropped. With `annotate_codegen`, each call
/// goes through a public wrapper `<function>_<codegen>` with `Codegen` and `global_symbol`, ready
/// for RunCodegen. Otherwise run MergeCompositeFunctions next.

#include <algorithm>

#include "ir/op.h"
#include "ir/function_attrs.h"
#include "ir/traversal.h"
#include "pass/analysis/binding_order.h"
#include "pass/analysis/function_utils.h"
#include "pass/analysis/group_outliner.h"
#include "pass/infer_type.h"
#include "pass/partition/composite_calls.h"
#include "pass/partition/composite_rules.h"
#include "pass/partition/global_names.h"
#include "pass/partition/partition_passes.h"
#include "pattern/indexed_graph.h"
#include "pattern/matcher.h"

namespace byoc {

namespace fuse_ops_by_pattern {

/// Functions the pass fuses in: not already fused, composite or handed to a codegen.
bool isEntry(const FunctionNode& function) {
  return !hasNonzeroAttr(function.attrs, attr::kPrimitive) && !function.attrs.contains(attr::kComposite) &&
         !function.attrs.contains(attr::kCodegen) && !function.attrs.contains(attr::kCompiler);
}

/// The nodes of a function's own dataflow (not inside function literals), in binding order, from
/// `ordered`, the binding order of its body.
std::vector<Expr> dataflowNodes(const std::vector<Expr>& ordered) {
  std::vector<Expr> nodes;
  NodeSet insideLiterals;
  nodes.reserve(ordered.size());
  for (auto node = ordered.rbegin(); node != ordered.rend(); ++node) {
    if (insideLiterals.contains(node->get())) continue;
    if (const auto* literal = (*node)->as<FunctionNode>())
      postOrderVisit(literal->body, [&](const Expr& inner) { insideLiterals.insert(inner.get()); });
  }
  for (const Expr& node : ordered)
    if (!insideLiterals.contains(node.get())) nodes.push_back(node);
  return nodes;
}

/// Whether `matched` (the calls and items of one match: a pattern's few nodes) holds `node`.
bool holds(const std::vector<Expr>& matched, const ExprNode* node) {
  return std::any_of(matched.begin(), matched.end(), [&](const Expr& member) { return member.get() == node; });
}

/// Whether a matched node other than the match's `root` is read outside the match.
bool leaks(const IndexedGraph& graph, const Expr& root, const std::vector<Expr>& matched) {
  for (const Expr& member : matched) {
    if (member == root) continue;
    for (int user : graph.outputs(graph.indexOf(member)))
      if (!holds(matched, graph.node(user).get())) return true;
  }
  return false;
}

/// The groups one row forms in one function, producers first.
Result<std::vector<NodeGroup>> findGroups(const Function& function, const std::vector<Expr>& bodyOrder, const CompositeRule& rule,
                                          bool rejectLeaking, const PassContext& context) {
  IndexedGraph graph(function->body);
  PatternMatcher matcher(graph);
  std::vector<std::vector<Expr>> members;
  NodeMap<std::size_t> groupOf;
  std::vector<Expr> matched;
  std::vector<std::size_t> touched;
  for (const Expr& node : dataflowNodes(bodyOrder)) {
    BYOC_TRY(context.checkCancelled());
    if (node->kind() != ExprKind::Call || !matcher.match(rule.pattern.get(), node)) continue;
    if (rule.check) {
      BYOC_ASSIGN_OR_RETURN(bool accepted, rule.check->evaluate(node));
      if (!accepted) continue;
    }
    matched.clear();
    for (const auto& [pattern, exprs] : matcher.memo()) {
      if (pattern->kind() != PatternKind::Call && pattern->kind() != PatternKind::TupleGetItem) continue;
      for (const Expr& expr : exprs)
        if ((expr->kind() == ExprKind::Call || expr->kind() == ExprKind::TupleGetItem) && !holds(matched, expr.get()))
          matched.push_back(expr);
    }
    // An earlier group of this row is absorbed when the match holds all of it; otherwise the match is dropped.
    touched.clear();
    for (const Expr& expr : matched)
      if (const std::size_t* found = groupOf.find(expr.get());
          found && std::find(touched.begin(), touched.end(), *found) == touched.end())
        touched.push_back(*found);
    bool contained = std::all_of(touched.begin(), touched.end(), [&](std::size_t g) {
      return std::all_of(members[g].begin(), members[g].end(), [&](const Expr& m) { return holds(matched, m.get()); });
    });
    if (!contained || (rejectLeaking && leaks(graph, node, matched))) continue;
    std::size_t target = members.size();
    members.emplace_back();
    for (std::size_t g : touched) members[g].clear();
    for (const Expr& expr : matched) {
      members[target].push_back(expr);
      groupOf[expr.get()] = target;
    }
  }
  std::vector<NodeGroup> result;
  for (auto& group : members)
    if (!group.empty()) result.push_back({std::move(group)});
  return result;
}

/// `fused_` and the Relax names of the ops of the group's calls (`relax.` and the op's name), in
/// binding order, dots made underscores: `fused_relax_nn_conv2d_relax_nn_relu`.
std::string fusedName(const Expr& body) {
  std::string name = "fused";
  for (const Expr& node : bindingOrder(body)) {
    const auto* call = node->as<CallNode>();
    if (!call) continue;
    if (call->opDef()) name += "_relax." + call->opDef()->name;
    else if (const auto* global = call->callee->as<GlobalVarNode>())
      name += "_" + (global->name.starts_with("fused_") ? global->name.substr(6) : global->name);
  }
  std::replace(name.begin(), name.end(), '.', '_');
  return name;
}

Result<PassResult> fuse(const Module& module, const std::vector<CompositeRule>& rules, const FuseOpsByPatternOptions& options,
                        const PassContext& context) {
  Module result = module;
  GlobalNames names(module, GlobalNames::Suffix::Appended);
  SharedFunctions created;  // an equal group reuses the function made first
  bool changed = false;
  for (const CompositeRule& rule : rules) {
    bool ruleChanged = false;
    std::vector<std::string> entries;
    for (const auto& [name, function] : result.functions())
      if (isEntry(*function)) entries.push_back(name);
    for (const std::string& entry : entries) {
      BYOC_TRY(context.checkCancelled());
      Function function = result.find(entry);
      // Groups are outlined into global functions here, so no composite lies inside `function`.
      const std::set<std::string> called = opsCalledIn(function);
      if (!mayMatch(rule, CalledOps{called, called})) continue;
      const std::vector<Expr> bodyOrder = bindingOrder(function->body);
      BYOC_ASSIGN_OR_RETURN(std::vector<NodeGroup> groups,
                            findGroups(function, bodyOrder, rule, options.rejectLeakingIntermediates, context));
      if (groups.empty()) continue;
      GroupFunctionMaker maker;
      maker.liftConstants = !options.bindConstants;
      maker.define = [&](std::size_t, std::vector<Var> params, Expr body) -> Result<std::string> {
        BYOC_TRY(context.checkCancelled());
        Function fused = FunctionNode::make(std::move(params), body, {}, Attrs{{attr::kPrimitive, 1}, {attr::kComposite, rule.name}},
                                            body->origin());
        if (const std::string* shared = created.find(fused)) return *shared;
        std::string name = names.fresh(fusedName(body));
        created.add(fused, name);
        result.set(name, fused);
        return name;
      };
      BYOC_ASSIGN_OR_RETURN(Function rewritten, outlineGroups(function, bodyOrder, groups, maker));
      result.set(entry, rewritten);
      ruleChanged = true;
    }
    if (!ruleChanged) continue;
    BYOC_ASSIGN_OR_RETURN(result, inferTypes(result, TypeReuse::KeepTypedSubgraphs, &context));  // later rows' checks read types
    changed = true;
  }
  if (!changed) return PassResult{module, false};
  if (options.annotateCodegen) {
    BYOC_ASSIGN_OR_RETURN(result, wrapCompositesForCodegen(result));
  }
  return PassResult{std::move(result), true};
}

}  // namespace fuse_ops_by_pattern

Result<PassPtr> createFuseOpsByPatternPass(const std::vector<std::shared_ptr<const Target>>& targets,
                                           FuseOpsByPatternOptions options) {
  BYOC_ASSIGN_OR_RETURN(std::vector<CompositeRule> rules, compileCompositeRules(targets));
  PassInfo info;
  info.name = "FuseOpsByPattern";
  info.summary = "groups each match of the targets' pattern tables into a global composite function (Relax)";
  info.description = "Input: a typed module. Each pattern-table row, in order, outlines its matches (producers first) "
                     "into fused_<ops> functions with Primitive=1 and Composite; members read outside a group become "
                     "extra outputs. Without bind_constants, constants become parameters param_<k>. With "
                     "annotate_codegen, calls go through <function>_<codegen> wrappers. "
                     "Run MergeCompositeFunctions next.";
  info.required = {"InferType"};
  info.options = {{"targets", AttrValue(""), "targets whose pattern tables run, comma-separated"},
                  {"bind_constants", AttrValue(true), "keep the constants a match reads inside its function"},
                  {"annotate_codegen", AttrValue(false), "wrap each composite for its codegen (no MergeCompositeFunctions)"},
                  {"reject_leaking_intermediates", AttrValue(false),
                   "drop a match whose intermediate value is read outside it (TVM backends' has_leaking_intermediate_variables)"}};
  return makeModulePass(std::move(info), [rules = std::move(rules), options](const Module& module, PassContext& context) {
    return fuse_ops_by_pattern::fuse(module, rules, options, context);
  });
}

}  // namespace byoc
