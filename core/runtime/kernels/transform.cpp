/// \file
/// Data-movement kernels, dtype-agnostic (they move bytes): reshape-like copies, transpose,
/// concatenate, split, strided_slice, take, pad, and the pass-through annotations.

#include <algorithm>
#include <cstring>

#include "ir/ops/attr_views.h"
#include "ir/ops/op_helpers.h"
#include "runtime/kernels/axis_blocks.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/gather_axes.h"
#include "runtime/kernels/kernel_families.h"
#include "runtime/kernels/permute.h"

namespace byoc::kernels {

void moveAlongAxis(const NDArray& whole, std::span<const NDArray> parts, std::size_t axis, bool gather) {
  const std::size_t element = dtypeSize(whole.dtype());
  const int64_t outer = extent(whole.shape(), 0, axis);
  const int64_t inner = extent(whole.shape(), axis + 1, whole.rank());
  const std::size_t wholeRow = static_cast<std::size_t>(whole.shape()[axis] * inner) * element;
  std::size_t start = 0;
  for (const NDArray& part : parts) {
    const std::size_t partRow = static_cast<std::size_t>(part.shape()[axis] * inner) * element;
    for (int64_t o = 0; o < outer; ++o) {
      std::byte* big = whole.bytes() + static_cast<std::size_t>(o) * wholeRow + start;
      std::byte* small = part.bytes() + static_cast<std::size_t>(o) * partRow;
      if (partRow) gather ? std::memcpy(big, small, partRow) : std::memcpy(small, big, partRow);
    }
    start += partRow;
  }
}

namespace {

/// Outputs are the inputs' elements in order (reshape, squeeze, annotations, …).
Status copyThrough(const KernelArgs& args) {
  for (std::size_t i = 0; i < args.outputs.size(); ++i) args.outputs[i].copyFrom(args.inputs[i]);
  return Status::ok();
}

Status transpose(const KernelArgs& args) {
  BYOC_ASSIGN_OR_RETURN(const std::vector<std::size_t> perm, ops::readTransposeAxes("transpose", args.attrs, args.inputs[0].rank()));
  permuteInto(args.inputs[0], perm, args.outputs[0]);
  return Status::ok();
}


Status concatenate(const KernelArgs& args) {
  const NDArray& out = args.outputs[0];
  BYOC_ASSIGN_OR_RETURN(const std::size_t axis, ops::axisAttr("concatenate", args.attrs, out.rank()));
  moveAlongAxis(out, args.inputs, axis, true);
  return Status::ok();
}

Status split(const KernelArgs& args) {
  const NDArray& in = args.inputs[0];
  BYOC_ASSIGN_OR_RETURN(const std::size_t axis, ops::axisAttr("split", args.attrs, in.rank()));
  moveAlongAxis(in, args.outputs, axis, false);
  return Status::ok();
}

Status stridedSlice(const KernelArgs& args) {
  const NDArray& in = args.inputs[0];
  const std::size_t rank = in.rank();
  std::vector<int64_t> first(rank, 0), step(rank, 1);
  BYOC_ASSIGN_OR_RETURN(const ops::StridedSliceAttrs slice, ops::readStridedSliceAttrs("strided_slice", args.attrs, rank));
  for (std::size_t i = 0; i < slice.begin.size(); ++i) {
    const std::size_t axis = slice.axes[i];
    const int64_t size = in.shape()[axis];
    const int64_t stride = slice.stride(i);
    int64_t b = slice.begin[i] < 0 ? slice.begin[i] + size : slice.begin[i];
    b = stride > 0 ? std::clamp<int64_t>(b, 0, size) : std::clamp<int64_t>(b, -1, size - 1);
    first[axis] = b;
    step[axis] = stride;
  }
  const std::byte zero[8] = {};
  gatherBySize(in, args.outputs[0], zero, [&](std::size_t a, int64_t i) { return first[a] + i * step[a]; });
  return Status::ok();
}

Status take(const KernelArgs& args) {
  const NDArray& data = args.inputs[0];
  const NDArray& indices = args.inputs[1];
  const NDArray& out = args.outputs[0];
  const AttrValue* axisValue = args.attrs.find("axis");
  const bool flat = !axisValue || axisValue->isNone();
  std::size_t axis = 0;
  if (!flat) {
    BYOC_ASSIGN_OR_RETURN(axis, ops::axisAttr("take", args.attrs, data.rank()));
  }
  const std::string mode = ops::stringAttr(args.attrs, "mode");
  const bool wrap = mode == "wrap";
  // TVM's fast mode assumes every index is in range; here it is checked (ONNX Gather's rule).
  const bool checked = mode == "fast";
  const int64_t outer = flat ? 1 : extent(data.shape(), 0, axis);
  const int64_t size = flat ? data.numElements() : data.shape()[axis];
  const int64_t inner = flat ? 1 : extent(data.shape(), axis + 1, data.rank());
  const int64_t count = indices.numElements();
  const std::size_t element = dtypeSize(data.dtype());
  const std::size_t block = static_cast<std::size_t>(inner) * element;
  if (size == 0 && count > 0) return makeError("take: cannot take from an empty axis");
  const std::string range = flat ? "the " + std::to_string(size) + " elements"
                                 : "axis " + std::to_string(axis) + " of size " + std::to_string(size);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t k = 0; k < count; ++k) {
      int64_t index = indexAt(indices, k);
      if (checked && (index < -size || index >= size))
        return makeError("take: index " + std::to_string(index) + " is out of range for " + range +
                         "; expected " + std::to_string(-size) + " to " + std::to_string(size - 1));
      index = wrap ? ((index % size) + size) % size : std::clamp<int64_t>(index < 0 ? index + size : index, 0, size - 1);
      std::memcpy(out.bytes() + static_cast<std::size_t>(o * count + k) * block,
                  data.bytes() + static_cast<std::size_t>((o * size + index) * inner) * element, block);
    }
  return Status::ok();
}

Status pad(const KernelArgs& args) {
  const NDArray& in = args.inputs[0];
  const NDArray& value = args.inputs[1];
  BYOC_ASSIGN_OR_RETURN(const ops::PadAttrs pad, ops::readPadAttrs("nn.pad", args.attrs));
  const std::string& mode = pad.mode;
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    return makeError("nn.pad: unknown pad_mode \"" + mode + "\"; expected constant, edge or reflect");
  if (value.dtype() != in.dtype() || value.numElements() != 1)
    return makeError("nn.pad: pad_value must be a scalar of the data's dtype");
  const std::vector<int64_t>& before = pad.before;
  const Shape& shape = in.shape();
  gatherBySize(in, args.outputs[0], value.bytes(), [&](std::size_t a, int64_t i) -> int64_t {
    int64_t source = i - before[a];
    const int64_t size = shape[a];
    if (source >= 0 && source < size) return source;
    if (mode == "constant" || size == 0) return -1;
    if (mode == "edge") return std::clamp<int64_t>(source, 0, size - 1);
    if (size == 1) return 0;
    const int64_t period = 2 * (size - 1);  // reflect without repeating the edge
    source = ((source % period) + period) % period;
    return source < size ? source : period - source;
  });
  return Status::ok();
}

}  // namespace

void addTransformKernels(KernelTable& table) {
  for (const char* name : {"reshape", "squeeze", "expand_dims", "nn.batch_flatten", "annotation.compiler_begin",
                           "annotation.compiler_end"})
    table[name] = copyThrough;
  table["transpose"] = transpose;
  table["concatenate"] = concatenate;
  table["split"] = split;
  table["strided_slice"] = stridedSlice;
  table["take"] = take;
  table["nn.pad"] = pad;
}

}  // namespace byoc::kernels
