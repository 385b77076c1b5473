#include "plugin/plugin_module.h"

#include <system_error>

#include "support/limits.h"

namespace byoc {

namespace {

/// The DLPack type of `dtype`.
byoc_dtype dlpackType(DType dtype) {
  const auto bits = static_cast<uint8_t>(dtypeSize(dtype) * 8);
  switch (dtype) {
    case DType::Float32:
    case DType::Float16:
    case DType::Float64: return {BYOC_DTYPE_FLOAT, bits, 1};
    case DType::BFloat16: return {4, 16, 1};  // DLPack's kDLBfloat
    case DType::UInt8: return {BYOC_DTYPE_UINT, 8, 1};
    case DType::Bool: return {BYOC_DTYPE_BOOL, 8, 1};
    default: return {BYOC_DTYPE_INT, bits, 1};
  }
}

/// `float32 [1, 10]`.
std::string describe(const byoc_dtype& dtype, std::span<const int64_t> shape) {
  std::string code = dtype.code == BYOC_DTYPE_FLOAT ? "float" : dtype.code == BYOC_DTYPE_INT ? "int"
                   : dtype.code == BYOC_DTYPE_UINT  ? "uint" : dtype.code == BYOC_DTYPE_BOOL ? "bool" : "type" + std::to_string(dtype.code) + "_";
  std::string text = code + std::to_string(dtype.bits) + " [";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

/// Tensors of a region's parameters and results, flattened in order.
std::vector<const TensorTypeNode*> flatTensors(const std::vector<Type>& types) {
  std::vector<const TensorTypeNode*> tensors;
  for (const Type& type : types)
    for (const TypeNode* part : flattenTupleTypes(type)) tensors.push_back(part ? part->as<TensorTypeNode>() : nullptr);
  return tensors;
}

class PluginModule final : public RuntimeModule {
 public:
  PluginModule(std::shared_ptr<const PluginLibrary> plugin, std::string symbol, std::string directory, bool ownedDirectory)
      : plugin_(std::move(plugin)), symbol_(std::move(symbol)), codegen_(plugin_->codegenName()), directory_(std::move(directory)),
        ownedDirectory_(ownedDirectory) {}

  ~PluginModule() override {
    if (module_) plugin_->table().unload(module_);
    std::error_code ignored;
    if (ownedDirectory_) std::filesystem::remove_all(directory_, ignored);
  }

  /// Loads the artifact and checks the outputs the plugin reports against `outputs`.
  Status load(const CodegenArtifact& artifact, std::vector<const TensorTypeNode*> outputs) {
    std::vector<byoc_file> files;
    for (const auto& [name, bytes] : artifact.files)
      files.push_back({name.c_str(), reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
    const byoc_artifact table{files.data(), files.size()};
    const byoc_tensor* reported = nullptr;
    uint64_t count = 0;
    char* error = nullptr;
    if (plugin_->table().load(&table, directory_.c_str(), &module_, &reported, &count, &error) != 0) {
      module_ = nullptr;
      return makeError(plugin_->takeError(error, "load"));
    }
    if (!module_) return makeError("load returned no module");
    if (count != outputs.size())
      return makeError("the loaded artifact has " + std::to_string(count) + " output(s), the region returns " + std::to_string(outputs.size()));
    if (count > 0 && !reported) return makeError("load described its outputs with a null pointer");
    for (std::size_t i = 0; i < outputs.size(); ++i) BYOC_TRY(checkOutput(i, reported[i], *outputs[i]));
    return Status::ok();
  }

  std::string_view codegen() const override { return codegen_; }
  bool has(std::string_view symbol) const override { return symbol == symbol_; }

  Status run(std::string_view symbol, std::span<const NDArray> inputs, std::span<const NDArray> outputs) override {
    if (symbol != symbol_) return makeError(codegen_ + " module: unknown symbol " + std::string(symbol));
    std::vector<byoc_tensor> in, out;
    for (const NDArray& array : inputs) in.push_back(tensorOf(array));
    for (const NDArray& array : outputs) out.push_back(tensorOf(array));
    char* error = nullptr;
    if (plugin_->table().run(module_, in.data(), in.size(), out.data(), out.size(), &error) != 0)
      return makeError("@" + symbol_ + " (" + codegen_ + "): " + plugin_->takeError(error, "run"));
    return Status::ok();
  }

 private:
  static byoc_tensor tensorOf(const NDArray& array) {
    return {array.bytes(), dlpackType(array.dtype()), static_cast<int32_t>(array.rank()), array.shape().data(), nullptr};
  }

  static Status checkOutput(std::size_t index, const byoc_tensor& reported, const TensorTypeNode& expected) {
    if (reported.ndim < 0 || reported.ndim > limits::kMaxRank || (reported.ndim > 0 && !reported.shape))
      return makeError("the loaded artifact describes output " + std::to_string(index) + " with rank " + std::to_string(reported.ndim) +
                       " or without a shape");
    const std::span<const int64_t> shape(reported.shape, static_cast<std::size_t>(reported.ndim));
    const byoc_dtype want = dlpackType(expected.dtype);
    const bool same = reported.dtype.code == want.code && reported.dtype.bits == want.bits &&
                      std::equal(shape.begin(), shape.end(), expected.shape.begin(), expected.shape.end());
    if (!same)
      return makeError("output " + std::to_string(index) + " of the loaded artifact is " + describe(reported.dtype, shape) +
                       ", the region returns " + describe(want, expected.shape));
    return Status::ok();
  }

  std::shared_ptr<const PluginLibrary> plugin_;
  std::string symbol_;
  std::string codegen_;
  std::string directory_;
  bool ownedDirectory_;
  byoc_module* module_ = nullptr;
};

}  // namespace

Result<std::unique_ptr<RuntimeModule>> loadPluginModule(std::shared_ptr<const PluginLibrary> plugin, const Function& function,
                                                        const std::string& symbol, const CodegenArtifact& artifact,
                                                        const std::string& directory, bool ownedDirectory) {
  auto module = std::make_unique<PluginModule>(std::move(plugin), symbol, directory, ownedDirectory);
  const auto* type = function->type() ? function->type()->as<FuncTypeNode>() : nullptr;
  if (!type) return makeError("the region has no function type");
  std::vector<const TensorTypeNode*> outputs = flatTensors({type->ret});
  for (const TensorTypeNode* output : outputs)
    if (!output) return makeError("the region returns something other than tensors");
  BYOC_TRY(module->load(artifact, std::move(outputs)));
  return std::unique_ptr<RuntimeModule>(std::move(module));
}

}  // namespace byoc
