#include "pass/partition/global_names.h"

#include <algorithm>

namespace byoc {

GlobalNames::GlobalNames(const Module& module, Suffix suffix) : suffix_(suffix) {
  for (const auto& entry : module.functions()) taken_.insert(entry.first);
}

std::string GlobalNames::fresh(std::string name) {
  std::replace(name.begin(), name.end(), '.', '_');
  std::string candidate = name;
  const char* separator = suffix_ == Suffix::Underscored ? "_" : "";
  for (int number = 1; taken_.count(candidate); ++number) candidate = name + separator + std::to_string(number);
  taken_.insert(candidate);
  return candidate;
}

}  // namespace byoc
