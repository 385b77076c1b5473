#include <iostream>

#include "commands.h"
#include "model_input.h"
#include "pattern/find_matches.h"
#include "pattern/owned_pattern.h"
#include "pattern/pattern_json.h"
#include "pattern/pattern_parser.h"
#include "support/file_io.h"

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
  std::optional<std::string> text = options.value("--pattern");
  std::string source = "--pattern";
  if (std::optional<std::string> file = options.value("--pattern-file")) {
    Result<std::string> content = readFile(*file);
    if (!content) return reportError(content.error());
    text = *content;
    source = *file;
  }
  if (!text) return reportError(makeError("give --pattern TEXT or --pattern-file FILE"));
  Result<Pattern> parsed = source.ends_with(".json") ? parsePatternJson(*text, source) : parsePattern(*text, source);
  if (!parsed) return reportError(parsed.error());
  const OwnedPattern pattern(std::move(parsed).value());
  Result<Module> module = loadTypedModel(options);
  if (!module) return reportError(module.error());

  std::size_t count = 0;
  for (const auto& [name, function] : module->functions()) {
    for (const PatternMatch& match : findMatches(pattern.get(), function)) {
      std::cout << "match " << ++count << " in @" << name << ": " << describeWithPlace(*module, match.root) << "\n";
      for (const Expr& node : match.nodes)
        if (node != match.root && node->kind() != ExprKind::Op) std::cout << "  " << describeWithPlace(*module, node) << "\n";
    }
  }
  std::cout << count << (count == 1 ? " match\n" : " matches\n");
  return 0;
}

}  // namespace byoc::cli
