#pragma once
/// \file
/// A kernel graph (kernel_graph.h) as JSON, format "byoc-kernel-graph": the artifact an export keeps
/// for a region and the region a codegen plugin receives, constants referenced by key into a
/// safetensors file. docs/export-format.md describes every field. Version 1 of the form, named
/// "byoc-dnnl-kernel-graph", is read as well: it differs from version 2 only in that name.
///
/// Reading checks everything a hand-edited or damaged file can get wrong and names the file and
/// the JSON pointer: a reference to a node or output that does not exist or comes later, a constant
/// the parameters do not hold or hold with another dtype or shape, and whatever the rules of the
/// codegen that is to run the graph reject (an unknown kernel, inputs that do not fit it).

#include <string>
#include <string_view>

#include "export/module_params.h"
#include "export/safetensors.h"
#include "kernel_graph/kernel_graph.h"
#include "kernel_graph/kernel_rules.h"
#include "support/result.h"

namespace byoc::kernel_graph {

/// The `format` field of a kernel graph.
inline constexpr std::string_view kKernelGraphFormat = "byoc-kernel-graph";
/// The `format` field of version 1, which named the graph after the one codegen that read it then.
inline constexpr std::string_view kKernelGraphFormatV1 = "byoc-dnnl-kernel-graph";

/// Whether `text` is JSON whose `format` field names a kernel graph, of any version (other
/// artifacts are modules in the JSON form).
bool isKernelGraphJson(std::string_view text);

/// `graph` as JSON, one node per line, its constants collected into `params`.
Result<std::string> writeKernelGraphJson(const KernelGraph& graph, ParamCollector& params);

/// Reads the artifact `text` of the file `file`, its constants taken from `params` (the file
/// `paramsFile`), each kernel checked against `rules`. The graph's nodes remember their JSON
/// pointers, so that later errors name them too.
Result<KernelGraph> readKernelGraphJson(std::string_view text, const std::string& file, const SafetensorsIndex& params,
                                        const std::string& paramsFile, const KernelRules& rules);

}  // namespace byoc::kernel_graph
