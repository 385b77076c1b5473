#pragma once
/// \file
/// Origins: which nodes of the loaded model an IR node derives from.
///
/// A loader gives every node it creates a fresh id; passes copy origins onto the
/// nodes they rebuild and give a node they create the union of the origins it
/// replaces. The UI maps any node of any snapshot back to the loaded graph this way.

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <vector>

namespace byoc {

/// Id of a node of the loaded model.
using NodeId = uint32_t;

/// An immutable, shared, sorted set of `NodeId`s. Copying shares the set.
class Origin {
 public:
  Origin() = default;
  /// The origin of a freshly loaded node.
  static Origin single(NodeId id);
  /// The origin of a node that replaces all of `parts`.
  static Origin unite(std::span<const Origin> parts);
  static Origin unite(std::initializer_list<Origin> parts);

  std::span<const NodeId> ids() const;
  bool empty() const { return !ids_ || ids_->empty(); }
  bool contains(NodeId id) const;
  bool operator==(const Origin& other) const;

 private:
  explicit Origin(std::shared_ptr<const std::vector<NodeId>> ids) : ids_(std::move(ids)) {}
  std::shared_ptr<const std::vector<NodeId>> ids_;
};

}  // namespace byoc
