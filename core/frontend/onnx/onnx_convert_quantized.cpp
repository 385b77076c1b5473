/// \file
/// Converters of the quantized ONNX ops into Relay's qnn ops, as TVM's ONNX frontend maps them:
/// QuantizeLinear and DequantizeLinear (per-tensor and per-axis, int8 and uint8), QLinearConv and
/// QLinearMatMul (the integer product, the int32 bias, then qnn.requantize by
/// input_scale * weight_scale), ConvInteger and MatMulInteger (the int32 product alone), and
/// com.microsoft's QLinearAdd (dequantize both operands, add, quantize).
///
/// Scales and zero points must be constants: per-tensor ones become scalars, per-axis ones 1-D
/// tensors; zero points become int32 as the qnn ops take them. Anything else (blocked
/// quantization, other element types, parameters computed at run time) is refused by name.

#include <cmath>

#include "frontend/onnx/onnx_converters.h"
#include "frontend/onnx/onnx_tensor.h"
#include "support/number_text.h"

namespace byoc::onnx_import {

namespace {

/// A constant quantization parameter (input `index`), as float32 or int32 values.
struct QuantParam {
  std::vector<double> values;
  DType dtype = DType::Float32;  ///< the ONNX element type (a zero point's tells the quantized type)
};

Result<QuantParam> readParam(const OnnxNodeContext& c, std::size_t index, const char* what) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue value, c.input(index));
  const TensorData* data = value.constant();
  if (!data)
    return makeError(std::string("the ") + what + " (input " + std::to_string(index) + " '" +
                     c.node.input(static_cast<int>(index)) +
                     "') must be a constant; quantization parameters computed at run time are not supported");
  if (data->shape().size() > 1)
    return makeError(std::string("the ") + what + " must be a scalar or 1-D, found rank " +
                     std::to_string(data->shape().size()));
  QuantParam param;
  param.dtype = data->dtype();
  for (int64_t i = 0; i < data->numElements(); ++i) param.values.push_back(data->elementAsDouble(i));
  return param;
}

std::string dtypeText(DType dtype) { return std::string(dtypeName(dtype)); }

/// A scale: float32, positive values.
Result<QuantParam> readScale(const OnnxNodeContext& c, std::size_t index, const char* what) {
  BYOC_ASSIGN_OR_RETURN(QuantParam scale, readParam(c, index, what));
  if (scale.dtype != DType::Float32)
    return makeError(std::string("the ") + what + " must be float32, found " + dtypeText(scale.dtype));
  if (scale.values.empty()) return makeError(std::string("the ") + what + " is empty");
  for (std::size_t i = 0; i < scale.values.size(); ++i) {
    const double value = scale.values[i];
    if (std::isfinite(value) && value > 0) continue;
    return makeError(std::string("the ") + what + " (input " + std::to_string(index) + " '" +
                     c.node.input(static_cast<int>(index)) + "') is " + numberText(static_cast<float>(value)) +
                     (scale.values.size() > 1 ? " at channel " + std::to_string(i) : "") +
                     "; expected a finite positive scale");
  }
  return scale;
}

/// A zero point of one of `allowed` types, or `fallback` (a single 0) when the input is absent.
Result<QuantParam> readZeroPoint(const OnnxNodeContext& c, std::size_t index, const char* what, DType fallback,
                                 std::initializer_list<DType> allowed) {
  if (!c.hasInput(index)) return QuantParam{{0.0}, fallback};
  BYOC_ASSIGN_OR_RETURN(QuantParam zp, readParam(c, index, what));
  std::string names;
  for (DType dtype : allowed) {
    if (dtype == zp.dtype) return zp;
    names += (names.empty() ? "" : " or ") + dtypeText(dtype);
  }
  return makeError(std::string("the ") + what + " has element type " + dtypeText(zp.dtype) +
                   ", which is not supported; expected " + names);
}

/// The parameter as an IR constant: a scalar when it holds one value, else 1-D.
OnnxValue paramConstant(const OnnxNodeContext& c, const std::vector<double>& values, DType dtype) {
  if (values.size() == 1) return c.scalar(dtype, values[0]);
  std::vector<std::byte> bytes;
  for (double value : values) {
    TensorData one = TensorData::scalar(dtype, value);
    bytes.insert(bytes.end(), one.bytes().begin(), one.bytes().end());
  }
  return c.constant(TensorData::fromBytes(dtype, {static_cast<int64_t>(values.size())}, bytes));
}

