/// \file
/// MergeComposite: outlines every match of each pattern-table row into a composite function
/// literal called in place, as TVM's MergeComposite does (spec §2).
///
/// Input: a typed module. Output: for each row, in table order (earlier rows win), every accepted
/// match becomes `fn (%FunctionVar_g_k…, PartitionedFromPattern="…", Composite="<row name>") {…}(args)`;
/// later rows cannot match inside earlier composites. Functions handed to an external compiler are
/// left alone. Run AnnotateTarget next.

#include "pass/infer_type.h"
#include "ir/function_attrs.h"
#include "pass/partition/composite_rules.h"
#include "pass/partition/partition_passes.h"
#include "pattern/partition.h"

namespace byoc {

namespace merge_composite {

/// Runs every rule over one function, which stays typed after each (checks read types).
Result<Function> mergeComposites(const Function& function, const std::vector<CompositeRule>& rules, const PassContext& context) {
  Expr current = function;
  CalledOps called = calledOpsOf(function);
  std::shared_ptr<const IndexedGraph> graph;  // of `current`, kept while rules find nothing
  for (const CompositeRule& rule : rules) {
    if (!mayMatch(rule, called)) continue;
    BYOC_TRY(context.checkCancelled());
    PartitionCheck check = [&](const Expr& root) -> Result<bool> {
      BYOC_TRY(context.checkCancelled());  // a cancel ends the walk at the next match
      if (!rule.check) return true;
      Result<bool> accepted = rule.check->evaluate(root);
      if (!accepted) return makeError("check of pattern " + rule.name + ": " + accepted.error().message);
      return accepted;
    };
    if (!graph) graph = std::make_shared<const IndexedGraph>(current);
    BYOC_ASSIGN_OR_RETURN(Expr partitioned,
                          partition(rule.pattern.get(), graph, Attrs{{attr::kComposite, rule.name}}, check, ReturnTypes::Recorded));
    if (partitioned == current) continue;
    graph.reset();
    current = partitioned;
    // Partitioning a typed function gives a typed one (see partition.h); a root without a type
    // means something below it has none.
    if (!current->type()) {
      Module single;
      single.set("f", downcast<FunctionNode>(current));
      BYOC_ASSIGN_OR_RETURN(Module typed, inferTypes(single, TypeReuse::KeepTypedSubgraphs, &context));
      current = typed.find("f");
    }
    // Calls now inside composites are out of reach of the later rows; the set of all calls stays.
    called.outsideComposites = opsCalledOutsideComposites(downcast<FunctionNode>(current));
  }
  return downcast<FunctionNode>(current);
}

}  // namespace merge_composite

Result<PassPtr> createMergeCompositePass(const std::vector<std::shared_ptr<const Target>>& targets) {
  BYOC_ASSIGN_OR_RETURN(std::vector<CompositeRule> rules, compileCompositeRules(targets));
  PassInfo info;
  info.name = "MergeComposite";
  info.summary = "outlines each match of the targets' pattern tables into a composite function";
  info.description = "Input: a typed module. For each pattern-table row in order (earlier rows win), every match becomes "
                     "a function literal with Composite and PartitionedFromPattern, called in place. Run AnnotateTarget next.";
  info.options = {{"targets", AttrValue(""), "targets whose pattern tables run, comma-separated"}};
  info.required = {"InferType"};
  return makeFunctionPass(std::move(info), [rules = std::move(rules)](const Function& function, const Module&, PassContext& context) {
    return merge_composite::mergeComposites(function, rules, context);
  });
}

}  // namespace byoc
