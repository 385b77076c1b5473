#pragma once
/// \file
/// The messages between the program and `byoc-plugin-host` (plugin_process.h), over a local
/// socket. A message is its length (8 bytes, little-endian) and then its payload; a payload is a
/// sequence of 32-bit and 64-bit integers and byte strings (a 64-bit length, then the bytes),
/// written by `WireWriter` and read back in the same order by `WireReader`.
///
/// Requests (the first field is the request's `WireRequest`):
///   compile  region JSON, constants as safetensors          → the artifact's files
///   load     directory, the artifact's files                  → the outputs' descriptions
///   run      the tensor arena's size, inputs and outputs      → nothing; the outputs are in the arena
///            (each a description and its offset in the arena)
///   unload                                                    → nothing; the host then exits
/// Tensors do not travel through the socket: they live in an arena of shared memory (a sealed
/// memory file, plugin_arena.h) that both map. A run request that comes with a new arena carries
/// its descriptor (SCM_RIGHTS); the host keeps the last one it got.
/// Every reply starts with a status: 0 and the result, or 1 and a one-line error message. Before
/// any request the host sends its greeting, a reply holding the plugin's name, version and summary.

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "byoc/codegen_plugin.h"
#include "support/result.h"

namespace byoc {

enum class WireRequest : uint32_t { Compile = 1, Load = 2, Run = 3, Unload = 4 };

/// Builds a payload.
class WireWriter {
 public:
  WireWriter& u32(uint32_t value);
  WireWriter& i64(int64_t value);
  WireWriter& bytes(std::string_view value);
  /// A tensor's description: dtype, rank and shape.
  WireWriter& tensorType(const byoc_dtype& dtype, const int64_t* shape, int32_t ndim);
  const std::string& payload() const { return payload_; }

 private:
  std::string payload_;
};

/// A tensor's description as read from a payload.
struct WireTensorType {
  byoc_dtype dtype{};
  std::vector<int64_t> shape;
};

/// Reads a payload; a read past its end gives zeros and marks the reader failed.
class WireReader {
 public:
  explicit WireReader(std::string_view payload) : rest_(payload) {}
  uint32_t u32();
  int64_t i64();
  std::string_view bytes();
  WireTensorType tensorType();
  /// Whether every read so far found its data.
  bool ok() const { return ok_; }
  bool atEnd() const { return rest_.empty(); }

 private:
  bool take(void* out, std::size_t size);

  std::string_view rest_;
  bool ok_ = true;
};

/// When a wait for the other side gives up; `max()` for never.
using WireDeadline = std::chrono::steady_clock::time_point;

/// Writes one message to the socket `fd`, waiting for it to drain until `deadline`; with
/// `passed` ≥ 0, that descriptor goes with it.
Status sendMessage(int fd, std::string_view payload, WireDeadline deadline, int passed = -1);

/// Reads one message from the socket `fd`, of at most `maxBytes`, waiting until `deadline`.
/// An orderly end of the stream is the error "closed". A descriptor that came with the message
/// is stored in `*received` (which the caller then owns), or closed when `received` is null.
Result<std::string> receiveMessage(int fd, WireDeadline deadline, uint64_t maxBytes, int* received = nullptr);

}  // namespace byoc
