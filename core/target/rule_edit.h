#pragma once
/// \file
/// Editing a target's op-support rules one op at a time, as the rules table of the app does.
///
/// Contract: the first rule naming an op decides whether the target supports it (Target::supports).
/// `withOpSupport` gives back a target whose first rule naming `op` says exactly what was asked,
/// and which decides every other op as before:
/// - the op is taken out of every rule naming it; a rule naming several ops is split, the other
///   ops keeping their rule (and its condition) where it was;
/// - when supported, the op gets a rule of its own (`op` or `op when condition`) right after the
///   place of the first rule that named it, or at the end when none did;
/// - when not supported, no rule names it any more.
/// Rules that do not name the op are kept as written, in order.

#include <string>
#include <string_view>

#include "support/result.h"
#include "target/target.h"

namespace byoc {

/// How a target treats one op: what the first rule naming it says.
struct OpSupport {
  bool supported = false;
  /// The condition of that rule as written (trimmed); empty when it always holds or no rule names the op.
  std::string condition;

  bool operator==(const OpSupport&) const = default;
};

/// What the first rule of `target` naming `op` says (unsupported when none does).
OpSupport opSupport(const Target& target, std::string_view op);

/// `target` with `op` supported under `support.condition` (empty: always), or named by no rule when
/// `support.supported` is false. Errors: `unknown op 'x'`, or the condition's syntax error as
/// `line:column: found X, expected Y` (columns counted in `support.condition`).
Result<Target> withOpSupport(const Target& target, std::string_view op, const OpSupport& support);

}  // namespace byoc
