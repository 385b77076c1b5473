#pragma once
/// \file
/// The grouping MergeCompositeFunctions makes (spec §7.2), on a plain graph: nodes in binding
/// order (producers first), each with the nodes it reads and its codegen ("" for a node that is
/// not a composite call). A composite call joins every group of one of its operands that has its
/// codegen and that none of its operands' groups depends on (such groups merge); otherwise it
/// starts a group. Every other node is a group of its own. Groups are numbered as they are made,
/// and a merged group keeps the number of the one the call joined first.

#include <span>
#include <string>
#include <vector>

#include "support/result.h"

namespace byoc {

class PassContext;

/// The group of each node. `operands[i]` lists the nodes node i reads (each below i, repeats
/// allowed); stops with the context's `cancelled` error once it is cancelled.
Result<std::vector<int>> groupCompositeCalls(std::span<const std::vector<int>> operands, std::span<const std::string> codegens,
                                             const PassContext* context = nullptr);

}  // namespace byoc
