/// \file
/// The quantized ops of Relay's `qnn` dialect: quantize, dequantize, requantize, and the integer
/// conv2d, dense, add, subtract, mul and concatenate whose scales and zero points are ordinary
/// (constant) arguments.
/// Per-tensor parameters are scalars; per-axis ones are 1-D tensors as long as the quantized axis.

#include <algorithm>
#include <initializer_list>

#include "ir/ops/op_helpers.h"

namespace byoc::ops {

namespace {

std::string dtypeList(std::initializer_list<DType> dtypes) {
  std::string text;
  for (DType dtype : dtypes) text += (text.empty() ? "" : ", ") + std::string(dtypeName(dtype));
  return text;
}

Status requireDType(const std::string& op, const std::string& what, DType found, std::initializer_list<DType> allowed) {
  for (DType dtype : allowed)
    if (dtype == found) return Status::ok();
  return makeError(op + ": " + what + " must be one of " + dtypeList(allowed) + ", found " + std::string(dtypeName(found)));
}

/// The dtypes a quantized tensor may have.
constexpr std::initializer_list<DType> kQuantizedDTypes = {DType::Int8, DType::UInt8, DType::Int16, DType::Int32};

/// A scale (float32) or zero point (int32) `param`, named `what` in errors: a scalar, or a 1-D
/// tensor of `extent` values when `extent` is given (per-axis quantization).
Status checkQuantParam(const std::string& op, const std::string& what, const TensorTypeNode* param, DType dtype,
                       std::optional<int64_t> extent) {
  if (param->dtype != dtype)
    return makeError(op + ": " + what + " must be " + std::string(dtypeName(dtype)) + ", found " +
                     std::string(dtypeName(param->dtype)));
  if (param->shape.empty()) return Status::ok();
  if (!extent)
    return makeError(op + ": " + what + " must be a scalar, found shape " + shapeText(param->shape));
  if (param->shape.size() != 1 || (param->shape[0] != *extent && *extent != kAnyDim && param->shape[0] != kAnyDim))
    return makeError(op + ": " + what + " must be a scalar or have shape (" + std::to_string(*extent) +
                     ") (one value per channel of the quantized axis), found " + shapeText(param->shape));
  return Status::ok();
}

/// The quantization parameter that is argument `index`.
Status checkQuantParam(const std::string& op, const TypeRelationInput& input, std::size_t index, DType dtype,
                       std::optional<int64_t> extent) {
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* param, tensorArg(op, input, index));
  return checkQuantParam(op, "argument " + std::to_string(index), param, dtype, extent);
}

/// The extent of the quantized axis `axis` (attribute) of `data`.
Result<int64_t> axisExtent(const std::string& op, const TypeRelationInput& input, const TensorTypeNode& data) {
  BYOC_ASSIGN_OR_RETURN(int64_t axis, intAttr(op, input.attrs, "axis"));
  if (data.shape.empty()) return int64_t{1};
  BYOC_ASSIGN_OR_RETURN(int64_t normalized, normalizeAxis(op, axis, data.shape.size()));
  return data.shape[static_cast<std::size_t>(normalized)];
}

Result<DType> outDType(const std::string& op, const Attrs& attrs, std::initializer_list<DType> allowed) {
  std::string name = stringAttr(attrs, "out_dtype");
  std::optional<DType> dtype = parseDType(name);
  if (!dtype) return makeError(op + ": out_dtype must be one of " + dtypeList(allowed) + ", found \"" + name + "\"");
  BYOC_TRY(requireDType(op, "out_dtype", *dtype, allowed));
  return *dtype;
}

/// qnn.quantize(data: float32, output_scale, output_zero_point) → out_dtype, same shape.
Result<Type> quantizeRelation(const TypeRelationInput& input) {
  const std::string op = "qnn.quantize";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_TRY(requireDType(op, "data", data->dtype, {DType::Float32}));
  BYOC_ASSIGN_OR_RETURN(int64_t extent, axisExtent(op, input, *data));
  BYOC_TRY(checkQuantParam(op, input, 1, DType::Float32, extent));
  BYOC_TRY(checkQuantParam(op, input, 2, DType::Int32, extent));
  BYOC_ASSIGN_OR_RETURN(DType out, outDType(op, input.attrs, kQuantizedDTypes));
  return tensorType(data->shape, out);
}

/// qnn.dequantize(data: int, input_scale, input_zero_point) → float32, same shape.
Result<Type> dequantizeRelation(const TypeRelationInput& input) {
  const std::string op = "qnn.dequantize";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_TRY(requireDType(op, "data", data->dtype, kQuantizedDTypes));
  BYOC_ASSIGN_OR_RETURN(int64_t extent, axisExtent(op, input, *data));
  BYOC_TRY(checkQuantParam(op, input, 1, DType::Float32, extent));
  BYOC_TRY(checkQuantParam(op, input, 2, DType::Int32, extent));
  BYOC_ASSIGN_OR_RETURN(DType out, outDType(op, input.attrs, {DType::Float32}));
  return tensorType(data->shape, out);
}

/// qnn.requantize(data, input_scale, input_zero_point, output_scale, output_zero_point): the
/// input parameters may be per-axis, the output ones are per-tensor (as in TVM).
Result<Type> requantizeRelation(const TypeRelationInput& input) {
  const std::string op = "qnn.requantize";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_TRY(requireDType(op, "data", data->dtype, kQuantizedDTypes));
  BYOC_ASSIGN_OR_RETURN(int64_t extent, axisExtent(op, input, *data));
  BYOC_TRY(checkQuantParam(op, input, 1, DType::Float32, extent));
  BYOC_TRY(checkQuantParam(op, input, 2, DType::Int32, extent));
  BYOC_TRY(checkQuantParam(op, input, 3, DType::Float32, std::nullopt));
  BYOC_TRY(checkQuantParam(op, input, 4, DType::Int32, std::nullopt));
  std::string rounding = stringAttr(input.attrs, "rounding");
  if (rounding != "UPWARD" && rounding != "TONEAREST")
    return makeError(op + ": rounding must be \"UPWARD\" or \"TONEAREST\", found \"" + rounding + "\"");
  BYOC_ASSIGN_OR_RETURN(DType out, outDType(op, input.attrs, kQuantizedDTypes));
  return tensorType(data->shape, out);
}

/// The float op's relation on the first `arity` arguments under the qnn op's name, for the shapes
/// of qnn.conv2d, qnn.dense and qnn.concatenate.
Result<Type> floatRelation(const std::string& op, const OpDef& floatOp, const TypeRelationInput& input,
                           std::size_t arity = 2) {
  Result<Type> type = floatOp.relation({input.args.subspan(0, std::min(arity, input.args.size())), input.attrs});
  if (type) return type;
  std::string message = type.error().message;
  if (message.starts_with(floatOp.name)) message = op + message.substr(floatOp.name.size());
  return makeError(std::move(message));
}

/// Which output axis holds the output channels, from the attributes and the output's rank.
using ChannelAxis = std::size_t (*)(const Attrs& attrs, std::size_t outRank);

/// The channel axis of a qnn.conv2d output in its layout.
std::size_t convOutChannelAxis(const Attrs& attrs, std::size_t) {
  std::string layout = stringAttr(attrs, "out_layout");
  if (layout.empty()) layout = stringAttr(attrs, "data_layout");
  std::size_t axis = layout.find('C');
  return axis == std::string::npos ? 1 : axis;
}

/// The units of a qnn.dense output are its last axis.
std::size_t denseOutChannelAxis(const Attrs&, std::size_t outRank) { return outRank ? outRank - 1 : 0; }

/// qnn.conv2d / qnn.dense(data, weight, input_zero_point, kernel_zero_point, input_scale,
/// kernel_scale): integer operands; the kernel's parameters may be per output channel.
TypeRelation quantizedProductRelation(std::string op, const OpDef& floatOp, ChannelAxis channelAxis) {
  return [op, &floatOp, channelAxis](const TypeRelationInput& input) -> Result<Type> {
    BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
    BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* weight, tensorArg(op, input, 1));
    BYOC_TRY(requireDType(op, "data", data->dtype, {DType::Int8, DType::UInt8, DType::Int16}));
    BYOC_TRY(requireDType(op, "weight", weight->dtype, {DType::Int8, DType::UInt8, DType::Int16}));
    BYOC_ASSIGN_OR_RETURN(Type type, floatRelation(op, floatOp, input));
    const auto* out = type->as<TensorTypeNode>();
    BYOC_TRY(requireDType(op, "out_dtype", out->dtype, {DType::Int32, DType::Int64}));
    const int64_t channels = out->shape[channelAxis(input.attrs, out->shape.size())];
    BYOC_TRY(checkQuantParam(op, input, 2, DType::Int32, std::nullopt));
    BYOC_TRY(checkQuantParam(op, input, 3, DType::Int32, channels));
    BYOC_TRY(checkQuantParam(op, input, 4, DType::Float32, std::nullopt));
    BYOC_TRY(checkQuantParam(op, input, 5, DType::Float32, channels));
    return type;
  };
}

