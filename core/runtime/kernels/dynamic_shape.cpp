/// \file
/// Kernels of the ops of run-time shapes: shape_of writes its input's shape; dyn.reshape copies
/// its data into the shape its shape function computed from the newshape tensor; argwhere writes
/// the indices of the non-zero elements, as many rows as its shape function counted. dyn.topk,
/// dyn.strided_slice, dyn.tile and dyn.broadcast_to read their size tensors into the attributes of
/// their static ops, whose relation gives their shape and whose kernel computes them; dyn.full
/// fills the shape its shape tensor gives; arange counts its elements from its bounds' values.

#include <cstring>
#include <type_traits>

#include "ir/op.h"
#include "ir/ops/op_helpers.h"
#include "ir/ops/range_count.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/kernel_families.h"
#include "support/limits.h"

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
Status forEachNonZero(const NDArray& data, Visit visit) {
  return dispatchDType("argwhere", data.dtype(), [&](auto zero) {
    const auto* values = data.data<decltype(zero)>();
    for (int64_t i = 0; i < data.numElements(); ++i)
      if (values[i] != decltype(zero){}) visit(i);
  });
}

Status argwhere(const KernelArgs& args) {
  const NDArray& data = args.inputs[0];
  const Shape& shape = data.shape();
  int32_t* out = args.outputs[0].data<int32_t>();
  return forEachNonZero(data, [&](int64_t index) {
    for (std::size_t d = shape.size(); d-- > 0;) {
      out[d] = static_cast<int32_t>(index % shape[d]);
      index /= shape[d];
    }
    out += shape.size();
  });
}

Result<Type> argwhereShape(std::span<const NDArray> inputs, const Attrs&) {
  int64_t count = 0;
  BYOC_TRY(forEachNonZero(inputs[0], [&](int64_t) { ++count; }));
  return tensorType({count, static_cast<int64_t>(inputs[0].rank())}, DType::Int32);
}

/// The static op `op` applied to the first `dataInputs` inputs with `attrs` (normalised here):
/// its result type, by its relation on the inputs' run-time types (which, like every relation,
/// refuses a result beyond the tensor limits: sizes read from values may ask for anything).
Result<Type> staticType(const char* op, std::size_t dataInputs, std::span<const NDArray> inputs, const Attrs& attrs) {
  const OpDef* def = OpRegistry::global().find(op);
  BYOC_ASSIGN_OR_RETURN(Attrs normalized, normalizeAttrs(*def, attrs));
  std::vector<Type> types;
  for (const NDArray& input : inputs.first(dataInputs)) types.push_back(input.type());
  return def->relation({types, normalized});
}

/// The same static op computed by its kernel into `args.outputs`.
Status runStatic(const char* op, std::size_t dataInputs, const KernelArgs& args, const Attrs& attrs) {
  const OpDef& def = *OpRegistry::global().find(op);
  BYOC_ASSIGN_OR_RETURN(Attrs normalized, normalizeAttrs(def, attrs));
  return kernelOf(def)({args.op, args.inputs.first(dataInputs), args.outputs, normalized});
}

/// Reads, from a dyn. op's tensors, the attributes its static form takes.
using StaticAttrs = Result<Attrs> (*)(std::span<const NDArray> inputs, const Attrs& attrs);

/// The shape function of a dyn. op that runs as the static op `Op` on its first input, with the
/// attributes `AttrsOf` reads from its other inputs.
template <const char* Op, StaticAttrs AttrsOf>
Result<Type> staticFormShape(std::span<const NDArray> inputs, const Attrs& attrs) {
  BYOC_ASSIGN_OR_RETURN(Attrs form, AttrsOf(inputs, attrs));
  return staticType(Op, 1, inputs, form);
}

/// The kernel of that dyn. op.
template <const char* Op, StaticAttrs AttrsOf>
Status staticFormKernel(const KernelArgs& args) {
  BYOC_ASSIGN_OR_RETURN(Attrs form, AttrsOf(args.inputs, args.attrs));
  return runStatic(Op, 1, args, form);
}

constexpr char kTopk[] = "topk";
constexpr char kStridedSlice[] = "strided_slice";
constexpr char kTile[] = "tile";
constexpr char kBroadcastTo[] = "broadcast_to";

/// topk's attributes for dyn.topk: its own, with k read from its tensor as a count from 0 to the
/// axis's size (topk's relation refuses a larger one), as ONNX TopK's K, which imports as
/// dyn.topk. A k of 0 is not one of these attributes (topk's attribute k of 0 keeps the whole
/// axis): dynTopkShape and dynTopk give it an empty axis.
Result<Attrs> dynTopkAttrs(std::span<const NDArray> inputs, const Attrs& attrs) {
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> k, intValues("dyn.topk", inputs[1]));
  if (k.size() != 1 || k[0] < 0)
    return makeError("dyn.topk: k " + AttrValue::ints(k).str() + "; expected one count of 0 or more");
  Attrs topk = attrs;
  topk.set("k", AttrValue(k[0]));
  return topk;
}

