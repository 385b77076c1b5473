#include "runtime/source_node.h"

#include <optional>

namespace byoc {

namespace {

/// The first node of `origin` the loaded model named.
std::optional<NodeId> firstNamedNode(const Provenance& provenance, const Origin& origin) {
  for (NodeId id : origin.ids()) {
    auto found = provenance.names.find(id);
    if (found != provenance.names.end() && !found->second.empty()) return id;
  }
  return std::nullopt;
}

}  // namespace

std::string sourceNodeName(const Module& module, const Origin& origin) {
  const Provenance* provenance = module.provenance().get();
  std::optional<NodeId> id = provenance ? firstNamedNode(*provenance, origin) : std::nullopt;
  return id ? provenance->names.at(*id) : std::string();
}

std::string sourceNodePrefix(const Module& module, const Origin& origin) {
  const Provenance* provenance = module.provenance().get();
  std::optional<NodeId> id = provenance ? firstNamedNode(*provenance, origin) : std::nullopt;
  if (!id) return "";
  const std::string node = "node '" + provenance->names.at(*id) + "'";
  auto op = provenance->sourceOps.find(*id);
  return op != provenance->sourceOps.end() && !op->second.empty() ? node + " (" + op->second + "): " : node + ": ";
}

}  // namespace byoc
