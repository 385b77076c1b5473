#include "runtime/dnnl/lowering.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace byoc::dnnl_backend {

using tag = dnnl::memory::format_tag;

dnnl::memory::desc plainDesc(const dnnl::memory::dims& dims, dnnl::memory::data_type type) {
  static const tag tags[] = {tag::a, tag::ab, tag::abc, tag::abcd, tag::abcde, tag::abcdef};
  if (dims.size() >= 1 && dims.size() <= 6) return {dims, type, tags[dims.size() - 1]};
  // Higher ranks: explicit row-major strides.
  dnnl::memory::dims strides(dims.size(), 1);
  for (std::size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  return {dims, type, strides};
}

dnnl::memory::desc retypedDesc(const dnnl::memory::desc& desc, dnnl::memory::data_type type) {
  dnnl_memory_desc_t data = desc.data;
  std::size_t padded = 1;
  for (int i = 0; i < data.ndims; ++i) padded *= static_cast<std::size_t>(data.padded_dims[i]);
  const bool dense = data.format_kind == dnnl_blocked && data.offset0 == 0 && data.extra.flags == 0 &&
                     desc.get_size() == padded * dnnl_data_type_size(data.data_type);
  if (!dense) return plainDesc(desc.dims(), type);
  data.data_type = dnnl::memory::convert_to_c(type);
  return dnnl::memory::desc(data);
}

std::optional<dnnl::memory::data_type> dataTypeOf(DType dtype) {
  switch (dtype) {
    case DType::Float32: return dnnl::memory::data_type::f32;
    case DType::Int8: return dnnl::memory::data_type::s8;
    case DType::UInt8: return dnnl::memory::data_type::u8;
    case DType::Int32: return dnnl::memory::data_type::s32;
    default: return std::nullopt;
  }
}

dnnl::memory::dims dimsOf(const Shape& shape) {
  if (shape.empty()) return {1};
  return dnnl::memory::dims(shape.begin(), shape.end());
}

Lowering::Lowering(int inputCount) : inputViews(static_cast<std::size_t>(inputCount)) {}

Tensor Lowering::input(int index, const dnnl::memory::dims& dims, dnnl::memory::data_type type) {
  dnnl::memory memory(plainDesc(dims, type), engine, DNNL_MEMORY_NONE);
  inputViews[static_cast<std::size_t>(index)].push_back(memory);
  return {memory, index, false};
}

Tensor Lowering::constant(const void* data, const dnnl::memory::dims& dims, dnnl::memory::data_type type) {
  dnnl::memory memory(plainDesc(dims, type), engine);
  std::memcpy(memory.get_data_handle(), data, memory.get_desc().get_size());
  pinned_.insert(memory.get_data_handle());
  return {memory, -1, true};
}

Tensor Lowering::as(const Tensor& tensor, const dnnl::memory::desc& desc) {
  if (tensor.desc() == desc) return tensor;
  Tensor out = fresh(desc);
  out.constant = tensor.constant;
  dnnl::reorder reorder(tensor.memory, out.memory);
  if (tensor.constant) {
    pinned_.insert(out.memory.get_data_handle());
    dnnl::memory from = tensor.memory;
    reorder.execute(stream, from, out.memory);
    stream.wait();
  } else {
    add(reorder, {{DNNL_ARG_FROM, tensor.memory}, {DNNL_ARG_TO, out.memory}});
  }
  return out;
}

Tensor Lowering::plain(const Tensor& tensor) {
  return as(tensor, plainDesc(tensor.desc().dims(), tensor.desc().data_type()));
}

Tensor Lowering::view(const Tensor& tensor, const dnnl::memory::desc& desc) {
  if (tensor.input >= 0) {
    dnnl::memory memory(desc, engine, DNNL_MEMORY_NONE);
    inputViews[static_cast<std::size_t>(tensor.input)].push_back(memory);
    return {memory, tensor.input, false, true};
  }
  keepAlive.push_back(tensor.memory);
  return {dnnl::memory(desc, engine, tensor.memory.get_data_handle()), -1, tensor.constant, true};
}

Tensor Lowering::fresh(const dnnl::memory::desc& desc) { return {dnnl::memory(desc, engine), -1, false}; }

Tensor Lowering::preset(const dnnl::memory::desc& desc) {
  Tensor tensor = fresh(desc);
  tensor.preset = true;
  pinned_.insert(tensor.memory.get_data_handle());
  return tensor;
}

void Lowering::add(dnnl::primitive primitive, std::unordered_map<int, dnnl::memory> args) {
  steps.push_back({std::move(primitive), std::move(args), part, {}});
}

void Lowering::addHost(std::function<void()> host, std::unordered_map<int, dnnl::memory> args) {
  steps.push_back({{}, std::move(args), part, std::move(host)});
}

namespace {

/// An intermediate buffer: every memory object that points at it, its size, and the steps
/// that use it.
struct Buffer {
  std::vector<dnnl::memory> memories;
  std::size_t bytes = 0;
  std::size_t firstStep = 0;
  std::size_t lastStep = 0;
  std::size_t offset = 0;
};

constexpr std::size_t kAlignment = 64;

std::size_t aligned(std::size_t bytes) { return (bytes + kAlignment - 1) / kAlignment * kAlignment; }

/// The buffers placed so far, indexed by step so that a buffer meets only the placed buffers alive
/// at the same time: those alive at its first step, and those that start during its life. The two
/// sets are disjoint, so the work is that of the overlaps, not of every placed buffer.
class PlacedBuffers {
 public:
  explicit PlacedBuffers(std::size_t stepCount) : aliveAt_(stepCount), startingAt_(stepCount) {}

  /// The placed buffers whose lives overlap `buffer`'s, by offset.
  std::vector<const Buffer*> overlapping(const Buffer& buffer) const {
    std::vector<const Buffer*> live = aliveAt_[buffer.firstStep];
    for (std::size_t step = buffer.firstStep + 1; step <= buffer.lastStep; ++step)
      live.insert(live.end(), startingAt_[step].begin(), startingAt_[step].end());
    std::sort(live.begin(), live.end(), [](const Buffer* a, const Buffer* b) { return a->offset < b->offset; });
    return live;
  }

  void add(const Buffer* buffer) {
    startingAt_[buffer->firstStep].push_back(buffer);
    for (std::size_t step = buffer->firstStep; step <= buffer->lastStep; ++step) aliveAt_[step].push_back(buffer);
  }

 private:
  std::vector<std::vector<const Buffer*>> aliveAt_;
  std::vector<std::vector<const Buffer*>> startingAt_;
};

/// Gives each buffer the lowest offset where it overlaps no placed buffer that is alive at the
/// same time, placing the largest first; returns the arena's size.
std::size_t placeBuffers(std::vector<Buffer*>& buffers, std::size_t stepCount) {
  std::sort(buffers.begin(), buffers.end(), [](const Buffer* a, const Buffer* b) {
    return a->bytes != b->bytes ? a->bytes > b->bytes : a->firstStep < b->firstStep;
  });
  PlacedBuffers placed(stepCount);
  std::size_t total = 0;
  for (Buffer* buffer : buffers) {
    std::size_t offset = 0;
    for (const Buffer* other : placed.overlapping(*buffer)) {
      if (offset + buffer->bytes <= other->offset) break;
      offset = std::max(offset, other->offset + other->bytes);
    }
    buffer->offset = offset;
    total = std::max(total, offset + buffer->bytes);
    placed.add(buffer);
  }
  return total;
}

}  // namespace

Status Lowering::planMemory() {
  // Buffers are told apart by their data handle: a view shares its tensor's handle. Inputs and
  // outputs have none until a run binds them.
  std::map<const void*, Buffer> byHandle;
  auto note = [&](const dnnl::memory& memory, std::size_t step) {
    const void* handle = memory.get_data_handle();
    if (!handle || pinned_.count(handle)) return;
    auto [it, added] = byHandle.try_emplace(handle);
    Buffer& buffer = it->second;
    if (added) buffer.firstStep = step;
    buffer.lastStep = std::max(buffer.lastStep, step);
    buffer.bytes = std::max(buffer.bytes, aligned(memory.get_desc().get_size()));
    buffer.memories.push_back(memory);
  };
  for (std::size_t i = 0; i < steps.size(); ++i)
    for (const auto& [arg, memory] : steps[i].args) note(memory, i);
  // Memories kept alive for their views move with them, so no old buffer outlives the plan.
  for (const dnnl::memory& memory : keepAlive)
    if (auto it = byHandle.find(memory.get_data_handle()); it != byHandle.end()) it->second.memories.push_back(memory);
  std::vector<Buffer*> buffers;
  for (auto& [handle, buffer] : byHandle) buffers.push_back(&buffer);
  arenaBytes_ = placeBuffers(buffers, steps.size());
  if (arenaBytes_ == 0) return Status::ok();
  arena_.reset(std::aligned_alloc(kAlignment, arenaBytes_));
  if (!arena_) return makeError("dnnl: cannot allocate the region's " + std::to_string(arenaBytes_) + "-byte arena");
  char* base = static_cast<char*>(arena_.get());
  for (auto& [handle, buffer] : byHandle)
    for (dnnl::memory& memory : buffer.memories) memory.set_data_handle(base + buffer.offset);
  return Status::ok();
}

}  // namespace byoc::dnnl_backend
