#pragma once
/// \file
/// User-facing errors: a message with a source location and optional notes.
///
/// Fallible core APIs return `Result<T>` or `Status` (see result.h) carrying a
/// `Diagnostic`; they never throw across the core boundary.

#include <string>
#include <vector>

namespace byoc {

/// A place in an input: a file (or any input name), with 1-based line and column when known.
struct SourceLocation {
  std::string file;
  int line = 0;    ///< 0 when unknown.
  int column = 0;  ///< 0 when unknown.

  /// `file:line:col`, `file:line`, or `file`, depending on what is known.
  std::string str() const;
};

/// One error (or warning) about the user's input.
struct Diagnostic {
  enum class Severity { Error, Warning, Note };

  Severity severity = Severity::Error;
  SourceLocation location;
  std::string message;
  std::vector<std::string> notes;

  /// One line: `file:line:col: message`, followed by `note: …` lines.
  std::string str() const;
};

}  // namespace byoc
