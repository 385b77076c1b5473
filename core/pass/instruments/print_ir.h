#pragma once
/// \file
/// PrintIR: writes the module (with types) to a stream before every pass, headed by the
/// pass's metadata, the way TVM's tutorial PrintIR instrument does.

#include <memory>
#include <ostream>

#include "pass/pass.h"

namespace byoc {

/// An instrument printing `Running pass: NAME (opt_level: N, required passes: [A, B])` and then the
/// module before every pass invocation.
std::shared_ptr<PassInstrument> makePrintIrInstrument(std::ostream& out);

}  // namespace byoc