/// qnn.add / qnn.mul(lhs, rhs, lhs_scale, lhs_zero_point, rhs_scale, rhs_zero_point,
/// output_scale, output_zero_point): broadcasting, per-tensor parameters, the lhs dtype.
TypeRelation quantizedBinaryRelation(std::string op) {
  return [op](const TypeRelationInput& input) -> Result<Type> {
    BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* lhs, tensorArg(op, input, 0));
    BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* rhs, tensorArg(op, input, 1));
    BYOC_TRY(requireDType(op, "lhs", lhs->dtype, {DType::Int8, DType::UInt8, DType::Int32}));
    if (rhs->dtype != lhs->dtype)
      return makeError(op + ": lhs and rhs must have the same dtype, found " + std::string(dtypeName(lhs->dtype)) +
                       " and " + std::string(dtypeName(rhs->dtype)));
    for (std::size_t i = 2; i < 8; ++i)
      BYOC_TRY(checkQuantParam(op, input, i, i % 2 == 0 ? DType::Float32 : DType::Int32, std::nullopt));
    BYOC_ASSIGN_OR_RETURN(Shape shape, broadcastShapes(op, lhs->shape, rhs->shape));
    return tensorType(std::move(shape), lhs->dtype);
  };
}

/// qnn.concatenate(data, input_scales, input_zero_points, output_scale, output_zero_point): a
/// tuple of integer tensors of one dtype with a tuple of per-tensor scales and one of zero points
/// as long, and the output's parameters; the shape is concatenate's.
TypeRelation quantizedConcatenateRelation(const OpDef& floatOp) {
  return [&floatOp](const TypeRelationInput& input) -> Result<Type> {
    const std::string op = "qnn.concatenate";
    BYOC_ASSIGN_OR_RETURN(Type type, floatRelation(op, floatOp, input, 1));
    BYOC_TRY(requireDType(op, "data", type->as<TensorTypeNode>()->dtype, {DType::Int8, DType::UInt8, DType::Int32}));
    const std::size_t count = input.args[0]->as<TupleTypeNode>()->fields.size();
    for (std::size_t index : {std::size_t{1}, std::size_t{2}}) {
      const char* what = index == 1 ? "scales" : "zero points";
      const auto* params = index < input.args.size() && input.args[index] ? input.args[index]->as<TupleTypeNode>() : nullptr;
      if (!params || params->fields.size() != count)
        return makeError(op + ": argument " + std::to_string(index) + " must be a tuple of " + std::to_string(count) +
                         " " + what + ", one per tensor, found " +
                         typeToString(index < input.args.size() ? input.args[index] : Type()));
      for (std::size_t f = 0; f < count; ++f) {
        const std::string field = "argument " + std::to_string(index) + " field " + std::to_string(f);
        const auto* param = params->fields[f] ? params->fields[f]->as<TensorTypeNode>() : nullptr;
        if (!param) return makeError(op + ": " + field + " must be a tensor, found " + typeToString(params->fields[f]));
        BYOC_TRY(checkQuantParam(op, field, param, index == 1 ? DType::Float32 : DType::Int32, std::nullopt));
      }
    }
    BYOC_TRY(checkQuantParam(op, input, 3, DType::Float32, std::nullopt));
    BYOC_TRY(checkQuantParam(op, input, 4, DType::Int32, std::nullopt));
    return type;
  };
}

