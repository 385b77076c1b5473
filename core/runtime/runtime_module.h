#pragma once
/// \file
/// The runtime-module interface: what a codegen produces from an outlined function.
///
/// A codegen turns one function carrying `Compiler=<target>` into a `RuntimeModule` that
/// exposes it under its `global_symbol`. The executor calls the symbol like any function:
/// tensors in (tuple arguments flattened in order), results written into tensors it has
/// allocated from the function's result type (tuple results flattened in order).

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "runtime/ndarray.h"
#include "support/result.h"

namespace byoc {

/// A compiled region.
class RuntimeModule {
 public:
  virtual ~RuntimeModule() = default;
  /// The name of the codegen that built it ("reference", "dnnl").
  virtual std::string_view codegen() const = 0;
  /// Whether the module defines `symbol`.
  virtual bool has(std::string_view symbol) const = 0;
  /// Runs `symbol` on flattened `inputs`, writing the preallocated flattened `outputs`.
  virtual Status run(std::string_view symbol, std::span<const NDArray> inputs, std::span<const NDArray> outputs) = 0;
};

/// Options every codegen receives.
struct CodegenOptions {
  /// Threads a codegen may use (its whole thread pool).
  int threads = 1;
  /// The module the function belongs to, to locate errors (may be null).
  const Module* module = nullptr;
};

/// A codegen: builds the runtime module of one outlined, type-checked function.
struct Codegen {
  std::string name;
  std::string summary;
  std::function<Result<std::unique_ptr<RuntimeModule>>(const Function& function, const std::string& symbol,
                                                       const CodegenOptions& options)>
      build;
};

/// The built-in codegens, by name: `reference` and `dnnl`.
const Codegen* findCodegen(std::string_view name);
/// Names of the built-in codegens, sorted.
std::vector<std::string> codegenNames();

/// The `reference` codegen: runs the region on the interpreter (its dataflow fast path when
/// the region is pure dataflow), so any target's regions can be run and checked.
Codegen referenceCodegen();
/// The `dnnl` codegen: compiles the region to oneDNN primitives once, at build time.
Codegen dnnlCodegen();

}  // namespace byoc
