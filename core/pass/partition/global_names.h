#pragma once
/// \file
/// Fresh global function names, handed out the way TVM's name supplies do.

#include <string>
#include <unordered_set>

#include "ir/module.h"

namespace byoc {

/// The global names of a module, and fresh ones: `.` becomes `_`, and a taken name gets a number.
class GlobalNames {
 public:
  /// How the number is added: `name_1` (Relay's global-var supply) or `name1` (Relax's).
  enum class Suffix { Underscored, Appended };

  explicit GlobalNames(const Module& module, Suffix suffix = Suffix::Underscored);

  /// A name not taken yet, which is then taken.
  std::string fresh(std::string name);

 private:
  std::unordered_set<std::string> taken_;
  Suffix suffix_;
};

}  // namespace byoc
