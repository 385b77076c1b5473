#include "plugin/plugin_module.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <system_error>

#include "plugin/plugin_arena.h"
#include "plugin/plugin_wire.h"
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

struct UnloadErrors {
  std::mutex mutex;
  std::vector<Diagnostic> errors;
};

UnloadErrors& unloadErrors() {
  static UnloadErrors instance;
  return instance;
}

class PluginModule final : public RuntimeModule {
 public:
  PluginModule(std::unique_ptr<PluginProcess> process, std::string symbol, std::string directory, bool ownedDirectory)
      : process_(std::move(process)), symbol_(std::move(symbol)), codegen_(process_->description().codegenName()),
        directory_(std::move(directory)), ownedDirectory_(ownedDirectory) {}

  ~PluginModule() override {
    // A host that has already failed was reported then; only an unload's own failure is new.
    if (loaded_ && process_->running()) {
      WireWriter request;
      request.u32(uint32_t(WireRequest::Unload));
      Result<std::string> unloaded = process_->call(request.payload(), "unloading @" + symbol_, PluginLimit::Call, 0);
      if (!unloaded) {
        UnloadErrors& failures = unloadErrors();
        std::lock_guard lock(failures.mutex);
        failures.errors.push_back(makeError("@" + symbol_ + " (" + codegen_ + "): " + unloaded.error().message));
      }
    }
    process_.reset();
    std::error_code ignored;
    if (ownedDirectory_) std::filesystem::remove_all(directory_, ignored);
  }

  /// Loads the artifact and checks the outputs the plugin reports against `outputs`.
  Status load(const CodegenArtifact& artifact, std::vector<const TensorTypeNode*> outputs) {
    WireWriter request;
    request.u32(uint32_t(WireRequest::Load)).bytes(directory_).i64(static_cast<int64_t>(artifact.files.size()));
    for (const auto& [name, bytes] : artifact.files) request.bytes(name).bytes(bytes);
    BYOC_ASSIGN_OR_RETURN(std::string reply, process_->call(request.payload(), "loading @" + symbol_, PluginLimit::Call,
                                                            uint64_t{1} << 20));
    loaded_ = true;
    WireReader reader(reply);
    const int64_t count = reader.i64();
    if (!reader.ok() || count < 0) return makeError(codegen_ + " sent a malformed reply to loading @" + symbol_);
    if (static_cast<std::size_t>(count) != outputs.size())
      return makeError("the loaded artifact has " + std::to_string(count) + " output(s), the region returns " + std::to_string(outputs.size()));
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      const WireTensorType reported = reader.tensorType();
      if (!reader.ok()) return makeError(codegen_ + " sent a malformed reply to loading @" + symbol_);
      BYOC_TRY(checkOutput(i, reported, *outputs[i]));
    }
    return Status::ok();
  }

  std::string_view codegen() const override { return codegen_; }
  bool has(std::string_view symbol) const override { return symbol == symbol_; }

  Status run(std::string_view symbol, std::span<const NDArray> inputs, std::span<const NDArray> outputs) override {
    if (symbol != symbol_) return makeError(codegen_ + " module: unknown symbol " + std::string(symbol));
    std::vector<uint64_t> sizes;
    for (const NDArray& array : inputs) sizes.push_back(array.byteSize());
    for (const NDArray& array : outputs) sizes.push_back(array.byteSize());
    const ArenaLayout layout = layoutTensors(sizes);
    int passed = -1;
    if (!arena_ || arena_->size() < layout.size) {
      Result<PluginArena> arena = PluginArena::create(layout.size);
      if (!arena) return makeError("@" + symbol_ + " (" + codegen_ + "): " + arena.error().message);
      arena_ = std::move(*arena);
      passed = arena_->descriptor();
    }
    WireWriter request;
    request.u32(uint32_t(WireRequest::Run)).i64(static_cast<int64_t>(inputs.size()));
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const NDArray& array = inputs[i];
      std::memcpy(arena_->data() + layout.offsets[i], array.bytes(), array.byteSize());
      request.tensorType(dlpackType(array.dtype()), array.shape().data(), static_cast<int32_t>(array.rank()))
          .i64(static_cast<int64_t>(layout.offsets[i]));
    }
    request.i64(static_cast<int64_t>(outputs.size()));
    for (std::size_t i = 0; i < outputs.size(); ++i)
      request.tensorType(dlpackType(outputs[i].dtype()), outputs[i].shape().data(), static_cast<int32_t>(outputs[i].rank()))
          .i64(static_cast<int64_t>(layout.offsets[inputs.size() + i]));
    const std::string what = "running @" + symbol_;
    Result<std::string> reply = process_->call(request.payload(), what, PluginLimit::Call, 0, nullptr, passed);
    if (!reply) return makeError("@" + symbol_ + " (" + codegen_ + "): " + reply.error().message);
    for (std::size_t i = 0; i < outputs.size(); ++i)
      std::memcpy(outputs[i].bytes(), arena_->data() + layout.offsets[inputs.size() + i], outputs[i].byteSize());
    return Status::ok();
  }

 private:
  static Status checkOutput(std::size_t index, const WireTensorType& reported, const TensorTypeNode& expected) {
    const byoc_dtype want = dlpackType(expected.dtype);
    const bool same = reported.dtype.code == want.code && reported.dtype.bits == want.bits &&
                      std::equal(reported.shape.begin(), reported.shape.end(), expected.shape.begin(), expected.shape.end());
    if (!same)
      return makeError("output " + std::to_string(index) + " of the loaded artifact is " + describe(reported.dtype, reported.shape) +
                       ", the region returns " + describe(want, expected.shape));
    return Status::ok();
  }

  std::unique_ptr<PluginProcess> process_;
  std::string symbol_;
  std::string codegen_;
  std::string directory_;
  bool ownedDirectory_;
  bool loaded_ = false;
  /// The tensors of runs, shared with the host; replaced by a larger one when a run needs it.
  std::optional<PluginArena> arena_;
};

}  // namespace

