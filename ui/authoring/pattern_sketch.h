#pragma once
/// \file
/// The drawing of a pattern beside its text: its nodes in layers (leaves on top, the root at the
/// bottom, as the model graph flows) and the edges from each sub-pattern to its user.
///
/// A call of an op draws as one node named after the op (the op pattern is not a node of its own
/// unless it is also used elsewhere); a shared sub-pattern is one node with several users; a
/// recursive pattern's back edge is an edge like any other. Pure value, built iteratively.

#include <QString>
#include <utility>
#include <vector>

#include "pattern/pattern.h"

namespace byoc::ui {

/// A pattern laid out in layers.
struct PatternSketch {
  /// One pattern node.
  struct Node {
    /// `nn.conv2d`, `*`, `var`, `|`, `{groups=1}`, …, prefixed by the node's name (`conv: nn.conv2d`).
    QString label;
    /// 0 for leaves; a user is below every input it does not reach back through a cycle.
    int layer = 0;
    /// Position within the layer, from the left.
    int column = 0;
  };
  /// In the pattern's post-order: the root is last.
  std::vector<Node> nodes;
  /// (input, user) pairs, by index into `nodes`.
  std::vector<std::pair<int, int>> edges;
  /// Number of layers.
  int layerCount = 0;

  /// One line per node (`layer.column label`) then per edge (`a -> b`), for tests.
  QString dump() const;
};

/// Lays `pattern` out; an empty sketch for a null pattern.
PatternSketch sketchPattern(const Pattern& pattern);

}  // namespace byoc::ui
