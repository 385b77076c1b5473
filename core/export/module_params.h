#pragma once
/// \file
/// Moving the constants of a module's JSON form (core/frontend/json_format.h) out to a parameter
/// file and back. Outside, a constant entry keeps its dtype, shape and name but replaces its
/// base64 `"data"` by `"param": "<key>"`, the key of a tensor in the safetensors parameters.
/// Equal tensors (same dtype, shape and bytes) share one key, across every module written.

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "export/safetensors.h"
#include "support/result.h"

namespace byoc {

/// Collects the parameters of the modules it externalises, then writes them as one file.
class ParamCollector {
 public:
  /// `moduleJson` (as `saveModuleJson` writes it) with every constant replaced by a reference.
  Result<std::string> externalize(std::string_view moduleJson);
  /// Collects one tensor (Relay dtype name, shape, little-endian bytes) and returns its key.
  Result<std::string> add(const std::string& relayDType, std::vector<int64_t> shape, std::vector<std::byte> bytes);
  /// The collected tensors in the safetensors layout, keys in order of first appearance.
  std::string safetensors() const;
  /// How many distinct tensors were collected.
  std::size_t size() const { return tensors_.size(); }

 private:
  struct Tensor {
    std::string key;
    std::string dtype;  ///< safetensors spelling
    std::vector<int64_t> shape;
    std::vector<std::byte> bytes;
  };
  std::vector<Tensor> tensors_;
  std::map<std::string, std::size_t> byDigest_;
};

/// `moduleJson` with every constant reference replaced by its data from `params`. Errors name
/// `moduleFile` and the constant's JSON path: a missing key in `paramsFile`, or a tensor whose
/// dtype or shape differs from the constant's.
Result<std::string> internalizeConstants(std::string_view moduleJson, const SafetensorsIndex& params,
                                         std::string_view moduleFile, std::string_view paramsFile);

/// The safetensors spelling of a Relay dtype name (`float32` → `F32`); empty if it has none.
std::string safetensorsDType(std::string_view relayDType);

}  // namespace byoc
