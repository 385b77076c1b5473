#pragma once
/// \file
/// Typed access to the attributes of an ONNX node. A present attribute of the wrong type is an
/// error naming the expected and the found type; an absent one takes the given default or is an
/// error when there is none. Errors name no node; the importer prefixes it.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "onnx/onnx_pb.h"
#include "support/result.h"

namespace byoc::onnx_import {

/// The double whose shortest decimal form is that of `value`.
double widenFloat(float value);

/// Read-only view of one node's attributes.
class NodeAttributes {
 public:
  /// The attributes of `node`, which must outlive the view.
  explicit NodeAttributes(const onnx::NodeProto& node) : node_(node) {}

  /// True when the node carries attribute `name`.
  bool has(std::string_view name) const;

  /// An `INT` attribute, or `fallback` when absent.
  Result<int64_t> getInt(std::string_view name, std::optional<int64_t> fallback = {}) const;
  /// A `FLOAT` attribute, or `fallback` when absent, widened to the double with the same shortest
  /// decimal form (1e-5f reads as 1e-05, not 9.99999974e-06).
  Result<double> getFloat(std::string_view name, std::optional<float> fallback = {}) const;
  /// A `STRING` attribute, or `fallback` when absent.
  Result<std::string> getString(std::string_view name, std::optional<std::string> fallback = {}) const;
  /// An `INTS` attribute, or `fallback` when absent.
  Result<std::vector<int64_t>> getInts(std::string_view name,
                                       std::optional<std::vector<int64_t>> fallback = {}) const;
  /// A `FLOATS` attribute, or `fallback` when absent.
  Result<std::vector<float>> getFloats(std::string_view name, std::optional<std::vector<float>> fallback = {}) const;
  /// A `TENSOR` attribute (no default).
  Result<const onnx::TensorProto*> getTensor(std::string_view name) const;

 private:
  /// The attribute `name` if present and of type `expected`; null if absent; an error if mistyped.
  Result<const onnx::AttributeProto*> find(std::string_view name, onnx::AttributeProto::AttributeType expected) const;

  const onnx::NodeProto& node_;
};

}  // namespace byoc::onnx_import
