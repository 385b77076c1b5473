#pragma once
/// \file
/// Pass infrastructure: a pass maps a module to a new module and says whether it changed it.
///
/// Passes are values (shared, immutable once built). `PassContext` carries the opt level
/// and the disabled / required pass names under which a pipeline runs.

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "ir/module.h"
#include "support/result.h"

namespace byoc {

/// Metadata of a pass, declared once: the CLI help, the GUI palette and the docs read it.
struct PassInfo {
  std::string name;
  /// One line saying what the pass does.
  std::string summary;
  /// The lowest context opt level at which `Sequential` runs the pass.
  int optLevel = 0;
  /// Passes that must run before this one (run by `Sequential` whatever the opt level).
  std::vector<std::string> required;
};

/// What a pass produced.
struct PassResult {
  Module module;
  /// True only if `module` differs from the input; passes must say so honestly.
  bool changed = false;
};

/// The settings a pipeline runs under.
class PassContext {
 public:
  int optLevel = 2;
  std::set<std::string, std::less<>> disabledPasses;
  std::set<std::string, std::less<>> requiredPasses;
};

/// A transformation of a module.
class Pass {
 public:
  virtual ~Pass() = default;
  virtual const PassInfo& info() const = 0;
  /// Runs the pass on `module`; never modifies its input.
  virtual Result<PassResult> run(const Module& module, PassContext& context) const = 0;
};

using PassPtr = std::shared_ptr<const Pass>;

/// The body of a module pass: a pure function from module to module.
using ModulePassFunction = std::function<Result<PassResult>(const Module&, PassContext&)>;

/// Wraps a function as a pass.
PassPtr makeModulePass(PassInfo info, ModulePassFunction function);

/// Runs passes in order. Passes above the context's opt level, or disabled, are skipped unless
/// required (by the context or by being listed in `PassInfo::required`).
PassPtr makeSequential(std::vector<PassPtr> passes, std::string name = "Sequential");

}  // namespace byoc
