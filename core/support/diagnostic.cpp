#include "support/diagnostic.h"

namespace byoc {

std::string SourceLocation::str() const {
  std::string text = file;
  if (line > 0) {
    text += ':' + std::to_string(line);
    if (column > 0) text += ':' + std::to_string(column);
  }
  return text;
}

std::string Diagnostic::str() const {
  std::string where = location.str();
  std::string text = where.empty() ? message : where + ": " + message;
  for (const std::string& note : notes) text += "\nnote: " + note;
  return text;
}

}  // namespace byoc
