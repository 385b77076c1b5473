#include "frontend/onnx/onnx_node_context.h"

#include <cstring>

#include "frontend/onnx/onnx_tensor.h"
#include "ir/op.h"

namespace byoc::onnx_import {

namespace {

const Shape kNoShape;

std::string describeInput(std::size_t index, const onnx::NodeProto& node) {
  std::string text = "input " + std::to_string(index);
  if (static_cast<int>(index) < node.input_size() && !node.input(static_cast<int>(index)).empty())
    text += " ('" + node.input(static_cast<int>(index)) + "')";
  return text;
}

/// Checks the tensors of `type` (a tensor, or a tuple of them) against the limits on shapes.
Status checkResultType(std::string_view op, const Type& type) {
  std::vector<const TensorTypeNode*> tensors;
  if (const auto* tensor = type ? type->as<TensorTypeNode>() : nullptr) tensors.push_back(tensor);
  if (const auto* tuple = type ? type->as<TupleTypeNode>() : nullptr)
    for (const Type& field : tuple->fields)
      if (const auto* tensor = field ? field->as<TensorTypeNode>() : nullptr) tensors.push_back(tensor);
  for (const TensorTypeNode* tensor : tensors) {
    Status limited = checkShape(tensor->shape, true);
    if (!limited) return makeError(std::string(op) + ": result " + limited.error().message);
  }
  return Status::ok();
}

}  // namespace

const TensorData* OnnxValue::constant() const {
  const auto* node = expr ? expr->as<ConstantNode>() : nullptr;
  return node ? &node->data : nullptr;
}

const TensorTypeNode* OnnxValue::tensor() const { return type ? type->as<TensorTypeNode>() : nullptr; }

const Shape& OnnxValue::shape() const {
  const TensorTypeNode* t = tensor();
  return t ? t->shape : kNoShape;
}

std::vector<int64_t> tensorToInts(const TensorData& data) {
  std::vector<int64_t> values(static_cast<std::size_t>(data.numElements()));
  const std::byte* bytes = data.bytes().data();
  for (std::size_t i = 0; i < values.size(); ++i) {
    switch (data.dtype()) {
      case DType::Int64: std::memcpy(&values[i], bytes + i * 8, 8); break;
      case DType::Int32: { int32_t v; std::memcpy(&v, bytes + i * 4, 4); values[i] = v; break; }
      case DType::Int16: { int16_t v; std::memcpy(&v, bytes + i * 2, 2); values[i] = v; break; }
      case DType::Int8: { int8_t v; std::memcpy(&v, bytes + i, 1); values[i] = v; break; }
      case DType::UInt8:
      case DType::Bool: values[i] = static_cast<int64_t>(std::to_integer<uint8_t>(bytes[i])); break;
      default: values[i] = static_cast<int64_t>(data.elementAsDouble(static_cast<int64_t>(i))); break;
    }
  }
  return values;
}

TensorData intsToTensor(const std::vector<int64_t>& values, Shape shape) {
  std::vector<std::byte> bytes(values.size() * 8);
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return TensorData(DType::Int64, std::move(shape), std::make_shared<const std::vector<std::byte>>(std::move(bytes)));
}

Result<OnnxValue> OnnxNodeContext::input(std::size_t index) const {
  if (!hasInput(index)) return makeError("missing " + describeInput(index, node));
  return *inputs_[index];
}

Result<TensorData> OnnxNodeContext::constantInput(std::size_t index) const {
  BYOC_ASSIGN_OR_RETURN(OnnxValue value, input(index));
  const TensorData* data = value.constant();
  if (!data) return makeError(describeInput(index, node) + " must be a constant (an initializer or a value computable at import)");
  return *data;
}

Result<std::vector<int64_t>> OnnxNodeContext::constantInts(std::size_t index) const {
  BYOC_ASSIGN_OR_RETURN(TensorData data, constantInput(index));
  if (isFloat(data.dtype()))
    return makeError(describeInput(index, node) + " must hold integers, found " + std::string(dtypeName(data.dtype())));
  return tensorToInts(data);
}

Result<std::vector<double>> OnnxNodeContext::constantFloats(std::size_t index) const {
  BYOC_ASSIGN_OR_RETURN(TensorData data, constantInput(index));
  std::vector<double> values(static_cast<std::size_t>(data.numElements()));
  for (std::size_t i = 0; i < values.size(); ++i) {
    double value = data.elementAsDouble(static_cast<int64_t>(i));
    values[i] = data.dtype() == DType::Float32 ? widenFloat(static_cast<float>(value)) : value;
  }
  return values;
}

Result<OnnxValue> OnnxNodeContext::call(std::string_view op, std::vector<OnnxValue> args, const Attrs& attrs) const {
  std::vector<Expr> exprs;
  std::vector<Type> types;
  for (OnnxValue& arg : args) {
    exprs.push_back(arg.expr);
    types.push_back(arg.type);
  }
  BYOC_ASSIGN_OR_RETURN(Call call, makeOpCall(op, std::move(exprs), attrs, newOrigin()));
  BYOC_ASSIGN_OR_RETURN(Type type, call->opDef()->relation(TypeRelationInput{types, call->attrs}));
  BYOC_TRY(checkResultType(op, type));
  return OnnxValue{call, type};
}

OnnxValue OnnxNodeContext::constant(TensorData data, std::string name) const {
  Type type = tensorType(data.shape(), data.dtype());
  return OnnxValue{ConstantNode::make(std::move(data), newOrigin(), std::move(name)), type};
}

OnnxValue OnnxNodeContext::tuple(std::vector<OnnxValue> fields) const {
  std::vector<Expr> exprs;
  std::vector<Type> types;
  for (OnnxValue& field : fields) {
    exprs.push_back(field.expr);
    types.push_back(field.type);
  }
  return OnnxValue{TupleNode::make(std::move(exprs), newOrigin()), tupleType(std::move(types))};
}

Result<OnnxValue> OnnxNodeContext::getItem(const OnnxValue& tuple, int index) const {
  const auto* fields = tuple.type ? tuple.type->as<TupleTypeNode>() : nullptr;
  if (!fields || index < 0 || static_cast<std::size_t>(index) >= fields->fields.size())
    return makeError("no field " + std::to_string(index) + " in a value of type " + typeToString(tuple.type));
  return OnnxValue{TupleGetItemNode::make(tuple.expr, index, newOrigin()), fields->fields[static_cast<std::size_t>(index)]};
}

}  // namespace byoc::onnx_import