/// Checks that a parameter is per-tensor, or per-axis with `extent` values when `extent` is given.
Status checkParamSize(const QuantParam& param, const char* what, std::optional<int64_t> extent,
                      const std::string& axisText) {
  const auto count = static_cast<int64_t>(param.values.size());
  if (count == 1) return Status::ok();
  if (!extent)
    return makeError(std::string("the ") + what + " must be per-tensor (one value), found " + std::to_string(count) +
                     " values");
  if (count != *extent && *extent != kAnyDim)
    return makeError(std::string("the ") + what + " has " + std::to_string(count) +
                     " values; per-axis quantization is supported only along " + axisText + " (" +
                     std::to_string(*extent) + " values)");
  return Status::ok();
}

/// Refuses the attributes of schemes the import does not support (opset 21's blocked quantization).
Status refuseBlocked(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(int64_t blockSize, c.attrs.getInt("block_size", 0));
  if (blockSize != 0)
    return makeError("blocked quantization (block_size " + std::to_string(blockSize) + ") is not supported");
  return Status::ok();
}

/// The quantized axis of a QuantizeLinear / DequantizeLinear input: the `axis` attribute
/// (default 1), 0 for inputs of rank below 2 as TVM reads it.
Result<int64_t> quantizedAxis(const OnnxNodeContext& c, const OnnxValue& x) {
  BYOC_ASSIGN_OR_RETURN(int64_t axis, c.attrs.getInt("axis", 1));
  if (x.rank() < 2) return int64_t{0};
  return onnxAxis(axis, x.rank());
}

/// The element type opset 21's `output_dtype` names, if given.
Result<std::optional<DType>> outputDType(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(int64_t code, c.attrs.getInt("output_dtype", 0));
  if (code == 0) return std::optional<DType>();
  if (code == onnx::TensorProto::INT8) return std::optional<DType>(DType::Int8);
  if (code == onnx::TensorProto::UINT8) return std::optional<DType>(DType::UInt8);
  return makeError("output_dtype " + onnxElemTypeName(static_cast<int32_t>(code)) +
                   " is not supported; expected INT8 or UINT8");
}

/// QuantizeLinear(x, y_scale, y_zero_point?) → qnn.quantize.
Result<OnnxOutputs> quantizeLinear(const OnnxNodeContext& c) {
  BYOC_TRY(refuseBlocked(c));
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  if (x.tensor() && x.tensor()->dtype != DType::Float32)
    return makeError("the input must be float32, found " + dtypeText(x.tensor()->dtype));
  BYOC_ASSIGN_OR_RETURN(int64_t axis, quantizedAxis(c, x));
  BYOC_ASSIGN_OR_RETURN(std::optional<DType> declared, outputDType(c));
  BYOC_ASSIGN_OR_RETURN(QuantParam scale, readScale(c, 1, "scale"));
  BYOC_ASSIGN_OR_RETURN(QuantParam zp, readZeroPoint(c, 2, "zero point", declared.value_or(DType::UInt8),
                                                     {DType::Int8, DType::UInt8}));
  const std::string axisText = "axis " + std::to_string(axis);
  const int64_t extent = x.rank() ? x.shape()[static_cast<std::size_t>(axis)] : 1;
  BYOC_TRY(checkParamSize(scale, "scale", extent, axisText));
  BYOC_TRY(checkParamSize(zp, "zero point", extent, axisText));
  return single(c.call("qnn.quantize",
                       {x, paramConstant(c, scale.values, DType::Float32), paramConstant(c, zp.values, DType::Int32)},
                       {{"axis", axis}, {"out_dtype", dtypeText(zp.dtype)}}));
}

