/// \file
/// Kernels of the ops of run-time shapes: shape_of writes its input's shape; dyn.reshape copies
/// its data into the shape its shape function computed from the newshape tensor; argwhere writes
/// the indices of the non-zero elements, as many rows as its shape function counted.

#include "ir/op.h"
#include "runtime/kernels/kernel_families.h"

namespace byoc::kernels {

namespace {

Status shapeOf(const KernelArgs& args) {
  const NDArray& out = args.outputs[0];
  const Shape& shape = args.inputs[0].shape();
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (out.dtype() == DType::Int64) out.data<int64_t>()[i] = shape[i];
    else if (out.dtype() == DType::Int32) out.data<int32_t>()[i] = static_cast<int32_t>(shape[i]);
    else return makeError("shape_of: unsupported dtype " + std::string(dtypeName(out.dtype())));
  }
  return Status::ok();
}

Status copyThrough(const KernelArgs& args) {
  args.outputs[0].copyFrom(args.inputs[0]);
  return Status::ok();
}

/// The values of a 1-D integer tensor.
Result<std::vector<int64_t>> intValues(const char* op, const NDArray& array) {
  std::vector<int64_t> values;
  for (int64_t i = 0; i < array.numElements(); ++i) {
    if (array.dtype() == DType::Int64) values.push_back(array.data<int64_t>()[i]);
    else if (array.dtype() == DType::Int32) values.push_back(array.data<int32_t>()[i]);
    else return makeError(std::string(op) + ": expected an int32 or int64 shape, found " + std::string(dtypeName(array.dtype())));
  }
  return values;
}

/// dyn.reshape's result: reshape's relation on the data's shape, with newshape's values as its
/// attribute (so 0 copies and -1 infers, and a size that does not fit is named the same way).
Result<Type> dynReshapeShape(std::span<const NDArray> inputs, const Attrs& attrs) {
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> newshape, intValues("dyn.reshape", inputs[1]));
  const AttrValue* allowZero = attrs.find("allowzero");
  if (allowZero && allowZero->isInt() && allowZero->asInt() != 0)
    for (int64_t value : newshape)
      if (value == 0) return makeError("dyn.reshape: allowzero=1 with a 0 in newshape is not supported");
  const OpDef* reshape = OpRegistry::global().find("reshape");
  Attrs reshapeAttrs;
  reshapeAttrs.set("newshape", AttrValue::ints(newshape));
  BYOC_ASSIGN_OR_RETURN(reshapeAttrs, normalizeAttrs(*reshape, reshapeAttrs));
  const Type data = inputs[0].type();
  Result<Type> type = reshape->relation({std::span<const Type>(&data, 1), reshapeAttrs});
  if (!type) return makeError("dyn.reshape to " + AttrValue::ints(newshape).str() + ": " + type.error().message);
  return type;
}

/// Calls `visit(flat index)` for each non-zero element of `data`.
template <typename Visit>
void forEachNonZero(const NDArray& data, Visit visit) {
  for (int64_t i = 0; i < data.numElements(); ++i)
    if (data.elementAsDouble(i) != 0) visit(i);
}

Status argwhere(const KernelArgs& args) {
  const NDArray& data = args.inputs[0];
  const Shape& shape = data.shape();
  int32_t* out = args.outputs[0].data<int32_t>();
  forEachNonZero(data, [&](int64_t index) {
    for (std::size_t d = shape.size(); d-- > 0;) {
      out[d] = static_cast<int32_t>(index % shape[d]);
      index /= shape[d];
    }
    out += shape.size();
  });
  return Status::ok();
}

Result<Type> argwhereShape(std::span<const NDArray> inputs, const Attrs&) {
  int64_t count = 0;
  forEachNonZero(inputs[0], [&](int64_t) { ++count; });
  return tensorType({count, static_cast<int64_t>(inputs[0].rank())}, DType::Int32);
}

}  // namespace

void addDynamicShapeKernels(KernelTable& table) {
  table["shape_of"] = shapeOf;
  table["dyn.reshape"] = copyThrough;
  table["argwhere"] = argwhere;
}

ShapeFunction findShapeFunction(std::string_view name) {
  if (name == "dyn.reshape") return dynReshapeShape;
  if (name == "argwhere") return argwhereShape;
  return nullptr;
}

}  // namespace byoc::kernels
