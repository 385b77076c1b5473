#include <iostream>

#include "commands.h"
#include "model_input.h"
#include "pass/transforms/pattern_transforms.h"
#include "pattern/find_matches.h"
#include "pattern_input.h"
#include "step_runner.h"

namespace byoc::cli {

namespace {

/// `a call of nn.relu (model.relay:4:8)`: a node and, when known, where it was written.
std::string describeWithPlace(const Module& module, const Expr& node) {
  std::string text = describeExpr(node);
  if (std::optional<SourceLocation> place = module.locate(node)) text += " (" + place->str() + ")";
  else if (!node->origin().empty() && module.provenance()) {
    auto name = module.provenance()->names.find(node->origin().ids()[0]);
    if (name != module.provenance()->names.end()) text += " (" + name->second + ")";
  }
  return text;
}

}  // namespace

int runMatch(const Options& options) {
  Result<OwnedPattern> pattern = loadPattern(options);
  if (!pattern) return reportError(pattern.error());
  Result<Module> module = loadTypedModel(options);
  if (!module) return reportError(module.error());
  if (options.has("--partition")) return runStepsAndEmit(options, *module, {createPatternPartitionPass(*pattern)});

  std::size_t count = 0;
  for (const auto& [name, function] : module->functions()) {
    for (const PatternMatch& match : findMatches(pattern->get(), function)) {
      std::cout << "match " << ++count << " in @" << name << ": " << describeWithPlace(*module, match.root) << "\n";
      for (const Expr& node : match.nodes)
        if (node != match.root && node->kind() != ExprKind::Op) std::cout << "  " << describeWithPlace(*module, node) << "\n";
    }
  }
  std::cout << count << (count == 1 ? " match\n" : " matches\n");
  return 0;
}

}  // namespace byoc::cli
