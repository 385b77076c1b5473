#pragma once
/// \file
/// The artifact of a `dnnl` external function: its kernel graph (runtime/dnnl/kernel_graph.h) as
/// JSON, constants referenced by key into the export's params.safetensors. docs/export-format.md
/// describes every field.
///
/// Reading checks everything a hand-edited or damaged file can get wrong and names the file and
/// the JSON pointer: an unknown kernel, a reference to a node or output that does not exist or
/// comes later, inputs that do not fit the kernel (count, dtype, shape, attributes), a constant
/// params.safetensors does not hold or holds with another dtype or shape.

#include <string>
#include <string_view>

#include "export/module_params.h"
#include "export/safetensors.h"
#include "runtime/dnnl/kernel_graph.h"
#include "support/result.h"

namespace byoc {

/// The `format` field of a kernel graph artifact.
inline constexpr std::string_view kKernelGraphFormat = "byoc-dnnl-kernel-graph";

/// Whether `text` is JSON whose `format` field names a kernel graph (other artifacts are modules in
/// the JSON form).
bool isKernelGraphJson(std::string_view text);

/// `graph` as JSON, one node per line, its constants collected into `params`.
Result<std::string> writeKernelGraphJson(const dnnl_backend::KernelGraph& graph, ParamCollector& params);

/// Reads the artifact `text` of the file `file`, its constants taken from `params` (the file
/// `paramsFile`). The graph's nodes remember their JSON pointers, so that later errors name them too.
Result<dnnl_backend::KernelGraph> readKernelGraphJson(std::string_view text, const std::string& file,
                                                      const SafetensorsIndex& params, const std::string& paramsFile);

}  // namespace byoc
