/// \file
/// libFuzzer target: `readKernelGraphJson` with the dnnl codegen's kernel rules on arbitrary bytes, against a small fixed parameter
/// file, must return a graph or an error, never crash or read out of bounds; a graph it accepts
/// is written back too, so the writer runs on every graph the reader lets through, and the dnnl
/// codegen's pad folding reads it (it looks at kernels before their checks run).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "kernel_graph/kernel_graph_json.h"
#include "runtime/dnnl/kernel_rules.h"
#include "runtime/dnnl/pad_folding.h"

namespace {

/// params.safetensors with the two constants of tests/data/export/kernel_graph_region.json and a
/// scalar zero (const_2, a pad's value).
const std::string& parameterFile() {
  static const std::string file = [] {
    const std::string header =
        R"({"const_0":{"dtype":"F32","shape":[2,2,1,1],"data_offsets":[0,16]},)"
        R"("const_1":{"dtype":"F32","shape":[2,1,1],"data_offsets":[16,24]},)"
        R"("const_2":{"dtype":"F32","shape":[],"data_offsets":[24,28]}})";
    std::string bytes;
    for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<char>((header.size() >> (8 * i)) & 0xff));
    return bytes + header + std::string(28, '\0');
  }();
  return file;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const byoc::Result<byoc::SafetensorsIndex> params = byoc::parseSafetensors(parameterFile(), "params.safetensors");
  if (!params) __builtin_trap();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  byoc::Result<byoc::kernel_graph::KernelGraph> graph =
      byoc::kernel_graph::readKernelGraphJson(text, "artifact.json", *params, "params.safetensors", byoc::dnnl_backend::kernelRules());
  if (graph) {
    byoc::ParamCollector collector;
    (void)byoc::kernel_graph::writeKernelGraphJson(*graph, collector);
    (void)byoc::dnnl_backend::foldablePads(*graph);
  }
  return 0;
}
