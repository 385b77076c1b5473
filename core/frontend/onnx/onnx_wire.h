#pragma once
/// \file
/// A check of the outer protobuf layer of a serialised ONNX `ModelProto`, done before decoding so
/// that a file which is not ONNX, or which was cut short, gets a precise message (which byte,
/// which field) instead of protobuf's bare "failed to parse".

#include <string_view>

#include "support/result.h"

namespace byoc::onnx_import {

/// Walks the top-level fields of `bytes`; an error says whether the data is truncated (a field
/// runs past the end) or is not an ONNX model (a field `ModelProto` does not have).
Status checkModelWireFormat(std::string_view bytes);

/// True when `bytes` starts as exporters write a model: field 1 (`ir_version`) as a varint.
bool startsLikeOnnxModel(std::string_view bytes);

}  // namespace byoc::onnx_import
