#pragma once
/// \file
/// Values a layer above ir attaches to the op definitions, as TVM's `OpAttrMap`
/// (`RELAY_REGISTER_OP(name).set_attr<FTVMCompute>(…)`): the runtime's reference kernels, a
/// backend's lowerings. ir knows nothing of what is attached; the owning layer fills its map once,
/// naming each op, and reads it by definition, so a lookup from a call is no search by name.

#include <string>
#include <string_view>
#include <unordered_map>

#include "ir/op.h"

namespace byoc {

/// Op definition → `T`, for the ops of the global registry.
template <typename T>
class OpAttrMap {
 public:
  /// The value of the registered op `name`, value-initialised when new: `map["nn.conv2d"] = f;`.
  /// A name the registry does not know is a programming error, caught when the map is filled.
  T& operator[](std::string_view name) {
    const OpDef* def = OpRegistry::global().find(name);
    BYOC_CHECK(def != nullptr, "an op attribute names the registered op '" + std::string(name) + "'");
    return values_[def];
  }

  /// The value attached to `def`, or null.
  const T* find(const OpDef& def) const {
    auto it = values_.find(&def);
    return it == values_.end() ? nullptr : &it->second;
  }

 private:
  std::unordered_map<const OpDef*, T> values_;
};

}  // namespace byoc
