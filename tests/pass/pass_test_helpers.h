#pragma once
/// \file
/// Helpers of the pass tests: printing modules the way the seeds print them, and running a
/// pass with the verifier after every step.

#include <QtTest>
#include <regex>
#include <sstream>
#include <string>

#include "pass/pass.h"
#include "ir/structural.h"
#include "pass/verifier.h"
#include "text/printer.h"

namespace byoc::testing {

/// The module as TVM prints it with types, without the version header and the metadata.
inline std::string printTyped(const Module& module) {
  PrintOptions options;
  options.showTypes = true;
  options.showMetadata = false;
  std::string text = printModule(module, options);
  const std::string header = "#[version = \"0.0.5\"]\n";
  if (text.starts_with(header)) text.erase(0, header.size());
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text + "\n";
}

/// Undoes the printer's disambiguation of fused parameters (`%p03` → `%p0`), which depends on
/// the order in which a printer meets the functions; TVM and we number the same names differently.
inline std::string withPlainParams(const std::string& text) {
  static const std::regex suffixed("%p([0-9])[0-9]+");
  return std::regex_replace(text, suffixed, "%p$1");
}

/// Runs `pass` under `context` (with the verifier added) and returns its result; fails the test on error.
inline PassResult runVerified(const PassPtr& pass, const Module& module, PassContext context = {}) {
  context.instruments.push_back(makeVerifierInstrument());
  Result<PassResult> result = runPipeline(*pass, module, context);
  if (!result) qFatal("pass failed: %s", result.error().str().c_str());
  return std::move(result).value();
}

}  // namespace byoc::testing

namespace byoc::testing {

/// Logs the first differing line of two texts (QCOMPARE alone does not show std::string values).
inline bool sameText(const std::string& actual, const std::string& expected) {
  if (actual == expected) return true;
  std::istringstream a(actual), e(expected);
  std::string lineA, lineE;
  for (int line = 1;; ++line) {
    bool moreA = static_cast<bool>(std::getline(a, lineA));
    bool moreE = static_cast<bool>(std::getline(e, lineE));
    if (!moreA && !moreE) break;
    if (lineA != lineE || moreA != moreE) {
      qWarning("line %d differs\n  actual:   %s\n  expected: %s", line, moreA ? lineA.c_str() : "<end>",
               moreE ? lineE.c_str() : "<end>");
      break;
    }
  }
  return false;
}

}  // namespace byoc::testing
