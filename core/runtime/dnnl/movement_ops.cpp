/// \file
/// Ops that move data without computing: the reshape family (views), transpose, concatenate, nn.pad
/// and strided_slice.

#include "runtime/dnnl/op_lowerings.h"

#include <algorithm>

#include "ir/ops/attr_views.h"
#include "runtime/dnnl/lowering_helpers.h"
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
  BYOC_ASSIGN_OR_RETURN(const std::vector<std::size_t> perm, ops::readTransposeAxes("transpose", kernel.attrs, in.size()));
  memory::dims inStrides(in.size(), 1);
  for (std::size_t i = in.size(); i-- > 1;) inStrides[i - 1] = inStrides[i] * in[i];
  memory::dims strides(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) strides[i] = inStrides[perm[i]];
  const dt type = input.desc().data_type();
  Tensor permuted = lowering.view(lowering.plain(input), memory::desc(dimsOf(out), type, strides));
  Tensor dst = lowering.fresh(plainDesc(dimsOf(out), type));
  lowering.add(dnnl::reorder(permuted.memory, dst.memory), {{DNNL_ARG_FROM, permuted.memory}, {DNNL_ARG_TO, dst.memory}});
  return std::vector<Tensor>{dst};
}

Result<std::vector<Tensor>> lowerConcat(Lowering& lowering, const Kernel& kernel, const std::vector<Tensor>& inputs) {
  const Shape& out = kernel.outputs[0].shape;
  BYOC_ASSIGN_OR_RETURN(const std::size_t concatAxis, ops::axisAttr("concatenate", kernel.attrs, out.size()));
  const int axis = static_cast<int>(concatAxis);
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
  BYOC_ASSIGN_OR_RETURN(const ops::PadAttrs pad, ops::readPadAttrs("nn.pad", kernel.attrs));
  if (pad.mode != "constant") return unsupported("nn.pad", "only pad_mode \"constant\" is supported");
  if (!inputs[1].constant) return unsupported("nn.pad", "the pad value must be a constant");
  const Shape& in = kernel.inputs[0].shape;
  const Shape& out = kernel.outputs[0].shape;
  if (pad.before.size() != in.size()) return makeError("nn.pad: pad_width must list one [before, after] pair per axis");
  for (std::size_t i = 0; i < in.size(); ++i)
    if (pad.before[i] < 0 || pad.after[i] < 0) return unsupported("nn.pad", "negative pad widths are not supported");
  const memory::dims offsets(pad.before.begin(), pad.before.end());
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
  BYOC_ASSIGN_OR_RETURN(const ops::StridedSliceAttrs slice, ops::readStridedSliceAttrs("strided_slice", kernel.attrs, in.size()));
  for (int64_t step : slice.strides)
    if (step != 1) return unsupported("strided_slice", "only unit strides are supported");
  memory::dims offsets(in.size(), 0);
  for (std::size_t i = 0; i < slice.begin.size(); ++i) {
    const std::size_t axis = slice.axes[i];
    const int64_t first = slice.begin[i] < 0 ? slice.begin[i] + in[axis] : slice.begin[i];
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
