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
#include <utility>
#include <vector>

#include "ir/module.h"
#include "runtime/ndarray.h"
#include "support/result.h"

namespace byoc {

struct Target;

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

/// The files a codegen compiled one region to (file name → bytes), which an export keeps.
struct CodegenArtifact {
  std::vector<std::pair<std::string, std::string>> files;
};

/// A codegen: builds the runtime module of one outlined, type-checked function.
struct Codegen {
  std::string name;
  std::string summary;
  std::function<Result<std::unique_ptr<RuntimeModule>>(const Function& function, const std::string& symbol,
                                                       const CodegenOptions& options)>
      build;
  /// The codegen's version, recorded with its artifacts (empty for the built-in codegens).
  std::string version = {};
  /// Compiles a region to artifact files, for codegens whose exports keep the compiled region
  /// (empty for the others).
  std::function<Result<CodegenArtifact>(const Function& function, const CodegenOptions& options)> compile = {};
  /// Loads the runtime module of `function` from the `artifact` `compile` made, whose files lie
  /// in `directory`.
  std::function<Result<std::unique_ptr<RuntimeModule>>(const Function& function, const std::string& symbol,
                                                       const CodegenArtifact& artifact, const std::string& directory,
                                                       const CodegenOptions& options)>
      load = {};
  /// Whether the codegen can build a composite called `name` (the name of a pattern-table row),
  /// with an error saying which names it builds; empty for a codegen that builds any composite.
  std::function<Status(std::string_view name)> checkComposite = {};
  /// The composites the codegen builds, as the part of a pattern-table row's name after
  /// `<target>.` (`conv2d_bias_relu`), most used first: what an editor offers as row names. Empty
  /// for a codegen that builds any composite or does not list them.
  std::vector<std::string> composites = {};
};

/// The codegen named `name`: a built-in one (`reference`, `dnnl`) or a registered one. A name not
/// registered yet is first handed to the resolver, if one is set.
const Codegen* findCodegen(std::string_view name);
/// Sets what `findCodegen` calls with a name it does not know, to register that codegen if it
/// can (plugins found but not yet described register theirs this way, plugin_registry.h).
void setCodegenResolver(std::function<void(std::string_view name)> resolver);
/// Names of the built-in and registered codegens, sorted.
std::vector<std::string> codegenNames();
/// Adds a codegen (a plugin's, `plugin:<name>`) to the table; false, leaving the table as it was,
/// when the name is taken.
bool registerCodegen(Codegen codegen);

/// Checks that the codegen `target` names is one registered, or a plugin's (`plugin:NAME`, which
/// is data until the target runs: its plugin may be loaded where it runs). The error is placed at
/// `/codegen` in the target's file and lists the codegens registered.
Status checkTargetCodegen(const Target& target);

/// For each pattern-table row of `target` whose composite its codegen cannot build, an error
/// naming the row, in table order (none when the codegen is unknown or builds any composite).
std::vector<Diagnostic> compositesTheCodegenCannotBuild(const Target& target);

/// The `reference` codegen: runs the region on the interpreter (its dataflow fast path when
/// the region is pure dataflow), so any target's regions can be run and checked.
Codegen referenceCodegen();
/// The `dnnl` codegen: compiles the region to oneDNN primitives once, at build time.
Codegen dnnlCodegen();

}  // namespace byoc
