#include "pattern/owned_pattern.h"

namespace byoc {

struct OwnedPattern::Owner {
  explicit Owner(Pattern owned) : pattern(std::move(owned)) {}
  Owner(const Owner&) = delete;
  Owner& operator=(const Owner&) = delete;
  ~Owner() { clearRedirects(pattern); }

  Pattern pattern;
};

OwnedPattern::OwnedPattern(Pattern pattern)
    : owner_(pattern ? std::make_shared<const Owner>(std::move(pattern)) : nullptr) {}

const Pattern& OwnedPattern::get() const {
  static const Pattern none;
  return owner_ ? owner_->pattern : none;
}

}  // namespace byoc
