#pragma once
/// \file
/// A target is data: its name, the codegen that runs its regions, op-support rules, an ordered
/// pattern table, the passes and rewrites its flow runs first, and which regions are worth
/// offloading.
/// Targets are read from JSON files (see docs/targets.md); nothing about a target is compiled in.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/expr.h"
#include "pattern/owned_pattern.h"
#include "pattern/replacement.h"
#include "support/result.h"
#include "target/predicate.h"

namespace byoc {

/// Current version of the target file format.
inline constexpr int kTargetFormatVersion = 1;

/// "These ops are supported when this condition holds" (`nn.relu, tanh when dtype(arg0) == "float32"`).
struct OpRule {
  std::vector<std::string> ops;
  /// Absent means "always".
  std::optional<Predicate> condition;
  /// The rule as written.
  std::string text;
};

/// One row of the pattern table: a composite name, its pattern (in the pattern language),
/// and an optional check on the matched root call.
struct PatternEntry {
  std::string name;
  /// The pattern as written.
  std::string pattern;
  /// The parsed pattern (docs/patterns.md), what MergeComposite partitions with.
  OwnedPattern compiled;
  std::optional<Predicate> check;
};

/// A rewrite row: every match of `pattern` replaced by `replace` (pattern/replacement.h) until
/// nothing changes, before the pattern table runs.
struct RewriteRow {
  /// The pattern and the replacement as written.
  std::string pattern;
  std::string replace;
  OwnedPattern compiled;
  std::optional<Replacement> replacement;
};

/// A backend description.
struct Target {
  std::string name;
  /// The file it was read from, which errors in its fields name ("" when built in code).
  std::string file;
  /// Which codegen compiles its regions: "dnnl", "reference", "plugin:NAME" (a codegen plugin's),
  /// or "" (none: partition only).
  std::string codegen;
  std::string description;
  /// Pipeline (pass-pipeline text) the target's flow runs before partitioning; may be empty.
  std::string preparePipeline;
  /// Pipeline run on each of its outlined functions after partitioning (TVM's
  /// `relay.ext.<target>.optimize`); may be empty.
  std::string optimizePipeline;
  std::vector<OpRule> opRules;
  /// Run in order after the prepare pipeline and before the pattern table.
  std::vector<RewriteRow> rewrites;
  /// In priority order: earlier rows win.
  std::vector<PatternEntry> patterns;
  /// If not empty, regions containing none of these ops are not worth offloading and are inlined back.
  std::vector<std::string> pruneKeepOps;

  /// Whether the target claims `call` (an op call): the first rule naming its op decides.
  /// Calls of ops no rule names are not supported. Errors come from evaluating the condition.
  Result<bool> supports(const Expr& call) const;
};

/// Reads a target file's JSON, checking every rule, check and pattern row; errors name `fileName`,
/// the JSON path and, inside rules and patterns, line:column.
Result<Target> parseTarget(std::string_view json, std::string_view fileName = "<target>");
/// Writes the JSON form; `parseTarget(serializeTarget(t))` gives back the same target.
std::string serializeTarget(const Target& target);

/// Parses the pattern of a pattern-table row: any pattern but a bare function pattern, which
/// nothing would call. A syntax error carries its line:column; the function-pattern error has none.
/// Loading a target and running a table also refuse a row whose root may match a lone value
/// (`compositeRootProblem` in pattern/root_ops.h); a row being edited may be one for a while.
Result<Pattern> parseTablePattern(std::string_view text, std::string_view fileName = "<pattern>");

/// Parses one op rule: `op[, op…] [when condition]`; every op must be registered, and the condition
/// must pass `checkPredicate` for those ops. Errors start with `where`; one inside the condition
/// also names the ops: `<where> (nn.conv2d): 1:22: unknown function 'dtyp'; …`.
Result<OpRule> parseOpRule(std::string_view text, std::string_view where = {});

}  // namespace byoc
