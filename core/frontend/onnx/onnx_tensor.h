#pragma once
/// \file
/// ONNX tensors to IR tensor data: element types, the typed and raw data fields of a
/// `TensorProto`, and external data stored in a file beside the model.
///
/// Errors name no location; the importer prefixes the initializer or node they concern.

#include <cstdint>
#include <string>

#include "ir/tensor_data.h"
#include "onnx/onnx_pb.h"
#include "support/result.h"

namespace byoc::onnx_import {

/// The ONNX spelling of an element type (`FLOAT`, `INT64`, …), or its number when unknown.
std::string onnxElemTypeName(int32_t elemType);

/// "(1, 3, ?, 224)": a shape as errors show it, unknown dimensions as `?`.
std::string shapeString(const Shape& shape);
/// "(2, -1, 0)": integers from the model (pads, sizes, axes…) as errors show them.
std::string listString(const std::vector<int64_t>& values);

/// Checks a shape read from the model or computed from it against the limits of
/// `core/support/limits.h` (rank, negative dimensions, element count). Unknown dimensions
/// (`kAnyDim`) count as 1 when `allowUnknown` is set. The error shows the shape and what is wrong.
Status checkShape(const Shape& shape, bool allowUnknown = false);

/// The IR dtype of an ONNX element type; an error for types the IR has no dtype for.
Result<DType> dtypeFromOnnx(int32_t elemType);

/// The content of `proto`. External data (`data_location: EXTERNAL`) is read from the file its
/// `location` names, relative to `externalDataDir`.
Result<TensorData> tensorFromProto(const onnx::TensorProto& proto, const std::string& externalDataDir);

}  // namespace byoc::onnx_import
