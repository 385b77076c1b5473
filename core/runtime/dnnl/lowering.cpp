#include "runtime/dnnl/lowering.h"

#include <cstring>

namespace byoc::dnnl_backend {

using tag = dnnl::memory::format_tag;

dnnl::memory::desc plainDesc(const dnnl::memory::dims& dims) {
  static const tag tags[] = {tag::a, tag::ab, tag::abc, tag::abcd, tag::abcde, tag::abcdef};
  if (dims.size() >= 1 && dims.size() <= 6) return {dims, dnnl::memory::data_type::f32, tags[dims.size() - 1]};
  // Higher ranks: explicit row-major strides.
  dnnl::memory::dims strides(dims.size(), 1);
  for (std::size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  return {dims, dnnl::memory::data_type::f32, strides};
}

dnnl::memory::dims dimsOf(const Shape& shape) {
  if (shape.empty()) return {1};
  return dnnl::memory::dims(shape.begin(), shape.end());
}

Lowering::Lowering(int inputCount) : inputViews(static_cast<std::size_t>(inputCount)) {}

Tensor Lowering::input(int index, const dnnl::memory::dims& dims) {
  dnnl::memory memory(plainDesc(dims), engine, DNNL_MEMORY_NONE);
  inputViews[static_cast<std::size_t>(index)].push_back(memory);
  return {memory, index, false};
}

Tensor Lowering::constant(const void* data, const dnnl::memory::dims& dims) {
  dnnl::memory memory(plainDesc(dims), engine);
  std::memcpy(memory.get_data_handle(), data, memory.get_desc().get_size());
  return {memory, -1, true};
}

Tensor Lowering::as(const Tensor& tensor, const dnnl::memory::desc& desc) {
  if (tensor.desc() == desc) return tensor;
  Tensor out = fresh(desc);
  out.constant = tensor.constant;
  dnnl::reorder reorder(tensor.memory, out.memory);
  if (tensor.constant) {
    dnnl::memory from = tensor.memory;
    reorder.execute(stream, from, out.memory);
    stream.wait();
  } else {
    add(reorder, {{DNNL_ARG_FROM, tensor.memory}, {DNNL_ARG_TO, out.memory}});
  }
  return out;
}

Tensor Lowering::plain(const Tensor& tensor) { return as(tensor, plainDesc(tensor.desc().dims())); }

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

void Lowering::add(dnnl::primitive primitive, std::unordered_map<int, dnnl::memory> args) {
  steps.push_back({std::move(primitive), std::move(args)});
}

}  // namespace byoc::dnnl_backend