/// Whether dyn.topk's k is 0 (its tensor holds one integer; dynTopkAttrs checks the rest).
bool takesNone(const NDArray& k) { return k.numElements() == 1 && indexAt(k, 0) == 0; }

/// dyn.topk's result: topk's, with the axis emptied for a k of 0.
Result<Type> dynTopkShape(std::span<const NDArray> inputs, const Attrs& attrs) {
  BYOC_ASSIGN_OR_RETURN(Attrs topk, dynTopkAttrs(inputs, attrs));
  BYOC_ASSIGN_OR_RETURN(Type type, staticType(kTopk, 1, inputs, topk));
  if (!takesNone(inputs[1])) return type;
  BYOC_ASSIGN_OR_RETURN(int64_t axis, ops::intAttr("dyn.topk", attrs, "axis"));
  BYOC_ASSIGN_OR_RETURN(axis, ops::normalizeAxis("dyn.topk", axis, inputs[0].rank()));
  std::vector<Type> fields;
  for (const TypeNode* field : flattenTupleTypes(type)) {
    const auto* tensor = field->as<TensorTypeNode>();
    Shape shape = tensor->shape;
    shape[static_cast<std::size_t>(axis)] = 0;
    fields.push_back(tensorType(std::move(shape), tensor->dtype));
  }
  return fields.size() == 1 ? fields[0] : tupleType(std::move(fields));
}

/// dyn.topk's kernel: topk's, and nothing to write for a k of 0.
Status dynTopk(const KernelArgs& args) {
  if (takesNone(args.inputs[1])) return Status::ok();
  BYOC_ASSIGN_OR_RETURN(Attrs topk, dynTopkAttrs(args.inputs, args.attrs));
  return runStatic(kTopk, 1, args, topk);
}

/// strided_slice's attributes for dyn.strided_slice: begin, end and strides from its tensors.
Result<Attrs> dynStridedSliceAttrs(std::span<const NDArray> inputs, const Attrs& attrs) {
  Attrs slice;
  const char* names[] = {"begin", "end", "strides"};
  for (std::size_t i = 0; i < 3; ++i) {
    BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> values, intValues("dyn.strided_slice", inputs[i + 1]));
    slice.set(names[i], AttrValue::ints(values));
  }
  slice.set("slice_mode", AttrValue(ops::stringAttr(attrs, "slice_mode")));
  return slice;
}


/// dyn.full's result: the shape tensor's values, checked against the tensor limits.
Result<Type> dynFullShape(std::span<const NDArray> inputs, const Attrs& attrs) {
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> shape, intValues("dyn.full", inputs[1]));
  if (std::string problem = limits::shapeProblem(shape); !problem.empty())
    return makeError("dyn.full: shape " + AttrValue::ints(shape).str() + ": " + problem);
  const std::string name = ops::stringAttr(attrs, "dtype");
  std::optional<DType> dtype = name.empty() ? inputs[0].dtype() : parseDType(name);
  if (!dtype) return makeError("dyn.full: dtype \"" + name + "\" is not a dtype");
  return tensorType(Shape(shape.begin(), shape.end()), *dtype);
}

Status dynFull(const KernelArgs& args) {
  const NDArray& out = args.outputs[0];
  const TensorData element = TensorData::scalar(out.dtype(), args.inputs[0].elementAsDouble(0));
  const std::size_t size = element.bytes().size();
  std::byte* bytes = out.bytes();
  for (int64_t i = 0; i < out.numElements(); ++i)
    std::memcpy(bytes + i * static_cast<int64_t>(size), element.bytes().data(), size);
  return Status::ok();
}

/// tile's attributes for dyn.tile: reps from its tensor.
Result<Attrs> dynTileAttrs(std::span<const NDArray> inputs, const Attrs&) {
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> reps, intValues("dyn.tile", inputs[1]));
  return Attrs{{"reps", AttrValue::ints(reps)}};
}


/// broadcast_to's attributes for dyn.broadcast_to: the shape the data and the shape tensor's
/// values broadcast to, both ways (ONNX Expand's rule).
Result<Attrs> dynBroadcastToAttrs(std::span<const NDArray> inputs, const Attrs&) {
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> shape, intValues("dyn.broadcast_to", inputs[1]));
  for (int64_t dim : shape)
    if (dim < 0)
      return makeError("dyn.broadcast_to: shape " + AttrValue::ints(shape).str() + " has a negative dimension");
  BYOC_ASSIGN_OR_RETURN(Shape both,
                        ops::broadcastShapes("dyn.broadcast_to", inputs[0].shape(), Shape(shape.begin(), shape.end())));
  return Attrs{{"shape", AttrValue::ints(both)}};
}


