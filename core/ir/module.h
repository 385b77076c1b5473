#pragma once
/// \file
/// A module: an ordered map of global function names to functions, plus module attributes
/// and the provenance table of the loaded model. Modules are values: a pass returns a new
/// module that shares every function (and node) it did not change.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/attrs.h"
#include "ir/expr.h"
#include "support/diagnostic.h"

namespace byoc {

/// What the loader knew about each node it created, keyed by the node's `NodeId`.
struct Provenance {
  /// Where the node was written (text inputs) or which file it came from.
  std::unordered_map<NodeId, SourceLocation> locations;
  /// The node's name in the source model (ONNX node names), when it had one.
  std::unordered_map<NodeId, std::string> names;
  /// The operator type of the source node (ONNX `Conv`, `Gemm`), for nodes imported from a graph format.
  std::unordered_map<NodeId, std::string> sourceOps;

  /// The location of the first id of `origin` that has one.
  std::optional<SourceLocation> locate(const Origin& origin) const;
};

/// Global name → function, in insertion order.
class Module {
 public:
  using Entry = std::pair<std::string, Function>;

  Module() = default;

  /// The function named `name`, or null.
  Function find(std::string_view name) const;
  /// Sets `name`, replacing an existing function in place or appending.
  void set(std::string name, Function function);
  /// Removes `name` if present.
  void erase(std::string_view name);

  const std::vector<Entry>& functions() const { return functions_; }
  const Attrs& attrs() const { return attrs_; }
  void setAttrs(Attrs attrs) { attrs_ = std::move(attrs); }

  /// The provenance table of the loaded model; shared by every version of the module.
  const std::shared_ptr<const Provenance>& provenance() const { return provenance_; }
  void setProvenance(std::shared_ptr<const Provenance> provenance) { provenance_ = std::move(provenance); }
  /// Where `expr` came from, if the provenance table knows.
  std::optional<SourceLocation> locate(const Expr& expr) const;

  /// True when both modules hold the very same function nodes under the same names
  /// (a cheap "did this pass change anything" check for modules that share nodes).
  bool sameNodes(const Module& other) const;

 private:
  std::vector<Entry> functions_;
  std::unordered_map<std::string, std::size_t> index_;  ///< name → position in functions_
  Attrs attrs_;
  std::shared_ptr<const Provenance> provenance_;
};

}  // namespace byoc
