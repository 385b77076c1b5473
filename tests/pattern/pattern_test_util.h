#pragma once
/// \file
/// Helpers of the pattern tests: Relay text in, `@main` out, and the printed form of results.

#include <QtTest>
#include <string>

#include "ir/module.h"
#include "pass/infer_type.h"
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

/// The printed form of an expression, without the version header.
inline std::string printBody(const Expr& expr) {
  std::string text = printExpr(expr);
  const std::string header = "#[version = \"0.0.5\"]\n";
  if (text.rfind(header, 0) == 0) text.erase(0, header.size());
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

}  // namespace byoc::testing
