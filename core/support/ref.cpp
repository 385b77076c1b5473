#include "support/ref.h"

#include <cstdint>

namespace byoc {

namespace {

/// Objects whose count reached zero while another destruction was running on this thread, as a
/// list linked through the dead objects' own count fields (nothing reads a count after it
/// reached zero). Nothing here needs destroying, so a node released during static destruction
/// (a static module freed by `exit`, after this thread's thread-locals are gone) finds it valid.
struct DeferredDestruction {
  const Object* pending = nullptr;
  bool draining = false;
};

thread_local DeferredDestruction deferred;

static_assert(sizeof(std::size_t) >= sizeof(std::uintptr_t), "a count field must hold a link");

}  // namespace

void Object::release() const noexcept {
  if (refCount_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (deferred.draining) {
    refCount_.store(reinterpret_cast<std::uintptr_t>(deferred.pending), std::memory_order_relaxed);
    deferred.pending = this;
    return;
  }
  deferred.draining = true;
  delete this;
  while (deferred.pending) {
    const Object* next = deferred.pending;
    deferred.pending = reinterpret_cast<const Object*>(next->refCount_.load(std::memory_order_relaxed));
    delete next;
  }
  deferred.draining = false;
}

}  // namespace byoc
