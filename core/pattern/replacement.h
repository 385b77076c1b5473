#pragma once
/// \file
/// Replacements written in the pattern language: what `byoc rewrite --replace` puts in place of
/// each match of a pattern, built from the nodes the pattern's names matched.
///
/// A replacement is a pattern-language expression over the names of the pattern it replaces:
/// op calls with their arguments and attributes (`nn.conv2d(x, w){strides=[2, 2]}`, attributes
/// not written take their defaults), the pattern's names (the nodes they matched), scalar
/// literals, tuples and tuple items, and names of its own for sharing (`y = nn.relu(x); add(y, y)`).
/// Anything that only matches (`*`, `|`, types, `dominates`, `const`, functions) cannot be built
/// and is refused when the replacement is read.

#include <memory>
#include <string_view>

#include "pattern/matcher.h"
#include "pattern/owned_pattern.h"
#include "pattern/rewrite.h"

namespace byoc {

/// A replacement read against the pattern it replaces.
class Replacement {
 public:
  /// Reads `text` as a replacement for `pattern`; errors name `fileName`, line and column.
  static Result<Replacement> parse(std::string_view text, const Pattern& pattern, std::string_view fileName = "<replacement>");

  /// The replacement of one match: `nodes` maps each node of the pattern to what it matched.
  Result<Expr> build(const PatternNodeMap& nodes) const;

  /// A rewrite rule putting this replacement in place of every match of its pattern.
  RewriteCallback callback() const;

 private:
  struct Parts;
  explicit Replacement(std::shared_ptr<const Parts> parts) : parts_(std::move(parts)) {}
  std::shared_ptr<const Parts> parts_;
};

}  // namespace byoc
