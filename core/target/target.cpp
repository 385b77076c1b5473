#include "target/target.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

#include "ir/op.h"
#include "pattern/pattern_parser.h"
#include "pattern/root_ops.h"
#include "support/json_document.h"
#include "support/limits.h"
#include "target/predicate_check.h"

namespace byoc {

namespace {

/// Whether `name` is a plain name: letters, digits, '_' and '-', not too long.
bool isPlainName(std::string_view name) {
  return !name.empty() && name.size() <= limits::kMaxPluginNameBytes &&
         std::all_of(name.begin(), name.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; });
}

/// Whether `codegen` has the form of a codegen's name: a plain name, or `plugin:` and one. Which
/// codegens exist is the codegen registry's to say, where the target is used (runtime_module.h).
bool isCodegenName(std::string_view codegen) {
  constexpr std::string_view prefix = "plugin:";
  return isPlainName(codegen.starts_with(prefix) ? codegen.substr(prefix.size()) : codegen);
}

using json = nlohmann::ordered_json;

std::string trim(std::string_view text) {
  std::size_t begin = text.find_first_not_of(" \t\n");
  if (begin == std::string_view::npos) return {};
  std::size_t end = text.find_last_not_of(" \t\n");
  return std::string(text.substr(begin, end - begin + 1));
}

/// Reads a target's JSON with error messages that name the JSON path.
class TargetReader {
 public:
  explicit TargetReader(std::string_view fileName) : fileName_(fileName) {}

  Result<Target> read(std::string_view text) {
    BYOC_ASSIGN_OR_RETURN(json root, parseJsonDocument<json>(text, fileName_));
    if (!root.is_object()) return fail("", "expected a JSON object");
    BYOC_ASSIGN_OR_RETURN(std::string format, string(root, "", "format"));
    if (format != "byoc-studio-target") return fail("/format", "expected \"byoc-studio-target\", found \"" + format + "\"");
    if (!root.contains("version") || !root["version"].is_number_integer()) return fail("/version", "expected an integer");
    // Compared as JSON numbers: a version past int's range must not wrap around to an old one.
    if (const json& version = root["version"]; version > kTargetFormatVersion)
      return fail("/version", "version " + version.dump() + " is newer than this program reads (" +
                                  std::to_string(kTargetFormatVersion) + ")");

    Target target;
    target.file = fileName_;
    BYOC_ASSIGN_OR_RETURN(target.name, string(root, "", "name"));
    if (target.name.empty()) return fail("/name", "expected a non-empty name");
    BYOC_ASSIGN_OR_RETURN(target.codegen, optionalString(root, "", "codegen"));
    if (!target.codegen.empty() && !isCodegenName(target.codegen))
      return fail("/codegen", "expected a codegen's name (letters, digits, '_' and '-'; \"plugin:NAME\" for a plugin's) or \"\", "
                              "found \"" + target.codegen + "\"");
    BYOC_ASSIGN_OR_RETURN(target.description, optionalString(root, "", "description"));
    BYOC_ASSIGN_OR_RETURN(target.preparePipeline, optionalString(root, "", "prepare"));
    BYOC_ASSIGN_OR_RETURN(target.optimizePipeline, optionalString(root, "", "optimize"));

    BYOC_ASSIGN_OR_RETURN(json rules, optionalArray(root, "", "op_rules"));
    for (std::size_t i = 0; i < rules.size(); ++i) {
      std::string path = "/op_rules/" + std::to_string(i);
      if (!rules[i].is_string()) return fail(path, "expected a rule as a string");
      auto rule = parseOpRule(rules[i].get<std::string>(), "at " + path);
      if (!rule) return makeError(rule.error().message, {fileName_});
      target.opRules.push_back(std::move(rule).value());
    }

    BYOC_ASSIGN_OR_RETURN(json rewrites, optionalArray(root, "", "rewrites"));
    for (std::size_t i = 0; i < rewrites.size(); ++i) {
      BYOC_ASSIGN_OR_RETURN(RewriteRow row, rewriteRow(rewrites[i], "/rewrites/" + std::to_string(i)));
      target.rewrites.push_back(std::move(row));
    }

    BYOC_ASSIGN_OR_RETURN(json patterns, optionalArray(root, "", "patterns"));
    for (std::size_t i = 0; i < patterns.size(); ++i) {
      std::string path = "/patterns/" + std::to_string(i);
      if (!patterns[i].is_object()) return fail(path, "expected an object with name and pattern");
      PatternEntry entry;
      BYOC_ASSIGN_OR_RETURN(entry.name, string(patterns[i], path, "name"));
      BYOC_ASSIGN_OR_RETURN(entry.pattern, string(patterns[i], path, "pattern"));
      const std::string row = " (" + entry.name + ")";
      auto compiled = parseTablePattern(entry.pattern, "");
      if (!compiled) {
        const SourceLocation& at = compiled.error().location;
        const std::string where = at.line > 0 ? std::to_string(at.line) + ":" + std::to_string(at.column) + ": " : "";
        return fail(path + "/pattern" + row, where + compiled.error().message);
      }
      if (std::string problem = compositeRootProblem(*compiled); !problem.empty()) {
        clearRedirects(*compiled);
        return fail(path + "/pattern" + row, problem);
      }
      entry.compiled = OwnedPattern(std::move(compiled).value());
      BYOC_ASSIGN_OR_RETURN(std::string check, optionalString(patterns[i], path, "check"));
      if (!check.empty()) {
        auto predicate = Predicate::parse(check);
        if (!predicate) return fail(path + "/check" + row, predicate.error().message);
        const std::vector<std::string> rootCalls = rootOps(entry.compiled.get()).value_or(std::vector<std::string>());
        if (Status checked = checkPredicate(*predicate, rootCalls); !checked)
          return fail(path + "/check" + row, checked.error().message);
        entry.check = std::move(predicate).value();
      }
      target.patterns.push_back(std::move(entry));
    }

    BYOC_ASSIGN_OR_RETURN(json keep, optionalArray(root, "", "prune_keep_ops"));
    for (std::size_t i = 0; i < keep.size(); ++i) {
      std::string path = "/prune_keep_ops/" + std::to_string(i);
      if (!keep[i].is_string()) return fail(path, "expected an op name");
      std::string op = keep[i].get<std::string>();
      if (!OpRegistry::global().find(op)) return fail(path, "unknown op '" + op + "'");
      target.pruneKeepOps.push_back(std::move(op));
    }
    return target;
  }

