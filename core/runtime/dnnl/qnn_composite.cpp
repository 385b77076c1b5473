#include "runtime/dnnl/qnn_composite.h"

#include "ir/op.h"

namespace byoc::dnnl_backend {

using kernel_graph::KernelNode;
using kernel_graph::TensorSpec;
using kernel_graph::typeOf;

namespace {

int64_t elements(const Shape& shape) {
  int64_t count = 1;
  for (int64_t dim : shape) count *= dim;
  return count;
}

}  // namespace

bool isQnnCompositeAttr(std::string_view attr) {
  return attr == "activation_scale" || attr == "output_zero_point" || attr == "sum_scale" || attr == "round_clipped";
}

Status checkQnnComposite(const CompositeKind& kind, const std::vector<TensorSpec>& inputs, const KernelNode& kernel) {
  const std::string quoted = "composite \"" + kind.name + "\"";
  const TensorSpec& data = inputs[0];
  const TensorSpec& weight = inputs[1];
  if (data.dtype != DType::Int8 && data.dtype != DType::UInt8)
    return makeError(quoted + ": the data must be int8 or uint8, found " + data.str());
  if (weight.dtype != DType::Int8) return makeError(quoted + ": the weight must be int8, found " + weight.str());
  if (kernel.outputs.size() != 1) return makeError(quoted + " has one output, found " + std::to_string(kernel.outputs.size()));
  const TensorSpec& result = kernel.outputs[0];
  if (result.dtype != DType::Int8 && result.dtype != DType::UInt8 && result.dtype != DType::Float32)
    return makeError(quoted + ": the result must be int8, uint8 or float32, found " + result.str());
  for (const char* attr : {"a_min", "a_max", "activation_scale", "output_zero_point"}) {
    const AttrValue* value = kernel.attrs.find(attr);
    if (!value || !(value->isFloat() || value->isInt())) return makeError(quoted + " needs the number attribute " + attr);
  }
  if (const AttrValue* rounded = kernel.attrs.find("round_clipped"); rounded && !rounded->isBool())
    return makeError(quoted + ": the attribute round_clipped must be a boolean, found " + rounded->str());
  // The product's own relation gives the result's shape.
  const OpDef& product = *OpRegistry::global().find(kind.anchorOp);
  const std::vector<Type> args = {typeOf(data), typeOf(weight), tensorType({}, DType::Int32), tensorType({}, DType::Int32),
                                  tensorType({}, DType::Float32), tensorType({}, DType::Float32)};
  if (kind.sum) {
    const AttrValue* value = kernel.attrs.find("sum_scale");
    if (!value || !(value->isFloat() || value->isInt())) return makeError(quoted + " needs the number attribute sum_scale");
    if (inputs[4].dtype != result.dtype || inputs[4].shape != result.shape)
      return makeError(quoted + ": the residual must have the result's type " + result.str() + ", found " + inputs[4].str());
  }
  Attrs productAttrs = kernel.attrs.without("a_min").without("a_max");
  for (const auto& [attr, value] : kernel.attrs.entries())
    if (isQnnCompositeAttr(attr)) productAttrs = productAttrs.without(attr);
  Result<Attrs> attrs = normalizeAttrs(product, productAttrs);
  if (!attrs) return makeError(quoted + ": " + attrs.error().message);
  Result<Type> type = product.relation({args, *attrs});
  if (!type) return makeError(quoted + ": " + type.error().message);
  const Shape& shape = type.value()->as<TensorTypeNode>()->shape;
  if (shape != result.shape) return makeError(quoted + ": the inputs give shape " + TensorSpec{result.dtype, shape}.str() +
                                              ", the kernel declares " + result.str());
  const int64_t channels = kind.anchorOp == "qnn.dense" ? shape.back() : shape[1];
  for (std::size_t role = 2; role < 4; ++role) {
    const int64_t count = elements(inputs[role].shape);
    if (inputs[role].dtype != DType::Float32 || (count != channels && !(role == 3 && count == 1)))
      return makeError(quoted + ": the " + kind.roles[role] + " must be float32 with one value per output channel (" +
                       std::to_string(channels) + "), found " + inputs[role].str());
  }
  return Status::ok();
}

}  // namespace byoc::dnnl_backend