/// The float op's attributes with `out_dtype` defaulting to int32; TVM's qnn relations need it stated.
std::vector<AttrField> int32OutputAttrs(const OpDef& floatOp) {
  std::vector<AttrField> fields = floatOp.attrs;
  for (AttrField& field : fields)
    if (field.name == "out_dtype") field = tvmRequired("out_dtype", "int32");
  return fields;
}

/// Declares the quantized form of the product `floatName` (registered before).
void declareQuantizedProduct(OpRegistry& registry, const std::string& floatName, std::string summary,
                             ChannelAxis channelAxis) {
  const OpDef* floatOp = registry.find(floatName);
  std::string name = "qnn." + floatName.substr(3);
  BYOC_CHECK(floatOp != nullptr, name + " needs " + floatName);
  declare(registry, name, std::move(summary),
          {"data", "weight", "input_zero_point", "kernel_zero_point", "input_scale", "kernel_scale"},
          int32OutputAttrs(*floatOp), FusionKind::OutElementwiseFusable,
          quantizedProductRelation(name, *floatOp, channelAxis), floatOp->normalizer);
}

const std::vector<std::string> kBinaryInputs = {"lhs",       "rhs",            "lhs_scale",   "lhs_zero_point",
                                                "rhs_scale", "rhs_zero_point", "output_scale", "output_zero_point"};

}  // namespace

