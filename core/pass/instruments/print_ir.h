#pragma once
/// \file
/// Instruments that print the module as passes run:
/// - PrintIR writes it before every pass, headed by the pass's metadata, the way TVM's tutorial
///   PrintIR instrument does;
/// - the IR dump writes it after the passes it is asked for, headed the way MLIR's
///   `-mlir-print-ir-after` does (`byoc … --print-ir-after-all`, `--print-ir-after=PASS`).

#include <functional>
#include <memory>
#include <ostream>
#include <string>

#include "pass/pass.h"
#include "text/printer.h"

namespace byoc {

/// An instrument printing `Running pass: NAME (opt_level: N, required passes: [A, B])` and then the
/// module before every pass invocation.
std::shared_ptr<PassInstrument> makePrintIrInstrument(std::ostream& out);

/// Whether to dump the module after the pass of this name.
using IrDumpFilter = std::function<bool(const std::string& pass)>;

/// An instrument writing `// -----// IR Dump After NAME //----- //`, then the module (printed with
/// `options`) and an empty line, after every successful invocation of a pass `dumpAfter` accepts,
/// nested invocations included.
std::shared_ptr<PassInstrument> makeIrDumpInstrument(std::ostream& out, IrDumpFilter dumpAfter,
                                                     PrintOptions options = {});

}  // namespace byoc
