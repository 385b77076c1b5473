#include "ir/op.h"

namespace byoc {

void registerBuiltinOps(OpRegistry& /*registry*/) {}

}  // namespace byoc