/// DequantizeLinear(x, x_scale, x_zero_point?) → qnn.dequantize.
Result<OnnxOutputs> dequantizeLinear(const OnnxNodeContext& c) {
  BYOC_TRY(refuseBlocked(c));
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  const DType dtype = x.tensor() ? x.tensor()->dtype : DType::Int8;
  if (dtype != DType::Int8 && dtype != DType::UInt8 && dtype != DType::Int32)
    return makeError("the input has element type " + dtypeText(dtype) + ", which is not supported; expected int8, uint8 or int32");
  BYOC_ASSIGN_OR_RETURN(int64_t axis, quantizedAxis(c, x));
  BYOC_ASSIGN_OR_RETURN(QuantParam scale, readScale(c, 1, "scale"));
  BYOC_ASSIGN_OR_RETURN(QuantParam zp, readZeroPoint(c, 2, "zero point", dtype, {dtype}));
  const std::string axisText = "axis " + std::to_string(axis);
  const int64_t extent = x.rank() ? x.shape()[static_cast<std::size_t>(axis)] : 1;
  BYOC_TRY(checkParamSize(scale, "scale", extent, axisText));
  BYOC_TRY(checkParamSize(zp, "zero point", extent, axisText));
  return single(c.call("qnn.dequantize",
                       {x, paramConstant(c, scale.values, DType::Float32), paramConstant(c, zp.values, DType::Int32)},
                       {{"axis", axis}}));
}

/// The per-element product of two scales (one of them possibly per-axis), in float32 as TVM folds it.
std::vector<double> scaleProduct(const QuantParam& a, const QuantParam& b) {
  const std::size_t count = std::max(a.values.size(), b.values.size());
  std::vector<double> product(count);
  for (std::size_t i = 0; i < count; ++i)
    product[i] = static_cast<float>(a.values[a.values.size() == 1 ? 0 : i]) *
                 static_cast<float>(b.values[b.values.size() == 1 ? 0 : i]);
  return product;
}

/// The attributes Conv would give nn.conv2d for `x` and `w` (the shared window rules of the
/// float converter, run on a context holding just these operands).
Result<Attrs> convAttrs(const OnnxNodeContext& c, const OnnxValue& x, const OnnxValue& w) {
  if (x.rank() != 4)
    return makeError("only 2-D convolutions (rank-4 NCHW inputs) are supported, found rank " + std::to_string(x.rank()));
  OnnxNodeContext floatConv(c.node, {x, w}, c.opset, [&c] { return c.nodeOrigin(); });  // its nodes are dropped
  BYOC_ASSIGN_OR_RETURN(OnnxOutputs outputs, onnxConverters().at("Conv")(floatConv));
  return outputs[0].expr->as<CallNode>()->attrs.with("out_dtype", "int32");
}

/// The quantized element types of activations and weights.
constexpr std::initializer_list<DType> kInt8Types = {DType::Int8, DType::UInt8};

/// The operand types the integer products take.
Status requireInt8(const OnnxValue& value, const char* what) {
  const DType dtype = value.tensor() ? value.tensor()->dtype : DType::Float32;
  if (dtype == DType::Int8 || dtype == DType::UInt8) return Status::ok();
  return makeError(std::string("the ") + what + " has element type " + dtypeText(dtype) +
                   ", which is not supported; expected int8 or uint8");
}

/// Parameters of an integer product: the input's per-tensor, the weight's per output channel.
struct ProductParams {
  QuantParam inputScale, inputZp, weightScale, weightZp;
};

/// qnn.conv2d / qnn.dense of `x` and `w` with `p`; `channels` is the weight's output channel count.
Result<OnnxValue> integerProduct(const OnnxNodeContext& c, const char* op, const OnnxValue& x, const OnnxValue& w,
                                 const ProductParams& p, int64_t channels, const Attrs& attrs) {
  BYOC_TRY(requireInt8(x, "input"));
  BYOC_TRY(requireInt8(w, "weight"));
  const std::string axisText = "the output channels";
  BYOC_TRY(checkParamSize(p.inputScale, "input scale", std::nullopt, axisText));
  BYOC_TRY(checkParamSize(p.inputZp, "input zero point", std::nullopt, axisText));
  BYOC_TRY(checkParamSize(p.weightScale, "weight scale", channels, axisText));
  BYOC_TRY(checkParamSize(p.weightZp, "weight zero point", channels, axisText));
  return c.call(op,
                {x, w, paramConstant(c, p.inputZp.values, DType::Int32), paramConstant(c, p.weightZp.values, DType::Int32),
                 paramConstant(c, p.inputScale.values, DType::Float32),
                 paramConstant(c, p.weightScale.values, DType::Float32)},
                attrs);
}

