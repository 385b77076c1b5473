#include "ir/origin.h"

#include <algorithm>

namespace byoc {

Origin Origin::single(NodeId id) { return Origin(std::make_shared<const std::vector<NodeId>>(1, id)); }

Origin Origin::unite(std::span<const Origin> parts) {
  const Origin* onlyNonEmpty = nullptr;
  std::size_t nonEmpty = 0;
  for (const Origin& part : parts) {
    if (part.empty()) continue;
    ++nonEmpty;
    onlyNonEmpty = &part;
  }
  if (nonEmpty == 0) return {};
  if (nonEmpty == 1) return *onlyNonEmpty;  // share rather than copy
  std::vector<NodeId> merged;
  for (const Origin& part : parts) merged.insert(merged.end(), part.ids().begin(), part.ids().end());
  std::sort(merged.begin(), merged.end());
  merged.erase(std::unique(merged.begin(), merged.end()), merged.end());
  return Origin(std::make_shared<const std::vector<NodeId>>(std::move(merged)));
}

Origin Origin::unite(std::initializer_list<Origin> parts) {
  return unite(std::span<const Origin>(parts.begin(), parts.size()));
}

std::span<const NodeId> Origin::ids() const {
  if (!ids_) return {};
  return {ids_->data(), ids_->size()};
}

bool Origin::contains(NodeId id) const {
  auto all = ids();
  return std::binary_search(all.begin(), all.end(), id);
}

bool Origin::operator==(const Origin& other) const {
  auto a = ids();
  auto b = other.ids();
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

}  // namespace byoc
