#pragma once
/// \file
/// Imports the main graph of a decoded ONNX model: initializers, inputs, nodes in order, outputs.
/// Every node is converted by its converter (after the integer folders had their chance) with a
/// fresh origin recorded in the provenance table. The subgraphs of If, Loop and Scan are imported
/// by nested importers that see the enclosing graphs' values (onnx_control_flow.h).

#include <string>

#include "frontend/onnx/onnx_import.h"
#include "ir/module.h"
#include "onnx/onnx_pb.h"
#include "support/result.h"

namespace byoc::onnx_import {

/// Builds the module of `graph`. `opset` is the model's version of the default domain; `progress`
/// (may be empty) hears of every node and may cancel.
Result<Module> importGraph(const onnx::GraphProto& graph, int64_t opset, const std::string& fileName,
                           const std::string& externalDataDir, const OnnxImportProgress& progress);

}  // namespace byoc::onnx_import
