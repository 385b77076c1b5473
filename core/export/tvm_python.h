#pragma once
/// \file
/// A target (target/target.h) as a TVM Python module, to be dropped into
/// `python/tvm/relay/op/contrib/`: importing it registers
/// * one support function per op rule, as the `"target.<name>"` attribute of every op the rule is
///   the first to name (`tvm.ir.register_op_attr`), so AnnotateTarget decides as the rule does;
/// * the pattern table of `<name>` (`register_pattern_table`): `pattern_table()` returns the
///   composite patterns in priority order, each with its check as a Python predicate when it has
///   one (rows with the same check share one function).
///
/// Patterns become `tvm.relay.dataflow_pattern` calls (export/tvm_pattern.h) and conditions Python
/// predicates over the TVM expression (export/tvm_predicate.h). The text depends only on the
/// target, so it can be kept as a golden file. Whatever has no TVM form is an error naming the
/// rule or pattern by its JSON path (`at /patterns/3/check (dnnl.conv2d_bias): 1:5: …`); nothing
/// is left out silently.

#include <string>

#include "support/result.h"
#include "target/target.h"

namespace byoc {

/// The Python module of `target`.
Result<std::string> targetAsTvmPython(const Target& target);

}  // namespace byoc