Result<std::unique_ptr<RuntimeModule>> loadPluginModule(const PluginDescription& description, const Function& function,
                                                        const std::string& symbol, const CodegenArtifact& artifact,
                                                        const std::string& directory, bool ownedDirectory) {
  const auto* type = function->type() ? function->type()->as<FuncTypeNode>() : nullptr;
  std::vector<const TensorTypeNode*> outputs = type ? flatTensors({type->ret}) : std::vector<const TensorTypeNode*>{};
  const bool tensorsOnly = type && std::none_of(outputs.begin(), outputs.end(), [](const TensorTypeNode* output) { return !output; });
  Result<std::unique_ptr<PluginProcess>> process =
      tensorsOnly ? PluginProcess::start(description.path)
                  : Result<std::unique_ptr<PluginProcess>>(makeError(type ? "the region returns something other than tensors"
                                                                          : "the region has no function type"));
  if (process && ((*process)->description().name != description.name || (*process)->description().version != description.version))
    process = makeError("the plugin file changed: it was " + description.codegenName() + " " + description.version + ", it is now " +
                            (*process)->description().codegenName() + " " + (*process)->description().version,
                        {description.path});
  if (!process) {
    std::error_code ignored;
    if (ownedDirectory) std::filesystem::remove_all(directory, ignored);
    return process.error();
  }
  auto module = std::make_unique<PluginModule>(std::move(*process), symbol, directory, ownedDirectory);
  BYOC_TRY(module->load(artifact, std::move(outputs)));
  return std::unique_ptr<RuntimeModule>(std::move(module));
}

std::vector<Diagnostic> takePluginUnloadErrors() {
  UnloadErrors& failures = unloadErrors();
  std::lock_guard lock(failures.mutex);
  return std::exchange(failures.errors, {});
}

}  // namespace byoc
