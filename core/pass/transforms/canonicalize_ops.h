#pragma once
/// \file
/// CanonicalizeOps: rewrites ops into the forms backends match on, as TVM's pass of that name:
/// `nn.bias_add(x, b, axis)` becomes `add(x, expand_dims(b, axis=1, num_newaxis=rank(x)-axis-1))`
/// (just `add(x, b)` when `axis` is the last one). Input and output are typed modules.

#include "pass/pass.h"

namespace byoc {

/// The CanonicalizeOps pass.
PassPtr createCanonicalizeOpsPass();

}  // namespace byoc