/// qnn.requantize of an int32 product to the output parameters (inputs `index`, `index + 1`);
/// the product's scale is input_scale * weight_scale along `axis`.
Result<OnnxValue> requantizeProduct(const OnnxNodeContext& c, const OnnxValue& product, const ProductParams& p,
                                    std::size_t index, int64_t axis) {
  BYOC_ASSIGN_OR_RETURN(QuantParam outScale, readScale(c, index, "output scale"));
  BYOC_ASSIGN_OR_RETURN(QuantParam outZp, readZeroPoint(c, index + 1, "output zero point", DType::UInt8, kInt8Types));
  BYOC_TRY(checkParamSize(outScale, "output scale", std::nullopt, ""));
  BYOC_TRY(checkParamSize(outZp, "output zero point", std::nullopt, ""));
  return c.call("qnn.requantize",
                {product, paramConstant(c, scaleProduct(p.inputScale, p.weightScale), DType::Float32), c.scalar(DType::Int32, 0),
                 paramConstant(c, outScale.values, DType::Float32), paramConstant(c, outZp.values, DType::Int32)},
                {{"axis", axis}, {"out_dtype", dtypeText(outZp.dtype)}});
}

/// QLinearConv(x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, B?).
Result<OnnxOutputs> qlinearConv(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue w, c.input(3));
  BYOC_ASSIGN_OR_RETURN(Attrs attrs, convAttrs(c, x, w));
  ProductParams p;
  BYOC_ASSIGN_OR_RETURN(p.inputScale, readScale(c, 1, "input scale"));
  BYOC_ASSIGN_OR_RETURN(p.inputZp, readZeroPoint(c, 2, "input zero point", DType::UInt8, kInt8Types));
  BYOC_ASSIGN_OR_RETURN(p.weightScale, readScale(c, 4, "weight scale"));
  BYOC_ASSIGN_OR_RETURN(p.weightZp, readZeroPoint(c, 5, "weight zero point", DType::UInt8, kInt8Types));
  BYOC_ASSIGN_OR_RETURN(OnnxValue out, integerProduct(c, "qnn.conv2d", x, w, p, w.shape()[0], attrs));
  if (c.hasInput(8)) {
    BYOC_ASSIGN_OR_RETURN(OnnxValue bias, c.input(8));
    BYOC_ASSIGN_OR_RETURN(out, c.call("nn.bias_add", {out, bias}, {{"axis", 1}}));
  }
  return single(requantizeProduct(c, out, p, 6, 1));
}

/// ConvInteger(x, w, x_zp?, w_zp?): the int32 convolution alone.
Result<OnnxOutputs> convInteger(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue w, c.input(1));
  BYOC_ASSIGN_OR_RETURN(Attrs attrs, convAttrs(c, x, w));
  ProductParams p{{{1.0}}, {}, {{1.0}}, {}};
  BYOC_ASSIGN_OR_RETURN(p.inputZp, readZeroPoint(c, 2, "input zero point", DType::UInt8, kInt8Types));
  BYOC_ASSIGN_OR_RETURN(p.weightZp, readZeroPoint(c, 3, "weight zero point", DType::UInt8, kInt8Types));
  return single(integerProduct(c, "qnn.conv2d", x, w, p, w.shape()[0], attrs));
}

/// A constant 2-D B [k, n] as the [n, k] weight of qnn.dense, transposed at import.
Result<OnnxValue> constantDenseWeight(const OnnxNodeContext& c, const OnnxValue& b) {
  const TensorData* data = b.constant();
  if (!data || b.rank() != 2)
    return makeError("B must be a constant 2-D matrix (a weight); other operands are not supported");
  return c.constant(transposed2d(*data), b.expr->as<ConstantNode>()->name);
}

/// qnn.dense of A [..., k] (flattened to 2-D and the result reshaped back) by a constant B [k, n].
Result<OnnxValue> integerMatmul(const OnnxNodeContext& c, const OnnxValue& a, const OnnxValue& b, const ProductParams& p) {
  if (a.rank() < 2) return makeError("A must have rank 2 or more, found rank " + std::to_string(a.rank()));
  BYOC_ASSIGN_OR_RETURN(OnnxValue weight, constantDenseWeight(c, b));
  const Shape aShape = a.shape();
  const int64_t n = weight.shape()[0];
  OnnxValue flat = a;
  if (a.rank() != 2) {
    BYOC_ASSIGN_OR_RETURN(flat, c.call("reshape", {a}, {{"newshape", AttrValue::ints({-1, aShape.back()})}}));
  }
  BYOC_ASSIGN_OR_RETURN(OnnxValue product, integerProduct(c, "qnn.dense", flat, weight, p, n, {{"units", n}}));
  if (a.rank() == 2) return product;
  Shape outShape(aShape.begin(), aShape.end() - 1);
  outShape.push_back(n);
  return c.call("reshape", {product}, {{"newshape", AttrValue::ints(outShape)}});
}

