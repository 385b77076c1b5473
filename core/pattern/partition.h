#pragma once
/// \file
/// `partition`: outline every group of a pattern (see grouper.h) into a function literal
/// called in place — what MergeComposite runs once per pattern-table row.
///
/// The groups are computed once; the expression is then rebuilt bottom-up. At each group
/// root, `check` is called with the root node of the *original* expression (typed if the
/// input was typed). If it accepts, the root is replaced by
/// `fn (%FunctionVar_g_0, …, PartitionedFromPattern="<name>", <attrs…>) { body }(args…)`
/// where the arguments are the rewritten inputs. A rejected group is left as it is, and its
/// nodes stay reserved: no smaller match of the same pattern takes them in the same call.
/// The created function and call carry the union of the origins of the nodes they replace.
/// A typed input stays typed: the function and call get the types type inference would give
/// them. The function's written return type stays empty, as in TVM, unless `returnTypes` asks
/// for it to be recorded as type inference would (what MergeComposite shows).
/// A pattern whose root is a function pattern is refused (nothing to call in place).

#include <functional>
#include <memory>

#include "ir/attrs.h"
#include "ir/expr.h"
#include "pattern/indexed_graph.h"
#include "pattern/pattern.h"
#include "support/result.h"

namespace byoc {

/// Decides whether a group, given by its original root node, is outlined; an error ends the
/// partition with it.
using PartitionCheck = std::function<Result<bool>(const Expr& pre)>;

/// Whether the functions a typed partition creates state their return type.
enum class ReturnTypes { Omitted, Recorded };

/// Outlines every accepted group of `pattern` in `expr`; `attrs` are added to each function
/// after `PartitionedFromPattern`.
Result<Expr> partition(const Pattern& pattern, const Expr& expr, const Attrs& attrs = {},
                       const PartitionCheck& check = {});

/// The same over an indexed expression. When a pattern finds nothing, the result is the very
/// same root node, so a caller running many patterns (MergeComposite) can keep one graph until
/// a pattern changes the expression.
Result<Expr> partition(const Pattern& pattern, const std::shared_ptr<const IndexedGraph>& graph,
                       const Attrs& attrs = {}, const PartitionCheck& check = {},
                       ReturnTypes returnTypes = ReturnTypes::Omitted);

}  // namespace byoc
