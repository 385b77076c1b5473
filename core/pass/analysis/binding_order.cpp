#include "pass/analysis/binding_order.h"

#include <algorithm>
#include <cstdint>

#include "ir/traversal.h"

namespace byoc {

std::vector<Expr> bindingOrder(const Expr& root) {
  // A node's place: the last model node it or anything it reads derives from. It never decreases
  // from producer to consumer, so sorting by it (post-order breaking ties) keeps producers first.
  std::vector<Expr> nodes;
  std::vector<std::int64_t> places;
  NodeMap<std::int64_t> placeOf;
  postOrderVisit(root, [&](const Expr& node) {
    std::int64_t place = -1;
    for (NodeId id : node->origin().ids()) place = std::max<std::int64_t>(place, id);
    for (int i = 0, n = childCount(*node); i < n; ++i) place = std::max(place, *placeOf.find(childAt(*node, i)));  // visited before
    placeOf.emplace(node.get(), place);
    nodes.push_back(node);
    places.push_back(place);
  });
  std::vector<std::size_t> index(nodes.size());
  for (std::size_t i = 0; i < index.size(); ++i) index[i] = i;
  std::stable_sort(index.begin(), index.end(), [&](std::size_t a, std::size_t b) { return places[a] < places[b]; });
  std::vector<Expr> ordered;
  ordered.reserve(nodes.size());
  for (std::size_t i : index) ordered.push_back(nodes[i]);
  return ordered;
}

}  // namespace byoc
