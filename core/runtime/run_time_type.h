#pragma once
/// \file
/// Types resolved at run time. A program typed with unknown dimensions (`?`) runs on concrete
/// inputs: each op call whose checked type has an unknown dimension gets its concrete result
/// type from its argument values, through the op's value-dependent shape function when it has
/// one (dyn.reshape) and otherwise through its type relation applied to the arguments' types.

#include <span>

#include "ir/op.h"
#include "runtime/value.h"

namespace byoc {

/// Whether every tensor of `type` (tuples flattened) has only known dimensions; false for null
/// and for function types.
bool isStaticType(const Type& type);

/// The type of a value: its tensors' types, grouped as its tuples are; null for a closure.
Type typeOfValue(const Value& value);

/// The result type of `call` (of `def`) on `args`: its checked type when static, else the one its
/// argument values give; an error names the op and what did not fit (such as sizes that do not
/// broadcast), or says the result still has an unknown dimension.
Result<Type> runTimeCallType(const CallNode& call, const OpDef& def, std::span<const Value> args,
                             std::span<const NDArray> flatInputs);

}  // namespace byoc