 private:
  /// `{"pattern": P, "replace": R}`; errors name the field and the line:column inside it.
  Result<RewriteRow> rewriteRow(const json& object, const std::string& path) const {
    if (!object.is_object()) return fail(path, "expected an object with pattern and replace");
    RewriteRow row;
    BYOC_ASSIGN_OR_RETURN(row.pattern, string(object, path, "pattern"));
    BYOC_ASSIGN_OR_RETURN(row.replace, string(object, path, "replace"));
    auto placed = [&](const char* field, const Diagnostic& error) {
      const SourceLocation& at = error.location;
      return fail(path + "/" + field, (at.line > 0 ? std::to_string(at.line) + ":" + std::to_string(at.column) + ": " : "") + error.message);
    };
    Result<Pattern> pattern = parsePattern(row.pattern, "");
    if (!pattern) return placed("pattern", pattern.error());
    row.compiled = OwnedPattern(std::move(pattern).value());
    Result<Replacement> replacement = Replacement::parse(row.replace, row.compiled.get(), "");
    if (!replacement) return placed("replace", replacement.error());
    row.replacement = std::move(replacement).value();
    return row;
  }

  Diagnostic fail(const std::string& path, const std::string& message) const {
    return makeError(path.empty() ? message : "at " + path + ": " + message, {fileName_});
  }

  Result<std::string> string(const json& object, const std::string& path, const char* key) const {
    if (!object.contains(key)) return fail(path + "/" + key, "missing");
    if (!object[key].is_string()) return fail(path + "/" + key, "expected a string");
    return object[key].get<std::string>();
  }

  Result<std::string> optionalString(const json& object, const std::string& path, const char* key) const {
    if (!object.contains(key)) return std::string();
    return string(object, path, key);
  }

  Result<json> optionalArray(const json& object, const std::string& path, const char* key) const {
    if (!object.contains(key)) return json::array();
    if (!object[key].is_array()) return fail(path + "/" + key, "expected an array");
    return object[key];
  }

  std::string fileName_;
};

}  // namespace

Result<Pattern> parseTablePattern(std::string_view text, std::string_view fileName) {
  BYOC_ASSIGN_OR_RETURN(Pattern pattern, parsePattern(text, fileName));
  if (pattern->kind() == PatternKind::Function)
    return makeError("expected a pattern of a call or another value, found a function pattern (nothing would call it)",
                     {std::string(fileName), 0, 0});
  return pattern;
}

