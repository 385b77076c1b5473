#pragma once
/// \file
/// `Result<T>`: a value or a `Diagnostic`; `Status`: success or a `Diagnostic`.
///
/// Propagate failures with `BYOC_TRY(expr)` (for `Status`) and
/// `BYOC_ASSIGN_OR_RETURN(lhs, expr)` (for `Result<T>`).

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "support/diagnostic.h"

namespace byoc {

/// Builds an error diagnostic at `location`.
inline Diagnostic makeError(std::string message, SourceLocation location = {}) {
  Diagnostic diagnostic;
  diagnostic.message = std::move(message);
  diagnostic.location = std::move(location);
  return diagnostic;
}

/// Success, or the diagnostic that explains the failure.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Diagnostic error) : error_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  static Status ok() { return {}; }
  bool isOk() const { return !error_.has_value(); }
  explicit operator bool() const { return isOk(); }
  const Diagnostic& error() const { return *error_; }

 private:
  std::optional<Diagnostic> error_;
};

/// A value of type T, or the diagnostic that explains why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Diagnostic error) : state_(std::move(error)) {}  // NOLINT(google-explicit-constructor)
  Result(Status status) : state_(status.error()) {}  // NOLINT: only for failed statuses

  bool isOk() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return isOk(); }

  const T& value() const& { return std::get<T>(state_); }
  T& value() & { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

  const Diagnostic& error() const { return std::get<Diagnostic>(state_); }
  /// The failure as a `Status`, to propagate from a function returning `Status`.
  Status status() const { return isOk() ? Status() : Status(error()); }

 private:
  std::variant<T, Diagnostic> state_;
};

/// Internal invariant failure: prints and aborts. For programming errors only, never user input.
[[noreturn]] inline void checkFailed(const char* condition, const char* file, int line, const std::string& message) {
  std::fprintf(stderr, "%s:%d: internal check failed: %s: %s\n", file, line, condition, message.c_str());
  std::abort();
}

}  // namespace byoc

/// Aborts with `message` when an internal invariant does not hold.
#define BYOC_CHECK(condition, message) \
  do {                                 \
    if (!(condition)) ::byoc::checkFailed(#condition, __FILE__, __LINE__, (message)); \
  } while (false)

/// Returns the failed `Status` of `expr` from the enclosing function.
#define BYOC_TRY(expr)                       \
  do {                                       \
    ::byoc::Status byocStatus_ = (expr);     \
    if (!byocStatus_) return byocStatus_.error(); \
  } while (false)

#define BYOC_CONCAT_INNER(a, b) a##b
#define BYOC_CONCAT(a, b) BYOC_CONCAT_INNER(a, b)

/// Evaluates a `Result<T>`; on failure returns its diagnostic, else moves the value into `lhs`.
#define BYOC_ASSIGN_OR_RETURN(lhs, expr) \
  BYOC_ASSIGN_OR_RETURN_IMPL(BYOC_CONCAT(byocResult_, __LINE__), lhs, expr)
#define BYOC_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                               \
  if (!tmp) return tmp.error();                    \
  lhs = std::move(tmp).value()
