#pragma once
/// \file
/// Shared memory for the tensors of a plugin's runs. The program and the plugin host map one
/// memory file: the program writes a run's inputs into it, the plugin reads them and writes its
/// outputs there, and the program copies the outputs out, so no tensor travels through the
/// socket. The program seals the file against shrinking and growing before passing it on, so the
/// host cannot make the program's mapping fault by truncating it.

#include <cstdint>
#include <span>
#include <vector>

#include "support/result.h"

namespace byoc {

class PluginArena {
 public:
  /// A new arena of at least `size` bytes, mapped for reading and writing, sealed at its size.
  static Result<PluginArena> create(uint64_t size);
  /// Maps the arena whose descriptor `descriptor` came from the program (now owned by the arena).
  static Result<PluginArena> adopt(int descriptor);

  PluginArena(PluginArena&& other) noexcept;
  PluginArena& operator=(PluginArena&& other) noexcept;
  PluginArena(const PluginArena&) = delete;
  PluginArena& operator=(const PluginArena&) = delete;
  ~PluginArena();

  int descriptor() const { return descriptor_; }
  uint64_t size() const { return size_; }
  char* data() const { return data_; }
  /// Whether `bytes` bytes from `offset` lie inside the arena.
  bool holds(int64_t offset, int64_t bytes) const;

 private:
  PluginArena(int descriptor, char* data, uint64_t size) : descriptor_(descriptor), data_(data), size_(size) {}
  void release();

  int descriptor_ = -1;
  char* data_ = nullptr;
  uint64_t size_ = 0;
};

/// Where tensors of `sizes` bytes lie in an arena, one after another, each at a multiple of 64
/// bytes (the alignment kernels expect of a tensor).
struct ArenaLayout {
  std::vector<uint64_t> offsets;
  uint64_t size = 0;
};
ArenaLayout layoutTensors(std::span<const uint64_t> sizes);

}  // namespace byoc
