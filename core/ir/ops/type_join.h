#pragma once
/// \file
/// The join of two types that differ only in sizes: what a value of either type is. The branches
/// of an `if` may give tensors of one rank and dtype whose sizes differ (an empty result in one
/// branch, a run-time count in the other); the `if` then has the type with `?` wherever they
/// differ, as Relay unifies a size with `Any`.

#include <optional>

#include "ir/type.h"

namespace byoc::ops {

/// `a` and `b` with every dimension where they differ made `?`; nothing when they differ in
/// structure, rank or dtype.
std::optional<Type> joinTypes(const Type& a, const Type& b);

/// Whether a value of type `specific` may stand where `general` is expected: the same type, or
/// sizes where `general` has `?` (a static value passed to a loop variable of unknown size, as
/// Relay accepts it).
bool typeAccepts(const Type& general, const Type& specific);

}  // namespace byoc::ops
