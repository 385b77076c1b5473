/// \file
/// Ops that move data without computing: the reshape family (views), transpose, concatenate, nn.pad
/// and strided_slice.

#include "runtime/dnnl/op_lowerings.h"

#include <algorithm>

#include "ir/ops/op_helpers.h"
#include "runtime/dnnl/lowering_helpers.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/ndarray.h"

namespace byoc::dnnl_backend {

using dnnl::algorithm;
using dnnl::memory;
using dnnl::prop_kind;
using dt = memory::data_type;

Result<std::vector<Tensor>> lowerReshape(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const Tensor& input = inputs[0];
  return std::vector<Tensor>{
      lowering.view(lowering.plain(input), plainDesc(dimsOf(kernel.outputs[0].shape), input.desc().data_type()))};
}

Result<std::vector<Tensor>> lowerTranspose(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const Tensor& input = inputs[0];
  const Shape& in = kernel.inputs[0].shape;
  if (in.empty()) return std::vector<Tensor>{input};
  const Shape& out = kernel.outputs[0].shape;
  const AttrValue* axes = kernel.attrs.find("axes");
  memory::dims inStrides(in.size(), 1);
  for (std::size_t i = in.size(); i-- > 1;) inStrides[i - 1] = inStrides[i] * in[i];
  memory::dims strides(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::size_t from = axes && !axes->isNone() ? kernels::axisIndex((*axes->asInts())[i], in.size()) : in.size() - 1 - i;
    strides[i] = inStrides[from];
  }
  const dt type = input.desc().data_type();
  Tensor permuted = lowering.view(lowering.plain(input), memory::desc(dimsOf(out), type, strides));
  Tensor dst = lowering.fresh(plainDesc(dimsOf(out), type));
  lowering.add(dnnl::reorder(permuted.memory, dst.memory), {{DNNL_ARG_FROM, permuted.memory}, {DNNL_ARG_TO, dst.memory}});
  return std::vector<Tensor>{dst};
}

Result<std::vector<Tensor>> lowerConcat(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const Shape& out = kernel.outputs[0].shape;
  const int axis = static_cast<int>(ops::normalizeAxis("concatenate", kernel.attrs.find("axis")->asInt(), out.size()).value());
  std::vector<memory::desc> descs;
  for (const Tensor& input : inputs) descs.push_back(input.desc());
  dnnl::concat::primitive_desc pd(axis, descs, lowering.engine);
  Tensor dst = lowering.fresh(pd.dst_desc());
  std::unordered_map<int, memory> args = {{DNNL_ARG_DST, dst.memory}};
  for (std::size_t i = 0; i < inputs.size(); ++i) args[DNNL_ARG_MULTIPLE_SRC + static_cast<int>(i)] = inputs[i].memory;
  lowering.add(dnnl::concat(pd), std::move(args));
  return std::vector<Tensor>{dst};
}

/// nn.pad in constant mode: a buffer filled with the pad value once, at load, whose interior a
/// reorder overwrites at each run; the border is never written again.
Result<std::vector<Tensor>> lowerPad(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  if (ops::stringAttr(kernel.attrs, "pad_mode") != "constant")
    return unsupported("nn.pad", "only pad_mode \"constant\" is supported");
  if (!inputs[1].constant) return unsupported("nn.pad", "the pad value must be a constant");
  const Shape& in = kernel.inputs[0].shape;
  const Shape& out = kernel.outputs[0].shape;
  const AttrValue::List& width = kernel.attrs.find("pad_width")->asList();
  memory::dims offsets;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::vector<int64_t> pair = *width[i].asInts();
    if (pair[0] < 0 || pair[1] < 0) return unsupported("nn.pad", "negative pad widths are not supported");
    offsets.push_back(pair[0]);
  }
  if (in.empty() || out == in) return std::vector<Tensor>{inputs[0]};
  const memory::data_type type = inputs[0].desc().data_type();
  Tensor dst = lowering.preset(plainDesc(dimsOf(out), type));
  if (type == memory::data_type::f32) {
    const float value = *static_cast<const float*>(inputs[1].memory.get_data_handle());
    std::fill_n(static_cast<float*>(dst.memory.get_data_handle()), shapeElements(out), value);
  } else {  // int8 or uint8: one byte
    const auto value = *static_cast<const std::byte*>(inputs[1].memory.get_data_handle());
    std::fill_n(static_cast<std::byte*>(dst.memory.get_data_handle()), shapeElements(out), value);
  }
  memory interior(dst.desc().submemory_desc(dimsOf(in), offsets), lowering.engine, dst.memory.get_data_handle());
  lowering.add(dnnl::reorder(inputs[0].memory, interior), {{DNNL_ARG_FROM, inputs[0].memory}, {DNNL_ARG_TO, interior}});
  return std::vector<Tensor>{dst};
}

/// The plain input read through a sub-memory, reordered to plain.
Result<std::vector<Tensor>> lowerStridedSlice(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const Tensor& input = inputs[0];
  const Shape& in = kernel.inputs[0].shape;
  const Shape& out = kernel.outputs[0].shape;
  const AttrValue* strides = kernel.attrs.find("strides");
  const std::vector<int64_t> steps = strides && !strides->isNone() ? *strides->asInts() : std::vector<int64_t>{};
  for (int64_t step : steps)
    if (step != 1) return unsupported("strided_slice", "only unit strides are supported");
  const std::vector<int64_t> begin = *kernel.attrs.find("begin")->asInts();
  const AttrValue* axes = kernel.attrs.find("axes");
  memory::dims offsets(in.size(), 0);
  for (std::size_t i = 0; i < begin.size(); ++i) {
    const std::size_t axis = axes && !axes->isNone() ? kernels::axisIndex((*axes->asInts())[i], in.size()) : i;
    const int64_t first = begin[i] < 0 ? begin[i] + in[axis] : begin[i];
    offsets[axis] = std::clamp<int64_t>(first, 0, in[axis]);
  }
  if (in.empty() || out == in) return std::vector<Tensor>{input};
  if (shapeElements(out) == 0) return unsupported("strided_slice", "an empty slice is not supported");
  Tensor whole = lowering.plain(input);
  Tensor part = lowering.view(whole, whole.desc().submemory_desc(dimsOf(out), offsets));
  Tensor dst = lowering.fresh(plainDesc(dimsOf(out), whole.desc().data_type()));
  lowering.add(dnnl::reorder(part.memory, dst.memory), {{DNNL_ARG_FROM, part.memory}, {DNNL_ARG_TO, dst.memory}});
  return std::vector<Tensor>{dst};
}

}  // namespace byoc::dnnl_backend
