#pragma once
/// \file
/// Relax's binding order over this project's graph IR. A Relax function lists its bindings in the
/// order they were written; TVM's fusion passes visit them, name their functions and order their
/// outputs in that order. Here a node's place follows the order the loaded model wrote its nodes
/// in, which the origins keep (the parser and importers number nodes as they read them): a node
/// comes after everything it reads and after the last node of the model it derives from, so a
/// fused call sits where its group's last binding was, as Relax emits it.

#include <vector>

#include "ir/expr.h"

namespace byoc {

/// Every node reachable from `root` (as `postOrderVisit` reaches them), producers first, in binding
/// order; nodes with the same place keep their post-order.
std::vector<Expr> bindingOrder(const Expr& root);

}  // namespace byoc
