#include "ir/ops/op_helpers.h"

namespace byoc::ops {

namespace {

/// Checks that `param` is a vector as long as axis `axis` of `data`.
Status checkChannelVector(const std::string& op, const char* role, const TensorTypeNode& data, int64_t axis,
                          const TensorTypeNode& param) {
  int64_t channels = data.shape[static_cast<std::size_t>(axis)];
  if (param.shape.size() != 1 || !dimsCompatible(param.shape[0], channels))
    return makeError(op + ": " + role + " must have shape (" + dimText(channels) + "), found " +
                     shapeText(param.shape));
  return Status::ok();
}

Result<Type> biasAddRelation(const TypeRelationInput& input) {
  const std::string op = "nn.bias_add";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* bias, tensorArg(op, input, 1));
  BYOC_ASSIGN_OR_RETURN(int64_t axis, intAttr(op, input.attrs, "axis"));
  BYOC_ASSIGN_OR_RETURN(axis, normalizeAxis(op, axis, data->shape.size()));
  BYOC_TRY(checkChannelVector(op, "bias", *data, axis, *bias));
  return tensorType(data->shape, data->dtype);
}

Result<Type> batchNormRelation(const TypeRelationInput& input) {
  const std::string op = "nn.batch_norm";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(int64_t axis, intAttr(op, input.attrs, "axis"));
  BYOC_ASSIGN_OR_RETURN(axis, normalizeAxis(op, axis, data->shape.size()));
  const char* roles[] = {"gamma", "beta", "moving_mean", "moving_var"};
  for (std::size_t i = 0; i < 4; ++i) {
    BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* param, tensorArg(op, input, i + 1));
    BYOC_TRY(checkChannelVector(op, roles[i], *data, axis, *param));
  }
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* gamma, tensorArg(op, input, 1));
  Type channels = tensorType({unifyDims(data->shape[static_cast<std::size_t>(axis)], gamma->shape[0])}, data->dtype);
  return tupleType({tensorType(data->shape, data->dtype), channels, channels});
}

Result<Type> layerNormRelation(const TypeRelationInput& input) {
  const std::string op = "nn.layer_norm";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(int64_t axis, intAttr(op, input.attrs, "axis"));
  BYOC_ASSIGN_OR_RETURN(axis, normalizeAxis(op, axis, data->shape.size()));
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* gamma, tensorArg(op, input, 1));
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* beta, tensorArg(op, input, 2));
  BYOC_TRY(checkChannelVector(op, "gamma", *data, axis, *gamma));
  BYOC_TRY(checkChannelVector(op, "beta", *data, axis, *beta));
  return tensorType(data->shape, data->dtype);
}

/// Ops whose only attribute is an axis that must be valid for the data.
TypeRelation sameTypeWithAxis(std::string op) {
  return [op](const TypeRelationInput& input) -> Result<Type> {
    BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
    BYOC_ASSIGN_OR_RETURN(int64_t axis, intAttr(op, input.attrs, "axis"));
    BYOC_TRY(normalizeAxis(op, axis, data->shape.size()).status());
    return tensorType(data->shape, data->dtype);
  };
}

Result<Type> preluRelation(const TypeRelationInput& input) {
  const std::string op = "nn.prelu";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* alpha, tensorArg(op, input, 1));
  BYOC_ASSIGN_OR_RETURN(int64_t axis, intAttr(op, input.attrs, "axis"));
  BYOC_ASSIGN_OR_RETURN(axis, normalizeAxis(op, axis, data->shape.size()));
  BYOC_TRY(checkChannelVector(op, "alpha", *data, axis, *alpha));
  return tensorType(data->shape, data->dtype);
}

Result<Type> dropoutRelation(const TypeRelationInput& input) {
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg("nn.dropout", input, 0));
  Type same = tensorType(data->shape, data->dtype);
  return tupleType({same, same});
}

std::vector<AttrField> normAttrs(int64_t axis) {
  return {{"axis", axis}, {"epsilon", 1e-5}, {"center", true}, {"scale", true}};
}

}  // namespace

void registerNormalizationOps(OpRegistry& registry) {
  declare(registry, "nn.bias_add", "adds a per-channel bias along `axis`", {"data", "bias"}, {{"axis", 1}},
          FusionKind::Broadcast, biasAddRelation);
  declare(registry, "nn.batch_norm", "batch normalisation with moving statistics (inference)",
          {"data", "gamma", "beta", "moving_mean", "moving_var"}, normAttrs(1), FusionKind::OutElementwiseFusable,
          batchNormRelation);
  declare(registry, "nn.layer_norm", "layer normalisation along `axis`", {"data", "gamma", "beta"}, normAttrs(-1),
          FusionKind::OutElementwiseFusable, layerNormRelation);
  declare(registry, "nn.softmax", "softmax along `axis`", {"data"}, {{"axis", -1}}, FusionKind::OutElementwiseFusable,
          sameTypeWithAxis("nn.softmax"));
  declare(registry, "nn.log_softmax", "log of softmax along `axis`", {"data"}, {{"axis", -1}},
          FusionKind::OutElementwiseFusable, sameTypeWithAxis("nn.log_softmax"));
  declare(registry, "nn.prelu", "leaky relu with a learned slope per channel", {"data", "alpha"}, {{"axis", 1}},
          FusionKind::Broadcast, preluRelation);
  declare(registry, "nn.dropout", "dropout (identity at inference); returns (output, mask)", {"data"},
          {{"rate", 0.5}}, FusionKind::Opaque, dropoutRelation);
}

}  // namespace byoc::ops
