#include "export/module_params.h"

#include <nlohmann/json.hpp>

#include "export/sha256.h"
#include "support/base64.h"
#include "support/json_document.h"

namespace byoc {

namespace {

using json = nlohmann::json;

/// The constants array of a module's JSON form, or an error naming `file`.
Result<json*> constantsOf(json& root, std::string_view file) {
  if (!root.is_object() || !root.contains("constants") || !root["constants"].is_array())
    return makeError("expected a module in the JSON form with a \"constants\" array", {std::string(file)});
  return &root["constants"];
}

std::string shapeText(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

}  // namespace

std::string safetensorsDType(std::string_view relayDType) {
  static const std::map<std::string_view, std::string_view> names = {
      {"float32", "F32"}, {"float16", "F16"}, {"bfloat16", "BF16"}, {"float64", "F64"}, {"int8", "I8"},
      {"int16", "I16"},   {"int32", "I32"},   {"int64", "I64"},     {"uint8", "U8"},    {"bool", "BOOL"}};
  auto found = names.find(relayDType);
  return found == names.end() ? std::string() : std::string(found->second);
}

Result<std::string> ParamCollector::add(const std::string& relayDType, std::vector<int64_t> shape, std::vector<std::byte> bytes) {
  Tensor tensor;
  tensor.dtype = safetensorsDType(relayDType);
  if (tensor.dtype.empty()) return makeError("a constant of dtype " + relayDType + " has no safetensors dtype");
  tensor.shape = std::move(shape);
  tensor.bytes = std::move(bytes);
  const std::string digest = sha256Hex(tensor.dtype + shapeText(tensor.shape) + "|" +
                                       std::string(reinterpret_cast<const char*>(tensor.bytes.data()), tensor.bytes.size()));
  auto [found, inserted] = byDigest_.emplace(digest, tensors_.size());
  if (inserted) {
    tensor.key = "const_" + std::to_string(tensors_.size());
    tensors_.push_back(std::move(tensor));
  }
  return tensors_[found->second].key;
}

Result<std::string> ParamCollector::externalize(std::string_view moduleJson) {
  json root = json::parse(moduleJson, nullptr, /*allow_exceptions=*/false);
  BYOC_ASSIGN_OR_RETURN(json * constants, constantsOf(root, "<module>"));
  for (json& entry : *constants) {
    std::optional<std::vector<std::byte>> bytes = base64Decode(entry.value("data", ""));
    if (!bytes) return makeError("a constant's data is not valid base64");
    BYOC_ASSIGN_OR_RETURN(std::string key, add(entry.value("dtype", ""), entry.value("shape", std::vector<int64_t>{}), std::move(*bytes)));
    entry.erase("data");
    entry["param"] = key;
  }
  return root.dump();
}

std::string ParamCollector::safetensors() const {
  std::vector<SafetensorsTensor> views;
  for (const Tensor& tensor : tensors_) views.push_back({tensor.key, tensor.dtype, tensor.shape, tensor.bytes});
  return writeSafetensors(views, {{"format", "byoc-export"}});
}

Result<std::string> internalizeConstants(std::string_view moduleJson, const SafetensorsIndex& params,
                                         std::string_view moduleFile, std::string_view paramsFile) {
  BYOC_ASSIGN_OR_RETURN(json root, parseJsonDocument(moduleJson, moduleFile));
  BYOC_ASSIGN_OR_RETURN(json * constants, constantsOf(root, moduleFile));
  for (std::size_t i = 0; i < constants->size(); ++i) {
    json& entry = (*constants)[i];
    const std::string path = "/constants/" + std::to_string(i);
    auto fail = [&](const std::string& message) { return makeError(path + ": " + message, {std::string(moduleFile)}); };
    if (!entry.is_object() || !entry.contains("param") || !entry["param"].is_string())
      return fail("expected a \"param\" naming a tensor of " + std::string(paramsFile));
    const std::string key = entry["param"].get<std::string>();
    const SafetensorsEntry* tensor = params.find(key);
    if (!tensor) return fail("references constant '" + key + "', which " + std::string(paramsFile) + " does not hold");
    const json dtype = entry.value("dtype", json());
    const json shape = entry.value("shape", json());
    if (!dtype.is_string() || safetensorsDType(dtype.get<std::string>()) != tensor->dtype || shape != json(tensor->shape))
      return fail("constant '" + key + "' is " + tensor->dtype + " " + shapeText(tensor->shape) + " in " +
                  std::string(paramsFile) + ", which differs from its dtype and shape here");
    const std::string_view bytes = params.bytesOf(*tensor);
    entry.erase("param");
    entry["data"] = base64Encode(std::span(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()));
  }
  return root.dump();
}

}  // namespace byoc
