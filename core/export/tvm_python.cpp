#include "export/tvm_python.h"

#include <map>
#include <set>

#include "export/python_text.h"
#include "export/tvm_pattern.h"
#include "export/tvm_predicate.h"

namespace byoc {

namespace {

constexpr const char* kIndent = "    ";

/// `text` as a one-line comment.
std::string comment(std::string_view text) {
  std::string line = "# ";
  for (char c : text) line += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
  return line + "\n";
}

/// `def name(parameter):` with a docstring and a body of statements.
std::string function(const std::string& name, const char* parameter, std::string_view doc,
                     const std::vector<std::string>& body) {
  std::string text = "def " + name + "(" + parameter + "):\n" + kIndent + pythonDocstring(doc, kIndent) + "\n";
  for (const std::string& statement : body) text += kIndent + statement + "\n";
  return text;
}

class ModuleWriter {
 public:
  explicit ModuleWriter(const Target& target) : target_(target), taken_(tvmPatternApiNames()) {
    taken_.insert({"pattern_table", "register_pattern_table"});
  }

  Result<std::string> run() {
    BYOC_TRY(opRules());
    BYOC_TRY(patterns());
    std::string text = header();
    text += pythonConditionHelpers(helpers_);
    for (const std::string& block : blocks_) text += block + "\n\n";
    return text + patternTable();
  }

 private:
  std::string header() const {
    std::string doc = target_.name + " for TVM's bring-your-own-codegen flow, written by BYOC Studio.\n";
    if (!target_.description.empty()) doc += "\n" + target_.description + "\n";
    doc += "\nImporting this module registers, for the compiler \"" + target_.name +
           "\":\n"
           "* one op-support function per op rule, as the \"target." + target_.name +
           "\" attribute of each op it is\n"
           "  the first rule to name (AnnotateTarget offloads a call when it returns True);\n"
           "* the composite patterns, in priority order, as the pattern table of \"" + target_.name +
           "\"\n"
           "  (MergeComposite(pattern_table())).\n";
    if (!target_.preparePipeline.empty() || !target_.rewrites.empty() || !target_.pruneKeepOps.empty()) doc += "\n";
    if (!target_.preparePipeline.empty())
      doc += "Before partitioning, the target's flow runs " + target_.preparePipeline + ".\n";
    if (!target_.rewrites.empty())
      doc += "Then it rewrites the model with " + std::to_string(target_.rewrites.size()) +
             " rewrite row(s), which this module does not register: run `byoc rewrite` (or write a\n"
             "DFPatternCallback) for each before partitioning in TVM.\n";
    if (!target_.pruneKeepOps.empty()) {
      doc += "Partitioned regions containing none of these ops are not worth offloading:\n";
      for (std::size_t i = 0; i < target_.pruneKeepOps.size(); ++i)
        doc += (i ? ", " : "") + target_.pruneKeepOps[i];
      doc += ".\n";
    }
    std::string text = pythonDocstring(doc, "") + "\nimport tvm\nfrom tvm import relay\n";
    if (!imports_.empty()) {
      text += "from tvm.relay.dataflow_pattern import ";
      bool first = true;
      for (const std::string& name : imports_) {
        text += (first ? "" : ", ") + name;
        first = false;
      }
      text += "\n";
    }
    return text + "from tvm.relay.op.contrib.register import register_pattern_table\n\n\n";
  }

  /// The body of a predicate function: `return <condition>`.
  Result<std::string> condition(const Predicate& predicate) {
    BYOC_ASSIGN_OR_RETURN(PythonCondition python, predicateAsPython(predicate));
    helpers_.insert(python.helpers.begin(), python.helpers.end());
    return "return " + python.text;
  }

  Status opRules() {
    std::set<std::string> decided;
    for (std::size_t i = 0; i < target_.opRules.size(); ++i) {
      const OpRule& rule = target_.opRules[i];
      std::string decorators;
      for (const std::string& op : rule.ops)
        if (decided.insert(op).second)
          decorators += "@tvm.ir.register_op_attr(" + pythonString(op) + ", " + pythonString("target." + target_.name) + ")\n";
      if (decorators.empty()) {
        blocks_.push_back(comment("op rule " + std::to_string(i) + " (" + rule.text +
                                  "): every op it names is decided by an earlier rule"));
        continue;
      }
      std::string body = "return True";
      if (rule.condition) {
        Result<std::string> python = condition(*rule.condition);
        if (!python) return makeError("at /op_rules/" + std::to_string(i) + ": " + python.error().message);
        body = *python;
      }
      blocks_.push_back(decorators + function(uniquePythonName("_op_rule_" + std::to_string(i), taken_), "expr",
                                              rule.text, {body}));
    }
    return Status::ok();
  }

  Status patterns() {
    for (std::size_t i = 0; i < target_.patterns.size(); ++i) {
      const PatternEntry& entry = target_.patterns[i];
      const std::string where = "at /patterns/" + std::to_string(i);
      Result<PythonPattern> pattern = patternAsPython(entry.compiled.get());
      if (!pattern) return makeError(where + "/pattern (" + entry.name + "): " + pattern.error().message);
      imports_.insert(pattern->imports.begin(), pattern->imports.end());
      std::vector<std::string> body = pattern->statements;
      body.push_back("return " + pattern->root);
      std::string name = uniquePythonName("_" + entry.name + "_pattern", taken_);
      blocks_.push_back(function(name, "", entry.pattern, body));
      std::string row = "(" + pythonString(entry.name) + ", " + name + "()";
      if (entry.check) {
        Result<std::string> check = checkFunction(*entry.check);
        if (!check) return makeError(where + "/check (" + entry.name + "): " + check.error().message);
        row += ", " + *check;
      }
      rows_.push_back(row + ")");
    }
    return Status::ok();
  }

  /// The name of the function checking `predicate`, written once per distinct check text.
  Result<std::string> checkFunction(const Predicate& predicate) {
    auto found = checks_.find(predicate.text());
    if (found != checks_.end()) return found->second;
    BYOC_ASSIGN_OR_RETURN(std::string body, condition(predicate));
    std::string name = uniquePythonName("_check_" + std::to_string(checks_.size()), taken_);
    checks_.emplace(predicate.text(), name);
    blocks_.push_back(function(name, "expr", predicate.text(), {body}));
    return name;
  }

  std::string patternTable() const {
    std::string text = "@register_pattern_table(" + pythonString(target_.name) + ")\n";
    std::string body = "return [";
    for (const std::string& row : rows_) body += std::string("\n") + kIndent + kIndent + row + ",";
    body += rows_.empty() ? "]" : std::string("\n") + kIndent + "]";
    return text + function("pattern_table", "", "The composite patterns of " + target_.name +
                                                    ", in priority order: earlier rows win.",
                           {body});
  }

  const Target& target_;
  std::set<std::string> taken_;
  std::set<std::string> helpers_;
  std::set<std::string> imports_;
  std::vector<std::string> blocks_;
  std::vector<std::string> rows_;
  std::map<std::string, std::string> checks_;
};

}  // namespace

Result<std::string> targetAsTvmPython(const Target& target) { return ModuleWriter(target).run(); }

}  // namespace byoc
