#pragma once
/// \file
/// The bookkeeping of greedy, cycle-free group merging, as MergeCompilerRegions (Relay) and
/// MergeCompositeFunctions (Relax) do it: groups are visited producers first; each carries a set of
/// groups it must not absorb (those it also reaches through another group: absorbing one would
/// make a cycle), the union of its producers' sets and what it adds itself; a group being visited
/// absorbs producers that are not in that union.
///
/// Kept as TVM keeps them, these sets grow with everything upstream, so merging costs
/// O(groups²) time and memory on a graph cut into many regions. Here an entry is dropped once
/// nobody can ask about it, which changes no answer:
/// - the only question ever asked is "is P in the set of the group being visited?", for a
///   producer P that group may absorb; a consumer that may absorb P is an *asker* of P, and P is
///   asked about only while it has an asker not yet visited (a pending asker);
/// - a group gains pending askers only by absorbing a group (whose pending askers it takes over),
///   and it absorbs only while it is being visited; a group is absorbed only by one of its
///   pending askers.
/// So a group that has been visited (closed) and has no pending asker never gains one again: no
/// later question names it, and entries naming it go. Groups not yet visited stay, whatever their
/// count (MergeCompilerRegions records regions behind an If before visiting them).
///
/// Every live entry names a closed group with an edge to a group not yet visited, so a set holds
/// at most C entries, C being the number of edges that cross from visited to unvisited groups at
/// once (for a model: about the number of tensors alive at once, a few dozen even for DenseNet).
/// A visit costs O(k · C log C) for k producers, the whole merge O((groups + edges) · C log C),
/// linear in the graph's size for a bounded cut. A group's own set is freed once it has no pending
/// reader (any consumer, which reads the set to inherit it) or is absorbed, so memory is
/// O(groups + C²). No exact method is linear on every DAG: whether a graph still has another path
/// from P to its consumer besides their edge (what the sets answer) is a transitive-reduction
/// question, as hard as reachability in general.

#include <cstdint>
#include <span>
#include <vector>

namespace byoc {

class MergeBarriers {
 public:
  /// `count` groups, none visited, each its own representative.
  explicit MergeBarriers(int count = 0);

  /// A new group, not yet visited; returns its id.
  int add();
  /// The representative of `group`'s merged group.
  int find(int group) const;

  /// `readers` more consumer edges from `group` to groups not yet visited, `askers` of them from
  /// consumers that may absorb it.
  void expectConsumers(int group, int readers, int askers);
  /// A consumer edge counted by `expectConsumers` (among its askers when `asks`) has been visited.
  void consumed(int group, bool asks);
  /// `group` has been visited (sets and merges done).
  void close(int group);

  /// The union of the sets of `sources` and of `extra` groups, as sorted representatives, without
  /// groups that can no longer be asked about.
  std::vector<int> unite(std::span<const int> sources, std::span<const int> extra = {}) const;
  /// Adds `more` (sorted representatives) to `group`'s set.
  void addBarriers(int group, std::span<const int> more);
  /// Whether `group` (a representative) is in `barriers`, as `unite` returns them.
  static bool contains(std::span<const int> barriers, int group);

  /// `from`'s group joins `into`'s: `into`'s representative stays, and takes over `from`'s set
  /// and pending consumers.
  void merge(int from, int into);

 private:
  /// Whether a question may still name `group`'s merged group.
  bool mayBeAsked(int group) const;
  void releaseIfUnread(int group);

  mutable std::vector<int> parent_;  ///< union-find forwarding, compressed on lookup
  std::vector<std::vector<int>> barriers_;  ///< by representative
  std::vector<std::int64_t> pendingReaders_;  ///< by representative: consumer edges not yet visited
  std::vector<std::int64_t> pendingAskers_;   ///< by representative: those that may absorb it
  std::vector<char> closed_;                  ///< by representative
};

}  // namespace byoc
