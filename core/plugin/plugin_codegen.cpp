#include "plugin/plugin_codegen.h"

#include <filesystem>

#include "byoc/codegen_plugin.h"

#include "export/module_params.h"
#include "kernel_graph/kernel_graph_json.h"
#include "plugin/plugin_module.h"
#include "plugin/plugin_wire.h"
#include "runtime/dnnl/kernel_graph_builder.h"
#include "support/limits.h"

namespace byoc {

namespace {

static_assert(kernel_graph::kKernelGraphFormat == BYOC_CODEGEN_PLUGIN_REGION_FORMAT, "a plugin receives the JSON form of the kernel graph");

/// Compiles `function` through the plugin in a host of its own; the artifact's files are checked.
Result<CodegenArtifact> compileRegion(const PluginDescription& plugin, const Function& function, const CodegenOptions& options) {
  BYOC_ASSIGN_OR_RETURN(kernel_graph::KernelGraph graph, dnnl_backend::buildKernelGraph(function, options.module));
  ParamCollector constants;
  BYOC_ASSIGN_OR_RETURN(std::string regionJson, kernel_graph::writeKernelGraphJson(graph, constants));
  BYOC_ASSIGN_OR_RETURN(std::unique_ptr<PluginProcess> process, PluginProcess::start(plugin.path));
  const std::string who = process->description().codegenName();
  WireWriter request;
  request.u32(uint32_t(WireRequest::Compile)).bytes(regionJson).bytes(constants.safetensors());
  const uint64_t largestArtifact = limits::kMaxPluginArtifactBytes + limits::kMaxPluginArtifactFiles * (limits::kMaxPluginNameBytes + 16);
  bool pluginError = false;
  Result<std::string> reply = process->call(request.payload(), "compiling the region", PluginLimit::Compile, largestArtifact, &pluginError);
  if (!reply) return makeError(pluginError ? who + ": " + reply.error().message : reply.error().message);
  WireReader reader(*reply);
  const int64_t count = reader.i64();
  if (!reader.ok() || count < 0 || count > limits::kMaxPluginArtifactFiles) return makeError(who + " sent a malformed artifact");
  CodegenArtifact artifact;
  for (int64_t i = 0; i < count; ++i) {
    std::string name(reader.bytes());
    artifact.files.emplace_back(std::move(name), std::string(reader.bytes()));
  }
  if (!reader.ok() || !reader.atEnd()) return makeError(who + " sent a malformed artifact");
  BYOC_TRY(checkArtifact(artifact, who));
  return artifact;
}

}  // namespace

Codegen pluginCodegen(const PluginDescription& description) {
  Codegen codegen;
  codegen.name = description.codegenName();
  codegen.summary = description.summary.empty() ? "codegen plugin " + description.path : description.summary;
  codegen.version = description.version;
  codegen.compile = [description](const Function& function, const CodegenOptions& options) {
    return compileRegion(description, function, options);
  };
  codegen.load = [description](const Function& function, const std::string& symbol, const CodegenArtifact& artifact,
                               const std::string& directory, const CodegenOptions&) {
    return loadPluginModule(description, function, symbol, artifact, directory, /*ownedDirectory=*/false);
  };
  codegen.build = [description](const Function& function, const std::string& symbol,
                                const CodegenOptions& options) -> Result<std::unique_ptr<RuntimeModule>> {
    BYOC_ASSIGN_OR_RETURN(CodegenArtifact artifact, compileRegion(description, function, options));
    BYOC_ASSIGN_OR_RETURN(std::string directory, makeTemporaryDirectory("byoc-region-"));
    if (Status written = writeArtifactFiles(artifact, directory); !written) {
      std::error_code ignored;
      std::filesystem::remove_all(directory, ignored);
      return written.error();
    }
    return loadPluginModule(description, function, symbol, artifact, directory, /*ownedDirectory=*/true);
  };
  return codegen;
}

}  // namespace byoc
