/// \file
/// `byoc-plugin-host PLUGIN`: the only process that opens a codegen plugin library. The program
/// starts one per plugin use (plugin_process.h) with a local socket as descriptor 3, and the host
/// serves the requests of plugin_wire.h on it: it greets with the plugin's description, then
/// compiles regions, or loads one artifact, runs it and unloads it. It exits when the program
/// closes the socket or after an unload, without running the plugin's exit handlers: a plugin
/// that crashes, exits or stalls takes only this process down.

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "export/safetensors.h"
#include "plugin/plugin_arena.h"
#include "plugin/plugin_library.h"
#include "plugin/plugin_wire.h"
#include "support/limits.h"

namespace {

using namespace byoc;

constexpr int kSocket = 3;
constexpr WireDeadline kNever = WireDeadline::max();

/// The DLPack type of a safetensors dtype.
byoc_dtype typeOf(const std::string& dtype) {
  const uint8_t bits = static_cast<uint8_t>(safetensorsDTypeSize(dtype) * 8);
  if (dtype == "BF16") return {4, 16, 1};
  if (dtype == "BOOL") return {BYOC_DTYPE_BOOL, 8, 1};
  if (dtype[0] == 'F') return {BYOC_DTYPE_FLOAT, bits, 1};
  if (dtype[0] == 'U') return {BYOC_DTYPE_UINT, bits, 1};
  return {BYOC_DTYPE_INT, bits, 1};
}

/// The bytes of a compact tensor of `type`, or -1 when the type is not one.
int64_t byteSize(const WireTensorType& type) {
  if (type.dtype.bits % 8 != 0 || type.dtype.lanes != 1 || static_cast<int64_t>(type.shape.size()) > limits::kMaxRank) return -1;
  int64_t size = type.dtype.bits / 8;
  for (int64_t dimension : type.shape) {
    if (dimension < 0 || (dimension > 0 && size > limits::kMaxPluginArtifactBytes * 64 / dimension)) return -1;
    size *= dimension;
  }
  return size;
}

/// One plugin, served: at most one loaded module.
class Server {
 public:
  explicit Server(std::shared_ptr<const PluginLibrary> plugin) : plugin_(std::move(plugin)) {}

  /// The reply to one request, which came with the descriptor `received` (or -1); `done` is set
  /// when the host should exit after sending it.
  Result<std::string> serve(std::string_view request, int received, bool& done) {
    if (received >= 0) {
      BYOC_ASSIGN_OR_RETURN(PluginArena arena, PluginArena::adopt(received));
      arena_ = std::move(arena);
    }
    WireReader reader(request);
    switch (static_cast<WireRequest>(reader.u32())) {
      case WireRequest::Compile: return compile(reader);
      case WireRequest::Load: return load(reader);
      case WireRequest::Run: return run(reader);
      case WireRequest::Unload:
        done = true;
        if (module_) plugin_->table().unload(module_);
        module_ = nullptr;
        return std::string();
    }
    return makeError("the plugin host got an unknown request");
  }

 private:
  Result<std::string> compile(WireReader& reader) {
    const std::string_view region = reader.bytes();
    const std::string constantBytes(reader.bytes());
    if (!reader.ok()) return makeError("the plugin host got a malformed compile request");
    BYOC_ASSIGN_OR_RETURN(SafetensorsIndex index, parseSafetensors(constantBytes, "constants.safetensors"));
    std::vector<byoc_constant> constants;
    for (const SafetensorsEntry& entry : index.entries) {
      const std::string_view bytes = index.bytesOf(entry);
      byoc_tensor tensor{const_cast<char*>(bytes.data()), typeOf(entry.dtype), static_cast<int32_t>(entry.shape.size()),
                         entry.shape.data(), nullptr};
      constants.push_back({entry.name.c_str(), tensor});
    }
    BYOC_ASSIGN_OR_RETURN(CodegenArtifact artifact, plugin_->compile(region, constants));
    WireWriter reply;
    reply.i64(static_cast<int64_t>(artifact.files.size()));
    for (const auto& [name, bytes] : artifact.files) reply.bytes(name).bytes(bytes);
    return reply.payload();
  }

