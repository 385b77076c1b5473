#pragma once
/// \file
/// The typed pass registry: pass name → metadata and a factory taking the pass's options.
///
/// Nothing registers itself: `registerBuiltinPasses` adds the built-in passes explicitly, one
/// line each (builtin_passes.h, with the passes); a program may build its own registry and add
/// more. The infrastructure itself knows only the passes it defines (`PassRegistry::core()`).
/// Options are checked against the pass's `PassInfo::options` before the factory sees them,
/// so a factory always receives every option, with its default filled in and of the right kind.

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ir/attrs.h"
#include "pass/pass.h"
#include "support/result.h"

namespace byoc {

/// Builds a pass from complete, checked options.
using PassFactory = std::function<Result<PassPtr>(const Attrs& options)>;

/// What a pass file hands to the registry: its metadata and its factory.
struct PassRegistration {
  PassInfo info;
  PassFactory factory;
};

/// Name → registration.
class PassRegistry {
 public:
  /// The passes the infrastructure defines (InferType): where a context without a registry
  /// looks up the passes others require.
  static const PassRegistry& core();

  /// Adds a pass; error if the name is taken.
  Status add(PassRegistration registration);
  /// The registration of `name`, or null.
  const PassRegistration* find(std::string_view name) const;
  /// Every registered pass's metadata, sorted by name.
  std::vector<const PassInfo*> all() const;
  /// Builds `name` with `options` (others take their defaults). Errors name an unknown pass,
  /// an unknown option, or a value of the wrong kind.
  Result<PassPtr> create(std::string_view name, const Attrs& options = {}) const;

 private:
  std::map<std::string, PassRegistration, std::less<>> passes_;
};

/// Checks `value` against the kind of `option`'s default: integers for integer options, numbers
/// for float options (an integer converts), booleans, strings. The error says what was expected.
Result<AttrValue> checkPassOption(const PassInfo& pass, const PassOption& option, const AttrValue& value);

/// `options` checked one by one and completed with the defaults, in `PassInfo::options` order.
Result<Attrs> completePassOptions(const PassInfo& pass, const Attrs& options);

}  // namespace byoc
