#pragma once
/// \file
/// The region annotations `annotation.compiler_begin` and `annotation.compiler_end`: recognising
/// them, reading their target, and placing them on an edge.
///
/// An annotation keeps the origin of the value it wraps, so every begin and end maps back to the
/// loaded model's node on that edge.

#include <string>
#include <string_view>

#include "ir/expr.h"

namespace byoc::partitioning {

/// The target name AnnotateTarget gives nodes no target claims.
inline constexpr std::string_view kDefaultTarget = "default";

/// True when `expr` is a call of `annotation.compiler_begin`.
bool isCompilerBegin(const Expr& expr);
/// True when `expr` is a call of `annotation.compiler_end`.
bool isCompilerEnd(const Expr& expr);
/// The `compiler` attribute of a begin or end call.
const std::string& annotationTarget(const Expr& annotation);

/// `annotation.compiler_begin(value, compiler=target)`, with the type of `value` (if any).
Expr makeCompilerBegin(const Expr& value, std::string_view target);
/// `annotation.compiler_end(value, compiler=target)`, with the type of `value` (if any).
Expr makeCompilerEnd(const Expr& value, std::string_view target);

/// False when no begin or end annotation is under `node` (itself included): a walk looking for
/// annotations may skip it.
bool mayHoldAnnotations(const ExprNode& node);

/// The first expression under `expr` that is not a begin or end annotation.
Expr skipAnnotations(Expr expr);

}  // namespace byoc::partitioning