Result<OpRule> parseOpRule(std::string_view text, std::string_view where) {
  OpRule rule;
  rule.text = std::string(text);
  auto fail = [&](const std::string& message) {
    return makeError(where.empty() ? message : std::string(where) + ": " + message);
  };
  // Errors inside the condition also name the ops it decides.
  auto failInCondition = [&](const std::string& message) {
    if (where.empty()) return makeError(message);
    std::string ops;
    for (const std::string& op : rule.ops) ops += (ops.empty() ? "" : ", ") + op;
    return makeError(std::string(where) + " (" + ops + "): " + message);
  };
  std::string_view head = text;
  std::size_t when = std::string_view::npos;
  // Find the keyword `when` as a whole word.
  for (std::size_t at = text.find("when"); at != std::string_view::npos; at = text.find("when", at + 1)) {
    bool startsWord = at == 0 || text[at - 1] == ' ' || text[at - 1] == '\t';
    bool endsWord = at + 4 == text.size() || text[at + 4] == ' ' || text[at + 4] == '\t';
    if (startsWord && endsWord) {
      when = at;
      break;
    }
  }
  if (when != std::string_view::npos) head = text.substr(0, when);

  std::size_t column = 1;
  while (!head.empty()) {
    std::size_t comma = head.find(',');
    std::string_view piece = head.substr(0, comma);
    std::string op = trim(piece);
    std::size_t opColumn = column + piece.find_first_not_of(" \t");
    if (op.empty()) return fail("1:" + std::to_string(column) + ": found '" + std::string(piece) + "', expected an op name");
    if (!OpRegistry::global().find(op))
      return fail("1:" + std::to_string(opColumn) + ": unknown op '" + op + "'");
    rule.ops.push_back(std::move(op));
    if (comma == std::string_view::npos) break;
    column += comma + 1;
    head = head.substr(comma + 1);
  }
  if (rule.ops.empty()) return fail("1:1: expected an op name");

  if (when != std::string_view::npos) {
    std::string_view condition = text.substr(when + 4);
    auto predicate = Predicate::parse(condition, {}, static_cast<int>(when) + 5);
    if (!predicate) return failInCondition(predicate.error().message);
    if (Status checked = checkPredicate(*predicate, rule.ops); !checked) return failInCondition(checked.error().message);
    rule.condition = std::move(predicate).value();
  }
  return rule;
}

Result<bool> Target::supports(const Expr& call) const {
  const auto* node = call->as<CallNode>();
  const OpDef* def = node ? node->opDef() : nullptr;
  if (!def) return false;
  for (const OpRule& rule : opRules) {
    for (const std::string& op : rule.ops) {
      if (op != def->name) continue;
      if (!rule.condition) return true;
      auto holds = rule.condition->evaluate(call);
      if (!holds) return makeError("target " + name + ", rule '" + rule.text + "': " + holds.error().message);
      return *holds;
    }
  }
  return false;
}

Result<Target> parseTarget(std::string_view json, std::string_view fileName) {
  return TargetReader(fileName).read(json);
}

std::string serializeTarget(const Target& target) {
  json root;
  root["format"] = "byoc-studio-target";
  root["version"] = kTargetFormatVersion;
  root["name"] = target.name;
  root["codegen"] = target.codegen;
  if (!target.description.empty()) root["description"] = target.description;
  if (!target.preparePipeline.empty()) root["prepare"] = target.preparePipeline;
  if (!target.optimizePipeline.empty()) root["optimize"] = target.optimizePipeline;
  root["op_rules"] = json::array();
  for (const OpRule& rule : target.opRules) root["op_rules"].push_back(rule.text);
  if (!target.rewrites.empty()) {
    root["rewrites"] = json::array();
    for (const RewriteRow& row : target.rewrites) root["rewrites"].push_back({{"pattern", row.pattern}, {"replace", row.replace}});
  }
  root["patterns"] = json::array();
  for (const PatternEntry& entry : target.patterns) {
    json row;
    row["name"] = entry.name;
    row["pattern"] = entry.pattern;
    if (entry.check) row["check"] = entry.check->text();
    root["patterns"].push_back(std::move(row));
  }
  if (!target.pruneKeepOps.empty()) root["prune_keep_ops"] = target.pruneKeepOps;
  return root.dump(2) + "\n";
}

}  // namespace byoc
