#include "export/signature.h"

namespace byoc {

namespace {

void addTensors(const Type& type, const std::string& name, std::vector<ManifestTensor>& tensors) {
  if (!type) return;
  if (const auto* tensor = type->as<TensorTypeNode>()) {
    tensors.push_back({name, std::string(dtypeName(tensor->dtype)), tensor->shape});
  } else if (const auto* tuple = type->as<TupleTypeNode>()) {
    for (const Type& field : tuple->fields) addTensors(field, name, tensors);
  }
}

std::string describe(const ManifestTensor& tensor) {
  std::string text = (tensor.name.empty() ? "" : "'" + tensor.name + "' ") + tensor.dtype + " [";
  for (std::size_t i = 0; i < tensor.shape.size(); ++i) text += (i ? ", " : "") + std::to_string(tensor.shape[i]);
  return text + "]";
}

/// The first difference between what the manifest `recorded` under `key` and what @main `has`.
Status compare(const std::vector<ManifestTensor>& recorded, const std::vector<ManifestTensor>& has, const std::string& key,
               const std::string& manifestPath) {
  const std::string what = key == "inputs" ? "takes" : "returns";
  for (std::size_t i = 0; i < std::max(recorded.size(), has.size()); ++i) {
    const std::string path = "/" + key + "/" + std::to_string(i);
    if (i >= recorded.size())
      return makeError("/" + key + ": records " + std::to_string(recorded.size()) + " tensor(s), @main " + what + " " +
                           std::to_string(has.size()),
                       {manifestPath});
    if (i >= has.size())
      return makeError(path + ": records " + describe(recorded[i]) + ", but @main " + what + " only " + std::to_string(has.size()) +
                           " tensor(s)",
                       {manifestPath});
    const ManifestTensor& a = recorded[i];
    const ManifestTensor& b = has[i];
    if (a.name != b.name || a.dtype != b.dtype || a.shape != b.shape)
      return makeError(path + ": records " + describe(a) + ", @main " + what + " " + describe(b), {manifestPath});
  }
  return Status::ok();
}

}  // namespace

void signatureOf(const Function& main, std::vector<ManifestTensor>& inputs, std::vector<ManifestTensor>& outputs) {
  for (const Var& param : main->params) addTensors(param->type(), param->name, inputs);
  addTensors(main->body->type(), "", outputs);
}

Status checkSignature(const Manifest& manifest, const Function& main, const std::string& manifestPath) {
  std::vector<ManifestTensor> inputs;
  std::vector<ManifestTensor> outputs;
  signatureOf(main, inputs, outputs);
  BYOC_TRY(compare(manifest.inputs, inputs, "inputs", manifestPath));
  return compare(manifest.outputs, outputs, "outputs", manifestPath);
}

}  // namespace byoc
