/// \file
/// `byoc-plugin-host PLUGIN REGION.json CONSTANTS.safetensors OUT`: compiles one region through a
/// codegen plugin and writes the artifact's files into the folder OUT. The program runs it as a
/// child process (plugin_process.h) so that a plugin that crashes takes only this process down.
/// Exit status 0 on success; otherwise 1 with `error: <message>` as the last line of stderr.

#include <iostream>
#include <string>
#include <vector>

#include "export/safetensors.h"
#include "plugin/plugin_library.h"
#include "plugin/plugin_process.h"
#include "support/file_io.h"

namespace {

using namespace byoc;

/// The DLPack type of a safetensors dtype.
byoc_dtype typeOf(const std::string& dtype) {
  const uint8_t bits = static_cast<uint8_t>(safetensorsDTypeSize(dtype) * 8);
  if (dtype == "BF16") return {4, 16, 1};
  if (dtype == "BOOL") return {BYOC_DTYPE_BOOL, 8, 1};
  if (dtype[0] == 'F') return {BYOC_DTYPE_FLOAT, bits, 1};
  if (dtype[0] == 'U') return {BYOC_DTYPE_UINT, bits, 1};
  return {BYOC_DTYPE_INT, bits, 1};
}

Status compile(const std::string& pluginPath, const std::string& regionPath, const std::string& constantsPath, const std::string& out) {
  BYOC_ASSIGN_OR_RETURN(std::shared_ptr<const PluginLibrary> plugin, PluginLibrary::open(pluginPath));
  BYOC_ASSIGN_OR_RETURN(std::string region, readFile(regionPath));
  BYOC_ASSIGN_OR_RETURN(std::string constantBytes, readFile(constantsPath));
  BYOC_ASSIGN_OR_RETURN(SafetensorsIndex index, parseSafetensors(constantBytes, constantsPath));
  std::vector<byoc_constant> constants;
  for (const SafetensorsEntry& entry : index.entries) {
    const std::string_view bytes = index.bytesOf(entry);
    byoc_tensor tensor{const_cast<char*>(bytes.data()), typeOf(entry.dtype), static_cast<int32_t>(entry.shape.size()),
                       entry.shape.data(), nullptr};
    constants.push_back({entry.name.c_str(), tensor});
  }
  BYOC_ASSIGN_OR_RETURN(CodegenArtifact artifact, plugin->compile(region, constants));
  return writeArtifactFiles(artifact, out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: byoc-plugin-host PLUGIN REGION.json CONSTANTS.safetensors OUT\n";
    return 2;
  }
  byoc::Status status = compile(argv[1], argv[2], argv[3], argv[4]);
  if (!status) {
    std::cerr << "error: " << status.error().message << "\n";
    return 1;
  }
  return 0;
}