  Result<std::string> load(WireReader& reader) {
    if (module_) return makeError("the plugin host has already loaded an artifact");
    directory_ = std::string(reader.bytes());
    const int64_t count = reader.i64();
    if (!reader.ok() || count < 0 || count > limits::kMaxPluginArtifactFiles)
      return makeError("the plugin host got a malformed load request");
    for (int64_t i = 0; i < count; ++i) {
      names_.emplace_back(reader.bytes());
      contents_.emplace_back(reader.bytes());
    }
    if (!reader.ok()) return makeError("the plugin host got a malformed load request");
    std::vector<byoc_file> files;
    for (std::size_t i = 0; i < names_.size(); ++i)
      files.push_back({names_[i].c_str(), reinterpret_cast<const uint8_t*>(contents_[i].data()), contents_[i].size()});
    const byoc_artifact artifact{files.data(), files.size()};
    const byoc_tensor* outputs = nullptr;
    uint64_t outputCount = 0;
    char* error = nullptr;
    if (plugin_->table().load(&artifact, directory_.c_str(), &module_, &outputs, &outputCount, &error) != 0) {
      module_ = nullptr;
      return makeError(plugin_->takeError(error, "load"));
    }
    if (!module_) return makeError("load returned no module");
    if (outputCount > 0 && !outputs) return makeError("load described its outputs with a null pointer");
    if (outputCount > static_cast<uint64_t>(limits::kMaxPluginArtifactFiles) * 1024)
      return makeError("load described " + std::to_string(outputCount) + " outputs");
    WireWriter reply;
    reply.i64(static_cast<int64_t>(outputCount));
    for (uint64_t i = 0; i < outputCount; ++i) {
      const byoc_tensor& output = outputs[i];
      if (output.ndim < 0 || output.ndim > limits::kMaxRank || (output.ndim > 0 && !output.shape))
        return makeError("the loaded artifact describes output " + std::to_string(i) + " with rank " + std::to_string(output.ndim) +
                         " or without a shape");
      reply.tensorType(output.dtype, output.shape, output.ndim);
    }
    return reply.payload();
  }

  Result<std::string> run(WireReader& reader) {
    if (!module_) return makeError("the plugin host has loaded no artifact");
    if (!arena_) return makeError("the plugin host got a run request without tensor memory");
    std::vector<WireTensorType> types;
    std::vector<byoc_tensor> tensors;
    const int64_t inputCount = reader.i64();
    for (int64_t i = 0; reader.ok() && i < inputCount; ++i) BYOC_TRY(readTensor(reader, types, tensors));
    const int64_t outputCount = reader.i64();
    for (int64_t i = 0; reader.ok() && i < outputCount; ++i) BYOC_TRY(readTensor(reader, types, tensors));
    if (!reader.ok()) return makeError("the plugin host got a malformed run request");
    // The shapes point into `types`, complete now.
    for (std::size_t i = 0; i < tensors.size(); ++i) tensors[i].shape = types[i].shape.data();
    char* error = nullptr;
    const auto inputs = static_cast<uint64_t>(inputCount);
    if (plugin_->table().run(module_, tensors.data(), inputs, tensors.data() + inputs, tensors.size() - inputs, &error) != 0)
      return makeError(plugin_->takeError(error, "run"));
    return std::string();
  }

  /// Reads one tensor of a run request: its description and where it lies in the arena.
  Status readTensor(WireReader& reader, std::vector<WireTensorType>& types, std::vector<byoc_tensor>& tensors) {
    WireTensorType type = reader.tensorType();
    const int64_t offset = reader.i64();
    if (!reader.ok()) return Status::ok();  // the caller reports the malformed request
    const int64_t bytes = byteSize(type);
    if (bytes < 0 || !arena_->holds(offset, bytes))
      return makeError("the plugin host got tensor " + std::to_string(tensors.size()) + " outside its tensor memory");
    tensors.push_back({arena_->data() + offset, type.dtype, static_cast<int32_t>(type.shape.size()), nullptr, nullptr});
    types.push_back(std::move(type));
    return Status::ok();
  }

  std::shared_ptr<const PluginLibrary> plugin_;
  byoc_module* module_ = nullptr;
  /// The tensor memory of runs: the last one the program sent.
  std::optional<PluginArena> arena_;
  std::string directory_;
  std::vector<std::string> names_, contents_;
};

/// Sends a reply: status 0 and `result`, or status 1 and the error's message.
void reply(const Result<std::string>& result) {
  WireWriter message;
  if (result) message.u32(0);
  else message.u32(1).bytes(result.error().message);
  std::string payload = message.payload();
  if (result) payload += *result;
  if (!sendMessage(kSocket, payload, kNever)) ::_exit(1);
}

/// Ends the host as soon as the program closes its end of the socket, even while plugin code
/// holds the main thread (a constructor that never returns): a program that exits or is killed
/// leaves no host behind.
void exitWhenTheProgramLeaves() {
  std::thread([] {
    for (;;) {
      pollfd socket{kSocket, POLLRDHUP, 0};
      if (::poll(&socket, 1, -1) > 0 && (socket.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL))) ::_exit(0);
    }
  }).detach();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || ::fcntl(kSocket, F_GETFD) < 0) {
    std::cerr << "usage: byoc-plugin-host PLUGIN, started by byoc and byoc-studio with a socket as descriptor 3\n";
    return 2;
  }
  exitWhenTheProgramLeaves();
  Result<std::shared_ptr<const PluginLibrary>> plugin = PluginLibrary::open(argv[1]);
  if (!plugin) {
    reply(makeError(plugin.error().message));
    ::_exit(1);
  }
  const PluginLibrary& library = **plugin;
  reply(WireWriter().bytes(library.name()).bytes(library.version()).bytes(library.summary()).payload());
  Server server(*plugin);
  for (;;) {
    // An error here is the program closing the socket: nothing is left to do.
    int received = -1;
    Result<std::string> request = receiveMessage(kSocket, kNever, uint64_t{1} << 40, &received);
    if (!request) ::_exit(0);
    bool done = false;
    reply(server.serve(*request, received, done));
    if (done) ::_exit(0);
  }
}
