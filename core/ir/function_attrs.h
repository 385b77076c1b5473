#pragma once
/// \file
/// The attributes partitioning puts on functions, named once (as TVM names them in `attr::`), and
/// typed readers for them. A region's function carries `Compiler` (Relay's PartitionGraph) or
/// `Codegen` (Relax's MergeCompositeFunctions), `global_symbol` and `Primitive`; a composite
/// carries `Composite`, and a function outlined from a pattern `PartitionedFromPattern`.

#include <string>

#include "ir/expr.h"

namespace byoc {

namespace attr {
/// The target whose codegen compiles a region (Relay's flow).
inline constexpr char kCompiler[] = "Compiler";
/// The codegen of a region (Relax's flow).
inline constexpr char kCodegen[] = "Codegen";
/// A composite's name: `<target>.<pattern>`.
inline constexpr char kComposite[] = "Composite";
/// The symbol a region's code is found under at run time.
inline constexpr char kGlobalSymbol[] = "global_symbol";
/// Nonzero: a fused or external function, left alone by the passes that rewrite function bodies.
inline constexpr char kPrimitive[] = "Primitive";
/// Nonzero: the function is inlined into its callers.
inline constexpr char kInline[] = "Inline";
/// The pattern a function was outlined from.
inline constexpr char kPartitionedFromPattern[] = "PartitionedFromPattern";
}  // namespace attr

/// The string value of `function`'s attribute `name`; empty when it has none or another kind.
std::string stringAttrOf(const FunctionNode& function, const char* name);

/// The target or codegen a region's function is for: its `Compiler`, else its `Codegen`; empty
/// for a function that is no region.
std::string regionCompiler(const FunctionNode& function);

/// The composite name of a composite function; empty for any other.
inline std::string compositeName(const FunctionNode& function) { return stringAttrOf(function, attr::kComposite); }

/// The `global_symbol` of a function; empty when it has none.
inline std::string globalSymbol(const FunctionNode& function) { return stringAttrOf(function, attr::kGlobalSymbol); }

}  // namespace byoc
