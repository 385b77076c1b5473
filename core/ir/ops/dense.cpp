#include "ir/ops/op_helpers.h"

namespace byoc::ops {

namespace {

DType outDType(const Attrs& attrs, DType fallback) {
  auto declared = parseDType(stringAttr(attrs, "out_dtype"));
  return declared ? *declared : fallback;
}

/// data [..., k] x weight [units, k] → [..., units]
Result<Type> denseRelation(const TypeRelationInput& input) {
  const std::string op = "nn.dense";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* weight, tensorArg(op, input, 1));
  if (data->shape.empty()) return makeError(op + ": data must have rank at least 1");
  if (weight->shape.size() != 2) return makeError(op + ": weight must have rank 2, found " + shapeText(weight->shape));
  if (!dimsCompatible(data->shape.back(), weight->shape[1]))
    return makeError(op + ": data features " + std::to_string(data->shape.back()) + " do not match weight " +
                     shapeText(weight->shape) + " (expected [units, " + std::to_string(data->shape.back()) + "])");
  const AttrValue* units = input.attrs.find("units");
  if (units && units->isInt() && !dimsCompatible(units->asInt(), weight->shape[0]))
    return makeError(op + ": units=" + std::to_string(units->asInt()) + " but the weight has " +
                     std::to_string(weight->shape[0]) + " rows");
  Shape shape = data->shape;
  shape.back() = weight->shape[0];
  return tensorType(std::move(shape), outDType(input.attrs, data->dtype));
}

/// [b, m, k] x [b, n, k] (transpose_b) → [b, m, n], with batch broadcasting of 1.
Result<Type> batchMatmulRelation(const TypeRelationInput& input) {
  const std::string op = "nn.batch_matmul";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* x, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* y, tensorArg(op, input, 1));
  if (x->shape.size() != 3 || y->shape.size() != 3)
    return makeError(op + ": both operands must have rank 3, found " + shapeText(x->shape) + " and " + shapeText(y->shape));
  bool transposeA = boolAttr(input.attrs, "transpose_a");
  bool transposeB = boolAttr(input.attrs, "transpose_b");
  int64_t m = transposeA ? x->shape[2] : x->shape[1];
  int64_t kx = transposeA ? x->shape[1] : x->shape[2];
  int64_t ky = transposeB ? y->shape[2] : y->shape[1];
  int64_t n = transposeB ? y->shape[1] : y->shape[2];
  if (!dimsCompatible(kx, ky))
    return makeError(op + ": reduction sizes differ: " + dimText(kx) + " and " + dimText(ky));
  BYOC_ASSIGN_OR_RETURN(Shape batch, broadcastShapes(op, {x->shape[0]}, {y->shape[0]}));
  return tensorType({batch[0], m, n}, outDType(input.attrs, x->dtype));
}

/// 2-D matmul with optional transposes: [m, k] x [k, n] → [m, n].
Result<Type> matmulRelation(const TypeRelationInput& input) {
  const std::string op = "nn.matmul";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* x, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* y, tensorArg(op, input, 1));
  if (x->shape.size() != 2 || y->shape.size() != 2)
    return makeError(op + ": both operands must have rank 2, found " + shapeText(x->shape) + " and " + shapeText(y->shape));
  bool transposeA = boolAttr(input.attrs, "transpose_a");
  bool transposeB = boolAttr(input.attrs, "transpose_b");
  int64_t m = transposeA ? x->shape[1] : x->shape[0];
  int64_t kx = transposeA ? x->shape[0] : x->shape[1];
  int64_t ky = transposeB ? y->shape[1] : y->shape[0];
  int64_t n = transposeB ? y->shape[0] : y->shape[1];
  if (!dimsCompatible(kx, ky))
    return makeError(op + ": reduction sizes differ: " + dimText(kx) + " and " + dimText(ky));
  return tensorType({m, n}, outDType(input.attrs, x->dtype));
}

}  // namespace

void registerDenseOps(OpRegistry& registry) {
  declare(registry, "nn.dense", "data x weight^T (fully connected layer)", {"data", "weight"},
          {tvmRequired("units"), {"out_dtype", ""}}, FusionKind::OutElementwiseFusable, denseRelation);
  // TVM's BatchMatmulAttrs default transpose_b to false, so the text always states ours.
  declare(registry, "nn.batch_matmul", "batched matrix product", {"x", "y"},
          {{"out_dtype", ""}, {"transpose_a", false}, tvmRequired("transpose_b", true)}, FusionKind::OutElementwiseFusable,
          batchMatmulRelation);
  declare(registry, "nn.matmul", "matrix product with optional transposes", {"x", "y"},
          {tvmRequired("units"), {"out_dtype", ""}, {"transpose_a", false}, {"transpose_b", false}},
          FusionKind::OutElementwiseFusable, matmulRelation);
}

}  // namespace byoc::ops
