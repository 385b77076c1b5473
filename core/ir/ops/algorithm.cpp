/// \file
/// Sorting and scans, with TVM's attributes: topk and cumsum.

#include <algorithm>

#include "ir/ops/op_helpers.h"

namespace byoc::ops {

namespace {

/// The dtype attribute `name`, or `fallback` when it is unset.
Result<DType> dtypeAttr(const std::string& op, const Attrs& attrs, const char* name, DType fallback) {
  const AttrValue* value = attrs.find(name);
  if (!value || value->isNone() || (value->isString() && value->asString().empty())) return fallback;
  std::optional<DType> dtype = value->isString() ? parseDType(value->asString()) : std::nullopt;
  if (!dtype) return makeError(op + ": " + name + " " + value->str() + " is not a dtype");
  return *dtype;
}

/// TVM's TopKRel: k below 1 keeps the whole axis; ret_type chooses values, indices or both.
Result<Type> topkRelation(const TypeRelationInput& input) {
  const std::string op = "topk";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(int64_t axis, intAttr(op, input.attrs, "axis"));
  BYOC_ASSIGN_OR_RETURN(axis, normalizeAxis(op, axis, data->shape.size()));
  BYOC_ASSIGN_OR_RETURN(int64_t k, intAttr(op, input.attrs, "k"));
  BYOC_ASSIGN_OR_RETURN(DType indexType, dtypeAttr(op, input.attrs, "dtype", DType::Int32));
  if (!isInteger(indexType)) return makeError(op + ": dtype " + std::string(dtypeName(indexType)) + " is not an integer type");
  Shape out = data->shape;
  const int64_t extent = out[static_cast<std::size_t>(axis)];
  if (k >= 1) {
    if (extent != kAnyDim && k > extent)
      return makeError(op + ": k " + std::to_string(k) + " exceeds axis " + std::to_string(axis) + " of " +
                       shapeText(data->shape) + "; expected at most " + std::to_string(extent));
    out[static_cast<std::size_t>(axis)] = k;
  }
  Type values = tensorType(out, data->dtype);
  Type indices = tensorType(std::move(out), indexType);
  const std::string kind = stringAttr(input.attrs, "ret_type");
  if (kind == "both") return tupleType({values, indices});
  if (kind == "values") return values;
  if (kind == "indices") return indices;
  return makeError(op + ": ret_type \"" + kind + "\"; expected both, values or indices");
}

/// TVM's ScanopRel: without an axis the scan runs over the flattened tensor.
Result<Type> cumsumRelation(const TypeRelationInput& input) {
  const std::string op = "cumsum";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(DType dtype, dtypeAttr(op, input.attrs, "dtype", data->dtype));
  if (dtype == DType::Bool) return makeError(op + ": dtype bool cannot hold a sum");
  const AttrValue* axis = input.attrs.find("axis");
  if (axis && !axis->isNone()) {
    BYOC_ASSIGN_OR_RETURN(int64_t a, intAttr(op, input.attrs, "axis"));
    BYOC_TRY(normalizeAxis(op, a, data->shape.size()).status());
    return tensorType(data->shape, dtype);
  }
  if (std::find(data->shape.begin(), data->shape.end(), kAnyDim) != data->shape.end()) return tensorType({kAnyDim}, dtype);
  std::optional<int64_t> count = checkedProduct(data->shape, 0, data->shape.size());
  if (!count) return makeError(op + ": the flattened " + shapeText(data->shape) + " overflows");
  return tensorType({*count}, dtype);
}

}  // namespace

void registerAlgorithmOps(OpRegistry& registry) {
  // TVM's TopKAttrs give k no default and dtype none TVM's parser would take, so both are printed.
  declare(registry, "topk", "the k largest (or smallest) elements along `axis` and their indices", {"data"},
          {tvmRequired("k", 1), {"axis", -1}, {"ret_type", "both"}, {"is_ascend", false}, tvmRequired("dtype", "int32")},
          FusionKind::Opaque, topkRelation);
  declare(registry, "cumsum", "running sum along `axis` (the flattened tensor without one)", {"data"},
          {{"axis", AttrValue()}, {"dtype", AttrValue()}, {"exclusive", AttrValue()}}, FusionKind::Opaque,
          cumsumRelation);
}

}  // namespace byoc::ops
