#pragma once
/// \file
/// Helpers of the pattern tests: Relay text in, `@main` out, and the printed form of results.

#include <QtTest>
#include <string>
#include <vector>

#include "ir/module.h"
#include "pass/infer_type.h"
#include "test_files.h"
#include "text/parser.h"
#include "text/printer.h"

namespace byoc::testing {

/// `@main` of the Relay text `text` (a module or a bare `fn`), optionally type-checked.
inline Function parseMain(const std::string& text, bool typed = false) {
  Result<Module> module = parseModule(text, "in.relay");
  if (!module) qFatal("%s", module.error().str().c_str());
  if (typed) {
    Result<Module> checked = inferTypes(*module);
    if (!checked) qFatal("%s", checked.error().str().c_str());
    return checked->find("main");
  }
  return module->find("main");
}

/// The printed form of an expression, without the version header and `free_var` lines.
inline std::string printBody(const Expr& expr) {
  std::string text = printExpr(expr);
  const std::string header = "#[version = \"0.0.5\"]\n";
  if (text.rfind(header, 0) == 0) text.erase(0, header.size());
  while (text.rfind("free_var ", 0) == 0) text.erase(0, text.find('\n') + 1);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

/// The patterns of tests/data/pattern/canonical.txt (blocks separated by `----` lines).
inline std::vector<std::string> canonicalPatterns() {
  std::vector<std::string> patterns;
  std::string current;
  std::string text = readTestData("pattern/canonical.txt");
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.rfind("#", 0) == 0) continue;
    if (line == "----") {
      patterns.push_back(current);
      current.clear();
      continue;
    }
    current += (current.empty() ? "" : "\n") + line;
  }
  if (!current.empty()) patterns.push_back(current);
  return patterns;
}

/// The printed form of `fn (<params of original>) { body }`.
inline std::string printAsFunction(const Function& original, const Expr& body) {
  return printBody(FunctionNode::make(original->params, body));
}

}  // namespace byoc::testing
