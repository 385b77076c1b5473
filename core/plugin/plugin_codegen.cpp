#include "plugin/plugin_codegen.h"

#include <filesystem>

#include "export/kernel_graph_json.h"
#include "export/module_params.h"
#include "plugin/plugin_module.h"
#include "plugin/plugin_process.h"
#include "runtime/dnnl/kernel_graph_builder.h"

namespace byoc {

namespace {

/// Compiles `function` through `plugin` in a child process.
Result<CodegenArtifact> compileRegion(const PluginLibrary& plugin, const Function& function, const CodegenOptions& options) {
  BYOC_ASSIGN_OR_RETURN(dnnl_backend::KernelGraph graph, dnnl_backend::buildKernelGraph(function, options.module));
  ParamCollector constants;
  BYOC_ASSIGN_OR_RETURN(std::string regionJson, writeKernelGraphJson(graph, constants));
  return compileInChildProcess(plugin, regionJson, constants.safetensors());
}

}  // namespace

Codegen pluginCodegen(std::shared_ptr<const PluginLibrary> plugin) {
  Codegen codegen;
  codegen.name = plugin->codegenName();
  codegen.summary = plugin->summary().empty() ? "codegen plugin " + plugin->path() : plugin->summary();
  codegen.version = plugin->version();
  codegen.compile = [plugin](const Function& function, const CodegenOptions& options) {
    return compileRegion(*plugin, function, options);
  };
  codegen.load = [plugin](const Function& function, const std::string& symbol, const CodegenArtifact& artifact,
                          const std::string& directory, const CodegenOptions&) {
    return loadPluginModule(plugin, function, symbol, artifact, directory, /*ownedDirectory=*/false);
  };
  codegen.build = [plugin](const Function& function, const std::string& symbol,
                           const CodegenOptions& options) -> Result<std::unique_ptr<RuntimeModule>> {
    BYOC_ASSIGN_OR_RETURN(CodegenArtifact artifact, compileRegion(*plugin, function, options));
    BYOC_ASSIGN_OR_RETURN(std::string directory, makeTemporaryDirectory("byoc-region-"));
    if (Status written = writeArtifactFiles(artifact, directory); !written) {
      std::error_code ignored;
      std::filesystem::remove_all(directory, ignored);
      return written.error();
    }
    return loadPluginModule(plugin, function, symbol, artifact, directory, /*ownedDirectory=*/true);
  };
  return codegen;
}

}  // namespace byoc