/// QLinearMatMul(a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp) with a constant 2-D b.
Result<OnnxOutputs> qlinearMatmul(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue a, c.input(0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue b, c.input(3));
  ProductParams p;
  BYOC_ASSIGN_OR_RETURN(p.inputScale, readScale(c, 1, "A scale"));
  BYOC_ASSIGN_OR_RETURN(p.inputZp, readZeroPoint(c, 2, "A zero point", DType::UInt8, kInt8Types));
  BYOC_ASSIGN_OR_RETURN(p.weightScale, readScale(c, 4, "B scale"));
  BYOC_ASSIGN_OR_RETURN(p.weightZp, readZeroPoint(c, 5, "B zero point", DType::UInt8, kInt8Types));
  BYOC_ASSIGN_OR_RETURN(OnnxValue product, integerMatmul(c, a, b, p));
  return single(requantizeProduct(c, product, p, 6, -1));
}

/// MatMulInteger(a, b, a_zp?, b_zp?) with a constant 2-D b: the int32 product alone.
Result<OnnxOutputs> matmulInteger(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue a, c.input(0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue b, c.input(1));
  ProductParams p{{{1.0}}, {}, {{1.0}}, {}};
  BYOC_ASSIGN_OR_RETURN(p.inputZp, readZeroPoint(c, 2, "A zero point", DType::UInt8, kInt8Types));
  BYOC_ASSIGN_OR_RETURN(p.weightZp, readZeroPoint(c, 3, "B zero point", DType::UInt8, kInt8Types));
  return single(integerMatmul(c, a, b, p));
}

/// com.microsoft QLinearAdd(a, a_scale, a_zp, b, b_scale, b_zp, c_scale, c_zp), as TVM imports
/// it: dequantize both, add in float, quantize (FakeQuantizationToInteger makes it qnn.add).
Result<OnnxOutputs> qlinearAdd(const OnnxNodeContext& c) {
  std::vector<OnnxValue> floats;
  for (std::size_t index : {std::size_t{0}, std::size_t{3}}) {
    BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(index));
    BYOC_TRY(requireInt8(x, index == 0 ? "A" : "B"));
    BYOC_ASSIGN_OR_RETURN(QuantParam scale, readScale(c, index + 1, index == 0 ? "A scale" : "B scale"));
    BYOC_ASSIGN_OR_RETURN(QuantParam zp, readZeroPoint(c, index + 2, "zero point", x.tensor()->dtype, {x.tensor()->dtype}));
    BYOC_TRY(checkParamSize(scale, "scale", std::nullopt, ""));
    BYOC_TRY(checkParamSize(zp, "zero point", std::nullopt, ""));
    BYOC_ASSIGN_OR_RETURN(OnnxValue real, c.call("qnn.dequantize", {x, paramConstant(c, scale.values, DType::Float32),
                                                                    paramConstant(c, zp.values, DType::Int32)}));
    floats.push_back(real);
  }
  BYOC_ASSIGN_OR_RETURN(OnnxValue sum, c.call("add", floats));
  BYOC_ASSIGN_OR_RETURN(QuantParam outScale, readScale(c, 6, "C scale"));
  BYOC_ASSIGN_OR_RETURN(QuantParam outZp, readZeroPoint(c, 7, "C zero point", DType::UInt8, kInt8Types));
  BYOC_TRY(checkParamSize(outScale, "C scale", std::nullopt, ""));
  BYOC_TRY(checkParamSize(outZp, "C zero point", std::nullopt, ""));
  return single(c.call("qnn.quantize",
                       {sum, paramConstant(c, outScale.values, DType::Float32), paramConstant(c, outZp.values, DType::Int32)},
                       {{"out_dtype", dtypeText(outZp.dtype)}}));
}

}  // namespace

void addQuantizationConverters(OnnxConverterTable& table) {
  table["QuantizeLinear"] = quantizeLinear;
  table["DequantizeLinear"] = dequantizeLinear;
  table["QLinearConv"] = qlinearConv;
  table["ConvInteger"] = convInteger;
  table["QLinearMatMul"] = qlinearMatmul;
  table["MatMulInteger"] = matmulInteger;
  table["com.microsoft.QLinearAdd"] = qlinearAdd;
}

}  // namespace byoc::onnx_import
