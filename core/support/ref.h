#pragma once
/// \file
/// Intrusive reference counting for immutable IR nodes.
///
/// `Object` carries the count; `Ref<T>` is the owning handle. Releasing the last
/// reference of a long chain of nodes would normally recurse once per node (each
/// destructor drops the next node); `Object::release` instead defers nested
/// destructions to a per-thread queue, so freeing a 100,000-node chain uses a
/// constant amount of stack.

#include <atomic>
#include <cstddef>
#include <functional>
#include <type_traits>
#include <utility>

namespace byoc {

/// Base of every reference-counted node. Not copyable: nodes are shared by handle.
class Object {
 public:
  Object() = default;
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;
  virtual ~Object() = default;

  /// Adds one owner.
  void retain() const noexcept { refCount_.fetch_add(1, std::memory_order_relaxed); }
  /// Drops one owner; destroys the object (iteratively, see the file comment) at zero.
  void release() const noexcept;
  /// Number of owners; for tests and diagnostics only.
  std::size_t useCount() const noexcept { return refCount_.load(std::memory_order_relaxed); }

 private:
  mutable std::atomic<std::size_t> refCount_{0};
};

/// Owning handle to an `Object`-derived node. A null `Ref` is allowed ("undefined").
template <typename T>
class Ref {
 public:
  Ref() noexcept = default;
  Ref(std::nullptr_t) noexcept {}  // NOLINT(google-explicit-constructor)
  /// Takes shared ownership of `ptr` (which may already be owned elsewhere).
  explicit Ref(T* ptr) noexcept : ptr_(ptr) {
    if (ptr_) ptr_->retain();
  }
  Ref(const Ref& other) noexcept : Ref(other.ptr_) {}
  Ref(Ref&& other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
  /// Upcast from a handle of a derived node type.
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<U*, T*>>>
  Ref(const Ref<U>& other) noexcept : Ref(other.get()) {}  // NOLINT(google-explicit-constructor)
  template <typename U, typename = std::enable_if_t<std::is_convertible_v<U*, T*>>>
  Ref(Ref<U>&& other) noexcept : ptr_(other.detach()) {}  // NOLINT(google-explicit-constructor)
  ~Ref() {
    if (ptr_) ptr_->release();
  }

  Ref& operator=(Ref other) noexcept {
    std::swap(ptr_, other.ptr_);
    return *this;
  }

  T* get() const noexcept { return ptr_; }
  T* operator->() const noexcept { return ptr_; }
  T& operator*() const noexcept { return *ptr_; }
  explicit operator bool() const noexcept { return ptr_ != nullptr; }
  bool defined() const noexcept { return ptr_ != nullptr; }

  /// Releases ownership without decrementing; used by the converting move.
  T* detach() noexcept { return std::exchange(ptr_, nullptr); }

  /// Identity comparison (same node), never structural.
  template <typename U>
  bool operator==(const Ref<U>& other) const noexcept {
    return static_cast<const void*>(ptr_) == static_cast<const void*>(other.get());
  }
  bool operator==(std::nullptr_t) const noexcept { return ptr_ == nullptr; }

 private:
  T* ptr_ = nullptr;
};

/// Allocates a node and returns its first handle.
template <typename T, typename... Args>
Ref<T> makeRef(Args&&... args) {
  return Ref<T>(new T(std::forward<Args>(args)...));
}

/// Hashes a handle by identity, for memo tables keyed by node.
struct RefHash {
  template <typename T>
  std::size_t operator()(const Ref<T>& ref) const noexcept {
    return std::hash<const void*>()(ref.get());
  }
};

}  // namespace byoc