/// arange's length from the values of its bounds (exact for integers).
Result<int64_t> arangeLength(std::span<const NDArray> inputs) {
  if (isFloat(inputs[0].dtype()))
    return ops::rangeLength(inputs[0].elementAsDouble(0), inputs[1].elementAsDouble(0), inputs[2].elementAsDouble(0));
  std::vector<int64_t> bounds;
  for (const NDArray& bound : inputs.first(3)) bounds.push_back(indexAt(bound, 0));
  return ops::rangeLength(bounds[0], bounds[1], bounds[2]);
}

Result<Type> arangeShape(std::span<const NDArray> inputs, const Attrs&) {
  Result<int64_t> length = arangeLength(inputs);
  if (!length) return makeError("arange: " + length.error().message);
  return tensorType({*length}, inputs[0].dtype());
}

/// start + i * step: in int64 for integers, in double for floats. Every integer value lies between
/// start and stop, but i * step alone may not fit (start near INT64_MAX, a large negative step):
/// it is computed modulo 2^64, which gives the exact sum.
Status arange(const KernelArgs& args) {
  const NDArray& out = args.outputs[0];
  return dispatchDType("arange", out.dtype(), [&](auto zero) {
    using T = decltype(zero);
    T* values = out.data<T>();
    for (int64_t i = 0; i < out.numElements(); ++i) {
      if constexpr (std::is_floating_point_v<T>)
        values[i] = static_cast<T>(args.inputs[0].elementAsDouble(0) +
                                   static_cast<double>(i) * args.inputs[2].elementAsDouble(0));
      else
        values[i] = static_cast<T>(static_cast<int64_t>(static_cast<uint64_t>(indexAt(args.inputs[0], 0)) +
                                                        static_cast<uint64_t>(i) * static_cast<uint64_t>(indexAt(args.inputs[2], 0))));
    }
  });
}

/// The kernel of an op whose result's shape its input values give. Its outputs were allocated
/// for a type worked out before: by the shape function when the program's type has an unknown
/// dimension, else from the program's types (a newshape tensor of length 0 types a scalar, whatever
/// its input holds). So the type the values give is checked against the outputs before `Body`
/// writes them.
template <ShapeFunction Shape, Kernel Body>
Status checkedByShape(const KernelArgs& args) {
  BYOC_ASSIGN_OR_RETURN(Type type, Shape(args.inputs, args.attrs));
  const std::vector<const TypeNode*> tensors = flattenTupleTypes(type);
  bool same = tensors.size() == args.outputs.size();
  std::string typed;
  for (std::size_t i = 0; i < args.outputs.size(); ++i) {
    typed += (i ? ", " : "") + typeToString(args.outputs[i].type());
    const auto* tensor = same ? tensors[i]->as<TensorTypeNode>() : nullptr;
    same = tensor && tensor->shape == args.outputs[i].shape() && tensor->dtype == args.outputs[i].dtype();
  }
  if (!same)
    return makeError(std::string(args.op) + ": the values of its inputs give " + typeToString(type) + ", not " + typed +
                     " as the program's types say");
  return Body(args);
}

/// An op of run-time shapes: its shape function, and its kernel checked against it.
struct DynamicShapeOp {
  const char* name;
  ShapeFunction shape;
  Kernel kernel;
};

template <ShapeFunction Shape, Kernel Body>
constexpr DynamicShapeOp dynamicShapeOp(const char* name) {
  return {name, Shape, checkedByShape<Shape, Body>};
}

constexpr DynamicShapeOp kDynamicShapeOps[] = {
    dynamicShapeOp<dynReshapeShape, copyThrough>("dyn.reshape"),
    dynamicShapeOp<argwhereShape, argwhere>("argwhere"),
    dynamicShapeOp<dynTopkShape, dynTopk>("dyn.topk"),
    dynamicShapeOp<dynFullShape, dynFull>("dyn.full"),
    dynamicShapeOp<staticFormShape<kStridedSlice, dynStridedSliceAttrs>, staticFormKernel<kStridedSlice, dynStridedSliceAttrs>>(
        "dyn.strided_slice"),
    dynamicShapeOp<staticFormShape<kTile, dynTileAttrs>, staticFormKernel<kTile, dynTileAttrs>>("dyn.tile"),
    dynamicShapeOp<staticFormShape<kBroadcastTo, dynBroadcastToAttrs>, staticFormKernel<kBroadcastTo, dynBroadcastToAttrs>>(
        "dyn.broadcast_to"),
    dynamicShapeOp<arangeShape, arange>("arange"),
};

}  // namespace

void addDynamicShapeKernels(KernelTable& table) {
  table["shape_of"] = shapeOf;
  for (const DynamicShapeOp& op : kDynamicShapeOps) table[op.name] = op.kernel;
}

ShapeFunction findShapeFunction(std::string_view name) {
  for (const DynamicShapeOp& op : kDynamicShapeOps)
    if (name == op.name) return op.shape;
  return nullptr;
}

}  // namespace byoc::kernels
