/// \file
/// Kernels of the ops of run-time shapes: shape_of writes its input's shape; dyn.reshape copies
/// its data into the shape its shape function computed from the newshape tensor.

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

}  // namespace

void addDynamicShapeKernels(KernelTable& table) {
  table["shape_of"] = shapeOf;
  table["dyn.reshape"] = copyThrough;
}

ShapeFunction findShapeFunction(std::string_view name) { return name == "dyn.reshape" ? dynReshapeShape : nullptr; }

}  // namespace byoc::kernels
