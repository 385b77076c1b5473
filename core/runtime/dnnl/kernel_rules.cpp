#include "runtime/dnnl/kernel_rules.h"

#include <algorithm>
#include <set>

#include "ir/op.h"
#include "runtime/dnnl/ops.h"
#include "runtime/dnnl/qnn_composite.h"

namespace byoc::dnnl_backend {

using kernel_graph::KernelEntry;
using kernel_graph::KernelGraph;
using kernel_graph::KernelNode;
using kernel_graph::TensorSpec;
using kernel_graph::flatSpecs;
using kernel_graph::typeOf;

namespace {

/// The argument types of a call of `op` whose kernel's inputs, tuples flattened, have `types`:
/// concatenate takes one tuple; qnn.concatenate three (tensors, scales, zero points) of equal
/// length and two scalars.
std::vector<Type> callArgs(std::string_view op, std::vector<Type> types) {
  if (op == "concatenate") return {tupleType(std::move(types))};
  if (op != "qnn.concatenate" || types.size() < 5 || (types.size() - 2) % 3 != 0) return types;
  const auto count = static_cast<std::ptrdiff_t>((types.size() - 2) / 3);
  std::vector<Type> args;
  for (std::ptrdiff_t tuple = 0; tuple < 3; ++tuple)
    args.push_back(tupleType(std::vector<Type>(types.begin() + tuple * count, types.begin() + (tuple + 1) * count)));
  args.insert(args.end(), types.end() - 2, types.end());
  return args;
}

std::string specsText(const std::vector<TensorSpec>& specs) {
  std::string text;
  for (const TensorSpec& spec : specs) text += (text.empty() ? "" : ", ") + spec.str();
  return "(" + text + ")";
}

/// Runs `op`'s type relation on `inputs` with `attrs` and compares the result with `outputs`.
Status checkOpTypes(const std::string& op, const std::vector<TensorSpec>& inputs, const Attrs& attrs,
                    const std::vector<TensorSpec>& outputs) {
  const OpDef* def = OpRegistry::global().find(op);
  std::vector<Type> types;
  for (const TensorSpec& input : inputs) types.push_back(typeOf(input));
  const std::vector<Type> args = callArgs(op, std::move(types));
  if (!def->variadic && args.size() != def->inputs.size())
    return makeError(op + " takes " + std::to_string(def->inputs.size()) + " input(s), found " + std::to_string(args.size()));
  Result<Attrs> normalized = normalizeAttrs(*def, attrs);
  if (!normalized) return makeError(op + ": " + normalized.error().message);
  Result<Type> result = def->relation({args, *normalized});
  if (!result) {
    // Relations name their op already; an error that does not is prefixed with it.
    const std::string& message = result.error().message;
    return makeError(message.rfind(op + ": ", 0) == 0 ? message : op + ": " + message);
  }
  BYOC_ASSIGN_OR_RETURN(std::vector<TensorSpec> expected, flatSpecs(*result));
  if (expected != outputs)
    return makeError(op + ": the inputs give " + specsText(expected) + ", the kernel declares " + specsText(outputs));
  return Status::ok();
}

/// The rules of a composite kernel beyond its input count.
Status checkComposite(const CompositeKind& kind, const std::vector<TensorSpec>& inputs, const KernelNode& kernel) {
  const std::string quoted = "composite \"" + kind.name + "\"";
  if (kernel.outputs.size() != 1) return makeError(quoted + " has one output, found " + std::to_string(kernel.outputs.size()));
  const TensorSpec& result = kernel.outputs.front();
  const auto needs = [&](const char* attr) -> Status {
    const AttrValue* value = kernel.attrs.find(attr);
    if (!value || !(value->isFloat() || value->isInt())) return makeError(quoted + " needs the number attribute " + attr);
    return Status::ok();
  };
  switch (kind.family) {
    case CompositeFamily::Anchor: {
      if (kind.has("_clip")) {
        BYOC_TRY(needs("a_min"));
        BYOC_TRY(needs("a_max"));
      }
      const Attrs anchorAttrs = kernel.attrs.without("a_min").without("a_max");
      BYOC_TRY(checkOpTypes(kind.anchorOp, {inputs[0], inputs[1]}, anchorAttrs, {result}));
      if (kind.bias) {
        const int64_t channels = kind.anchorOp == "nn.dense" ? result.shape.back() : result.shape[1];
        int64_t elements = 1;
        for (int64_t dim : inputs[2].shape) elements *= dim;
        if (elements != channels)
          return makeError(quoted + ": the bias has " + std::to_string(elements) + " elements, expected one per output channel (" +
                           std::to_string(channels) + ")");
      }
      if (kind.sum && inputs.back() != result)
        return makeError(quoted + ": the residual is " + inputs.back().str() + ", expected the result's " + result.str());
      return Status::ok();
    }
    case CompositeFamily::ScaleShift:
      if (inputs[0] != result) return makeError(quoted + ": the data must have the result's shape");
      return Status::ok();
    case CompositeFamily::Qnn: return checkQnnComposite(kind, inputs, kernel);
    case CompositeFamily::LayerNorm: BYOC_TRY(needs("epsilon")); [[fallthrough]];
    case CompositeFamily::Gelu:
      if (inputs[0] != result) return makeError(quoted + ": the result must have the data's type, " + inputs[0].str());
      return Status::ok();
  }
  return Status::ok();
}

}  // namespace

std::optional<CompositeKind> compositeKind(std::string_view name) {
  CompositeKind kind;
  kind.name = std::string(name);
  // The kernel is read after the target's prefix: `dnnl.gelu`, or `myaccel.gelu` for a target of
  // its own on this codegen (AnnotateTarget gives a target only the composites named after it).
  const std::size_t dot = name.find('.');
  const std::string_view base = dot == std::string_view::npos ? name : name.substr(dot + 1);
  if (base == "scale_shift" || base == "scale_shift_relu") {
    kind.family = CompositeFamily::ScaleShift;
    kind.roles = {"data", "scale", "shift"};
    return kind;
  }
  if (base == "qnn.conv2d" || base == "qnn.dense" || base == "qnn.conv2d_sum" || base == "qnn.dense_sum") {
    kind.family = CompositeFamily::Qnn;
    kind.anchorOp = kind.has("conv2d") ? "qnn.conv2d" : "qnn.dense";
    kind.sum = kind.has("_sum");
    kind.roles = {"data", "weight", "bias", "output_scale"};
    if (kind.sum) kind.roles.push_back("residual");
    return kind;
  }
  if (base == "gelu" || base == "layer_norm") {
    kind.family = base == "gelu" ? CompositeFamily::Gelu : CompositeFamily::LayerNorm;
    kind.roles = {"data"};
    return kind;
  }
  // The anchor named in the composite's name, as TVM's DNNL runtime reads it (deconv before conv).
  for (const auto& [part, op] : {std::pair{"deconv2d", "nn.conv2d_transpose"}, {"deconv3d", "nn.conv3d_transpose"},
                                 {"conv1d", "nn.conv1d"}, {"conv2d", "nn.conv2d"}, {"conv3d", "nn.conv3d"}, {"dense", "nn.dense"}})
    if (kind.anchorOp.empty() && kind.has(part)) kind.anchorOp = op;
  if (kind.anchorOp.empty()) return std::nullopt;
  kind.bias = kind.has("_bias");
  kind.sum = kind.has("_sum");
  kind.roles = {"data", "weight"};
  if (kind.bias) kind.roles.push_back("bias");
  if (kind.sum) kind.roles.push_back("residual");
  return kind;
}

std::vector<std::string> compositeKernelNames() {
  std::vector<std::string> names;
  for (const char* anchor : {"conv2d", "dense", "deconv2d", "conv1d", "conv3d", "deconv3d"})
    for (const char* bias : {"", "_bias"})
      for (const char* sum : {"", "_sum"})
        for (const char* post : {"", "_relu", "_tanh", "_clip", "_sigmoid", "_swish", "_gelu", "_mish"})
          names.push_back(std::string(anchor) + bias + sum + post);
  for (const char* other : {"scale_shift", "scale_shift_relu", "gelu", "layer_norm", "qnn.conv2d", "qnn.dense", "qnn.conv2d_sum",
                            "qnn.dense_sum"})
    names.emplace_back(other);
  return names;
}

Status checkKernelName(const std::string& name) {
  if (const OpDef* op = OpRegistry::global().find(name))
    return isLoweredOp(*op) ? Status::ok() : Status(makeError("unsupported op " + name));
  if (!compositeKind(name)) return makeError("unknown kernel \"" + name + "\"");
  return Status::ok();
}

Result<Attrs> normalizeKernelAttrs(const std::string& name, const Attrs& attrs) {
  if (const OpDef* def = OpRegistry::global().find(name)) return normalizeAttrs(*def, attrs);
  const std::optional<CompositeKind> kind = compositeKind(name);
  if (!kind || (kind->family != CompositeFamily::Anchor && kind->family != CompositeFamily::Qnn)) return attrs;
  Attrs fixed, anchor;
  for (const auto& [attr, value] : attrs.entries())
    (attr == "a_min" || attr == "a_max" || isQnnCompositeAttr(attr) ? fixed : anchor).set(attr, value);
  BYOC_ASSIGN_OR_RETURN(Attrs normalized, normalizeAttrs(*OpRegistry::global().find(kind->anchorOp), anchor));
  for (const auto& [attr, value] : fixed.entries()) normalized.set(attr, value);
  return normalized;
}

namespace {

/// Whether `op` is one of the kernels that take int8 or uint8 values: the data movement and max
/// pooling that move them, and the qnn ops that make (qnn.quantize), read (qnn.dequantize) and add
/// them, with float32 scales and int32 zero points.
bool isIntegerKernel(std::string_view op, const std::vector<TensorSpec>& inputs) {
  auto int8 = [](const TensorSpec& spec) { return spec.dtype == DType::Int8 || spec.dtype == DType::UInt8; };
  // Scales and zero points from input `from` on, in pairs.
  auto parameters = [&](std::size_t from) {
    for (std::size_t i = from; i + 1 < inputs.size(); i += 2)
      if (inputs[i].dtype != DType::Float32 || inputs[i + 1].dtype != DType::Int32) return false;
    return (inputs.size() - from) % 2 == 0;
  };
  static const std::set<std::string_view, std::less<>> moving = {
      "nn.max_pool2d", "nn.pad", "reshape", "squeeze", "expand_dims", "nn.batch_flatten", "transpose", "strided_slice",
      "concatenate"};
  if (moving.count(op)) return !inputs.empty() && std::all_of(inputs.begin(), inputs.end(), int8);
  if (op == "qnn.quantize") return inputs.size() == 3 && inputs[0].dtype == DType::Float32 && parameters(1);
  if (op == "qnn.dequantize") return inputs.size() == 3 && int8(inputs[0]) && parameters(1);
  if (op == "qnn.add" || op == "qnn.subtract") return inputs.size() == 8 && int8(inputs[0]) && int8(inputs[1]) && parameters(2);
  if (op == "qnn.concatenate") {
    // The tensors, their scales, their zero points, the output's scale and zero point.
    const std::size_t count = inputs.size() >= 5 ? (inputs.size() - 2) / 3 : 0;
    if (count == 0 || inputs.size() != 3 * count + 2) return false;
    for (std::size_t i = 0; i < count; ++i)
      if (!int8(inputs[i]) || inputs[count + i].dtype != DType::Float32 || inputs[2 * count + i].dtype != DType::Int32)
        return false;
    return parameters(3 * count);
  }
  return false;
}

}  // namespace

Status checkKernel(const KernelGraph& graph, const KernelNode& kernel) {
  std::vector<TensorSpec> inputs;
  for (const KernelEntry& entry : kernel.inputs) inputs.push_back(graph.spec(entry));
  const std::optional<CompositeKind> quantized = compositeKind(kernel.name);
  // The qnn composites check their own dtypes.
  if ((!quantized || quantized->family != CompositeFamily::Qnn) && !isIntegerKernel(kernel.name, inputs))
    for (const TensorSpec& input : inputs)
      if (input.dtype != DType::Float32)
        return makeError(kernel.name + ": only float32 is supported, found " + std::string(dtypeName(input.dtype)));
  BYOC_TRY(checkKernelName(kernel.name));
  if (OpRegistry::global().find(kernel.name)) return checkOpTypes(kernel.name, inputs, kernel.attrs, kernel.outputs);
  const std::optional<CompositeKind> kind = compositeKind(kernel.name);
  if (inputs.size() != kind->roles.size()) {
    std::string roles;
    for (const std::string& role : kind->roles) roles += (roles.empty() ? "" : ", ") + role;
    return makeError("composite \"" + kernel.name + "\" takes " + std::to_string(kind->roles.size()) + " input(s) (" + roles +
                     "), found " + std::to_string(inputs.size()));
  }
  return checkComposite(*kind, inputs, kernel);
}

kernel_graph::KernelRules kernelRules() { return {checkKernelName, normalizeKernelAttrs, checkKernel}; }

}  // namespace byoc::dnnl_backend
