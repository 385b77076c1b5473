#pragma once
/// \file
/// A pattern kept for a while (a target's pattern table, a pass's rules, the app's live match),
/// together with the duty to break the reference cycles of its recursive definitions: copies
/// share the pattern, and the last copy to go clears its redirects (pattern.h). Holders that
/// keep a pattern past the call that parsed it use this rather than a bare `Pattern`, so that a
/// recursive pattern is freed and never cleared while another holder still matches with it.

#include <memory>

#include "pattern/pattern.h"

namespace byoc {

class OwnedPattern {
 public:
  OwnedPattern() = default;
  explicit OwnedPattern(Pattern pattern);

  const Pattern& get() const;
  explicit operator bool() const { return owner_ != nullptr; }

 private:
  struct Owner;
  std::shared_ptr<const Owner> owner_;
};

}  // namespace byoc
