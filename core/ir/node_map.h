#pragma once
/// \file
/// `NodeMap<V>` and `NodeSet`: hash tables keyed by node identity (the node's address), the memo
/// tables of traversals.
///
/// Open addressing with linear probing over one flat array of key-value slots: no allocation per
/// entry, and a lookup usually reads one cache line, often one a lookup of a neighbouring node
/// read just before (see `slotOf`). Keys are never removed. The
/// table doubles when half full, so a value's address is stable only until the next insertion.
/// A key must stay alive (or at least not be reused by a new node) while it is in the table.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "ir/expr.h"

namespace byoc {

/// Node address → `V`, for memo tables (see the file comment).
template <typename V>
class NodeMap {
 public:
  /// An empty map with room for `expected` entries before it grows.
  explicit NodeMap(std::size_t expected = 0) { rehash(capacityFor(expected)); }

  /// Number of entries.
  std::size_t size() const { return size_; }
  /// Grows the table so that `count` entries fit without further growth.
  void reserve(std::size_t count) {
    if (capacityFor(count) > slots_.size()) rehash(capacityFor(count));
  }

  /// The value of `key`, or null.
  V* find(const ExprNode* key) {
    Slot& slot = slots_[slotOf(key)];
    return slot.key ? &slot.value : nullptr;
  }
  const V* find(const ExprNode* key) const {
    const Slot& slot = slots_[slotOf(key)];
    return slot.key ? &slot.value : nullptr;
  }
  /// Whether `key` is in the map.
  bool contains(const ExprNode* key) const { return slots_[slotOf(key)].key != nullptr; }

  /// Inserts `key` → `value` unless `key` is present; returns the stored value and whether it was
  /// inserted.
  std::pair<V*, bool> emplace(const ExprNode* key, V value) {
    std::size_t at = slotOf(key);
    if (slots_[at].key) return {&slots_[at].value, false};
    if (2 * (size_ + 1) > slots_.size()) {
      rehash(slots_.size() * 2);
      at = slotOf(key);
    }
    slots_[at].key = key;
    slots_[at].value = std::move(value);
    ++size_;
    return {&slots_[at].value, true};
  }

  /// The value of `key`, inserted default-constructed if absent.
  V& operator[](const ExprNode* key) { return *emplace(key, V()).first; }

 private:
  /// A key and its value side by side, so that a lookup reads one cache line.
  struct Slot {
    const ExprNode* key = nullptr;
    [[no_unique_address]] V value{};
  };

  static std::size_t capacityFor(std::size_t count) { return std::bit_ceil(std::max<std::size_t>(16, 2 * count)); }

  /// The slot holding `key`, or the empty slot where it would go.
  std::size_t slotOf(const ExprNode* key) const {
    // Nodes built one after another sit close together in memory, and walks tend to meet them in
    // that order. So the 4 KiB page of the address is hashed (Fibonacci hashing: the high bits of
    // the product mix every bit of the page number), and the 64-byte line within the page picks
    // one of 64 consecutive slots: the nodes of one page share a few cache lines of the table.
    const std::uintptr_t address = reinterpret_cast<std::uintptr_t>(key);
    const std::size_t mask = slots_.size() - 1;
    const std::size_t page = static_cast<std::size_t>(((address >> 12) * 0x9E3779B97F4A7C15ull) >> shift_);
    std::size_t slot = (page + ((address >> 6) & 63)) & mask;
    while (slots_[slot].key && slots_[slot].key != key) slot = (slot + 1) & mask;
    return slot;
  }

  void rehash(std::size_t capacity) {
    std::vector<Slot> old(capacity);
    old.swap(slots_);
    shift_ = 64 - std::countr_zero(capacity);
    for (Slot& entry : old) {
      if (!entry.key) continue;
      Slot& slot = slots_[slotOf(entry.key)];
      slot.key = entry.key;
      slot.value = std::move(entry.value);
    }
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
  int shift_ = 64;
};

/// A set of nodes by address (a `NodeMap` without values).
class NodeSet {
 public:
  /// An empty set with room for `expected` nodes before it grows.
  explicit NodeSet(std::size_t expected = 0) : map_(expected) {}
  /// Number of nodes.
  std::size_t size() const { return map_.size(); }
  /// Whether `node` is in the set.
  bool contains(const ExprNode* node) const { return map_.contains(node); }
  /// Adds `node`; false if it was already there.
  bool insert(const ExprNode* node) { return map_.emplace(node, {}).second; }

 private:
  struct Empty {};
  NodeMap<Empty> map_;
};

}  // namespace byoc
