#include "plugin/plugin_arena.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace byoc {

namespace {

constexpr uint64_t kTensorAlignment = 64;

uint64_t alignedUp(uint64_t value, uint64_t alignment) { return (value + alignment - 1) / alignment * alignment; }

std::string systemError(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

}  // namespace

Result<PluginArena> PluginArena::create(uint64_t size) {
  const uint64_t bytes = alignedUp(std::max<uint64_t>(size, 1), static_cast<uint64_t>(::sysconf(_SC_PAGESIZE)));
  const int descriptor = ::memfd_create("byoc-plugin-tensors", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (descriptor < 0) return makeError("cannot create the plugin's tensor memory: " + systemError("memfd_create"));
  if (::ftruncate(descriptor, static_cast<off_t>(bytes)) != 0 ||
      ::fcntl(descriptor, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
    const std::string problem = systemError("sizing it");
    ::close(descriptor);
    return makeError("cannot create " + std::to_string(bytes) + " bytes of tensor memory for the plugin: " + problem);
  }
  void* data = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0);
  if (data == MAP_FAILED) {
    const std::string problem = systemError("mmap");
    ::close(descriptor);
    return makeError("cannot map the plugin's tensor memory: " + problem);
  }
  return PluginArena(descriptor, static_cast<char*>(data), bytes);
}

Result<PluginArena> PluginArena::adopt(int descriptor) {
  struct stat status {};
  if (::fstat(descriptor, &status) != 0 || status.st_size <= 0) {
    ::close(descriptor);
    return makeError("the tensor memory the program sent is empty or unreadable");
  }
  const auto bytes = static_cast<uint64_t>(status.st_size);
  void* data = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0);
  if (data == MAP_FAILED) {
    const std::string problem = systemError("mmap");
    ::close(descriptor);
    return makeError("cannot map the tensor memory the program sent: " + problem);
  }
  return PluginArena(descriptor, static_cast<char*>(data), bytes);
}

PluginArena::PluginArena(PluginArena&& other) noexcept
    : descriptor_(std::exchange(other.descriptor_, -1)), data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

PluginArena& PluginArena::operator=(PluginArena&& other) noexcept {
  if (this != &other) {
    release();
    descriptor_ = std::exchange(other.descriptor_, -1);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

PluginArena::~PluginArena() { release(); }

void PluginArena::release() {
  if (data_) ::munmap(data_, size_);
  if (descriptor_ >= 0) ::close(descriptor_);
  data_ = nullptr;
  descriptor_ = -1;
}

bool PluginArena::holds(int64_t offset, int64_t bytes) const {
  return offset >= 0 && bytes >= 0 && static_cast<uint64_t>(offset) <= size_ && static_cast<uint64_t>(bytes) <= size_ - static_cast<uint64_t>(offset);
}

ArenaLayout layoutTensors(std::span<const uint64_t> sizes) {
  ArenaLayout layout;
  for (uint64_t size : sizes) {
    layout.offsets.push_back(layout.size);
    layout.size = alignedUp(layout.size + size, kTensorAlignment);
  }
  return layout;
}

}  // namespace byoc