void registerQnnOps(OpRegistry& registry) {
  declare(registry, "qnn.quantize", "float to integer: clamp(round(data / scale) + zero_point)",
          {"data", "output_scale", "output_zero_point"}, {{"axis", -1}, tvmRequired("out_dtype", "int8")},
          FusionKind::Elementwise, quantizeRelation);
  declare(registry, "qnn.dequantize", "integer to float: (data - zero_point) * scale",
          {"data", "input_scale", "input_zero_point"}, {{"axis", -1}, {"out_dtype", "float32"}},
          FusionKind::Elementwise, dequantizeRelation);
  declare(registry, "qnn.requantize", "integer to integer under new quantization parameters (fixed-point multiply)",
          {"data", "input_scale", "input_zero_point", "output_scale", "output_zero_point"},
          {{"axis", -1}, tvmRequired("rounding", "UPWARD"), tvmRequired("out_dtype", "int8")}, FusionKind::Elementwise,
          requantizeRelation);
  declareQuantizedProduct(registry, "nn.conv2d", "integer 2-D convolution with zero points, int32 accumulation",
                          convOutChannelAxis);
  declareQuantizedProduct(registry, "nn.dense", "integer fully connected layer with zero points, int32 accumulation",
                          denseOutChannelAxis);
  declare(registry, "qnn.add", "integer addition under output quantization parameters", kBinaryInputs, {},
          FusionKind::Broadcast, quantizedBinaryRelation("qnn.add"));
  declare(registry, "qnn.mul", "integer multiplication under output quantization parameters", kBinaryInputs, {},
          FusionKind::Broadcast, quantizedBinaryRelation("qnn.mul"));
  declare(registry, "qnn.subtract", "integer subtraction under output quantization parameters", kBinaryInputs, {},
          FusionKind::Broadcast, quantizedBinaryRelation("qnn.subtract"));
  const OpDef* concatenate = registry.find("concatenate");
  BYOC_CHECK(concatenate != nullptr, "qnn.concatenate needs concatenate");
  declare(registry, "qnn.concatenate", "joins integer tensors along `axis`, each requantized to the output parameters",
          {"data", "input_scales", "input_zero_points", "output_scale", "output_zero_point"}, concatenate->attrs,
          FusionKind::Injective, quantizedConcatenateRelation(*concatenate), concatenate->normalizer);
}

}  // namespace byoc::ops
