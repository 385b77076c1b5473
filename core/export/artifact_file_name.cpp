#include "export/artifact_file_name.h"

#include <cctype>

#include "support/limits.h"

namespace byoc {

std::string artifactFileNameProblem(std::string_view name) {
  if (name.empty() || name.size() > limits::kMaxPluginNameBytes)
    return "an artifact file name has 1 to " + std::to_string(limits::kMaxPluginNameBytes) + " bytes";
  if (name.front() == '.') return "an artifact file name may not start with '.', found \"" + std::string(name) + "\"";
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.')
      return "an artifact file name has only letters, digits, '.', '_' and '-', found \"" + std::string(name) + "\"";
  return "";
}

}  // namespace byoc
