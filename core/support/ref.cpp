#include "support/ref.h"

#include <vector>

namespace byoc {

namespace {

/// Objects whose count reached zero while another destruction was running on this thread.
struct DeferredDestruction {
  std::vector<const Object*> pending;
  bool draining = false;
};

thread_local DeferredDestruction deferred;

}  // namespace

void Object::release() const noexcept {
  if (refCount_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (deferred.draining) {
    deferred.pending.push_back(this);
    return;
  }
  deferred.draining = true;
  delete this;
  while (!deferred.pending.empty()) {
    const Object* next = deferred.pending.back();
    deferred.pending.pop_back();
    delete next;
  }
  deferred.draining = false;
}

}  // namespace byoc
