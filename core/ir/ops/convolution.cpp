#include "ir/ops/op_helpers.h"

namespace byoc::ops {

namespace {

/// Positions of N, C, H, W in a data layout, or of O, I, H, W in a kernel layout.
struct Layout2d {
  std::size_t batchOrOut, channelOrIn, height, width;
};

Result<Layout2d> dataLayout(const std::string& op, const std::string& layout) {
  if (layout == "NCHW") return Layout2d{0, 1, 2, 3};
  if (layout == "NHWC") return Layout2d{0, 3, 1, 2};
  return makeError(op + ": unsupported data layout \"" + layout + "\"; expected NCHW or NHWC");
}

Result<Layout2d> kernelLayout(const std::string& op, const std::string& layout) {
  if (layout == "OIHW") return Layout2d{0, 1, 2, 3};
  if (layout == "IOHW") return Layout2d{1, 0, 2, 3};
  if (layout == "HWIO") return Layout2d{3, 2, 0, 1};
  if (layout == "HWOI") return Layout2d{2, 3, 0, 1};
  return makeError(op + ": unsupported kernel layout \"" + layout + "\"; expected OIHW, IOHW, HWIO or HWOI");
}

/// strides and dilation take 2 values, padding 4 (top, left, bottom, right).
AttrNormalizer convNormalizer(std::string op, bool withOutputPadding) {
  return [op, withOutputPadding](Attrs attrs) -> Result<Attrs> {
    BYOC_ASSIGN_OR_RETURN(attrs, expandListAttr(op, std::move(attrs), "strides", 2));
    BYOC_ASSIGN_OR_RETURN(attrs, expandListAttr(op, std::move(attrs), "dilation", 2));
    BYOC_ASSIGN_OR_RETURN(attrs, expandListAttr(op, std::move(attrs), "padding", 4));
    if (withOutputPadding) {
      BYOC_ASSIGN_OR_RETURN(attrs, expandListAttr(op, std::move(attrs), "output_padding", 2));
    }
    const AttrValue* kernel = attrs.find("kernel_size");
    if (kernel && !kernel->isNone()) {
      BYOC_ASSIGN_OR_RETURN(attrs, expandListAttr(op, std::move(attrs), "kernel_size", 2));
    }
    return attrs;
  };
}

std::vector<AttrField> convAttrs(const char* kernelLayoutDefault, bool withOutputPadding) {
  std::vector<AttrField> fields = {
      {"strides", AttrValue::ints({1, 1})},   {"padding", AttrValue::ints({0, 0, 0, 0})},
      {"dilation", AttrValue::ints({1, 1})},  {"groups", 1},
      {"channels", AttrValue()},              {"kernel_size", AttrValue()},
      {"data_layout", "NCHW"},                {"kernel_layout", kernelLayoutDefault},
      {"out_layout", ""},                     {"out_dtype", ""},
  };
  if (withOutputPadding) fields.insert(fields.begin() + 2, {"output_padding", AttrValue::ints({0, 0})});
  return fields;
}

/// Checks the optional `channels` and `kernel_size` attributes against the weight.
Status checkDeclaredSizes(const std::string& op, const Attrs& attrs, int64_t outChannels, int64_t kh, int64_t kw) {
  const AttrValue* channels = attrs.find("channels");
  if (channels && channels->isInt() && channels->asInt() != outChannels)
    return makeError(op + ": channels=" + std::to_string(channels->asInt()) + " but the weight has " +
                     std::to_string(outChannels) + " output channels");
  const AttrValue* kernel = attrs.find("kernel_size");
  if (kernel && kernel->isList()) {
    auto sizes = kernel->asInts();
    if (sizes && (*sizes)[0] != kh) return makeError(op + ": kernel_size does not match the weight's kernel");
    if (sizes && (*sizes)[1] != kw) return makeError(op + ": kernel_size does not match the weight's kernel");
  }
  return Status::ok();
}

Type outputType(const Attrs& attrs, const TensorTypeNode& data, const Layout2d& layout, int64_t channels, int64_t height,
                int64_t width) {
  Shape shape(4);
  shape[layout.batchOrOut] = data.shape[layout.batchOrOut];
  shape[layout.channelOrIn] = channels;
  shape[layout.height] = height;
  shape[layout.width] = width;
  auto outDType = parseDType(stringAttr(attrs, "out_dtype"));
  return tensorType(std::move(shape), outDType ? *outDType : data.dtype);
}

/// Shared argument checks: two 4-d tensors and their layouts.
struct ConvOperands {
  const TensorTypeNode* data;
  const TensorTypeNode* weight;
  Layout2d dataLayout;
  Layout2d kernelLayout;
  std::vector<int64_t> strides, padding, dilation;
  int64_t groups;
};

Result<ConvOperands> convOperands(const std::string& op, const TypeRelationInput& input) {
  ConvOperands operands{};
  BYOC_ASSIGN_OR_RETURN(operands.data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(operands.weight, tensorArg(op, input, 1));
  if (operands.data->shape.size() != 4)
    return makeError(op + ": data must have rank 4, found " + shapeText(operands.data->shape));
  if (operands.weight->shape.size() != 4)
    return makeError(op + ": weight must have rank 4, found " + shapeText(operands.weight->shape));
  BYOC_ASSIGN_OR_RETURN(operands.dataLayout, dataLayout(op, stringAttr(input.attrs, "data_layout")));
  BYOC_ASSIGN_OR_RETURN(operands.kernelLayout, kernelLayout(op, stringAttr(input.attrs, "kernel_layout")));
  BYOC_ASSIGN_OR_RETURN(operands.strides, intsAttr(op, input.attrs, "strides"));
  BYOC_ASSIGN_OR_RETURN(operands.padding, intsAttr(op, input.attrs, "padding"));
  BYOC_ASSIGN_OR_RETURN(operands.dilation, intsAttr(op, input.attrs, "dilation"));
  BYOC_ASSIGN_OR_RETURN(operands.groups, intAttr(op, input.attrs, "groups"));
  if (operands.groups < 1) return makeError(op + ": groups must be at least 1");
  for (int64_t s : operands.strides)
    if (s < 1) return makeError(op + ": strides must be positive");
  for (int64_t d : operands.dilation)
    if (d < 1) return makeError(op + ": dilation must be positive");
  return operands;
}

Result<Type> conv2dRelation(const TypeRelationInput& input) {
  const std::string op = "nn.conv2d";
  BYOC_ASSIGN_OR_RETURN(ConvOperands c, convOperands(op, input));
  const Shape& x = c.data->shape;
  const Shape& w = c.weight->shape;
  int64_t inChannels = x[c.dataLayout.channelOrIn];
  int64_t weightIn = w[c.kernelLayout.channelOrIn];
  int64_t outChannels = w[c.kernelLayout.batchOrOut];
  int64_t kh = w[c.kernelLayout.height];
  int64_t kw = w[c.kernelLayout.width];
  if (inChannels != weightIn * c.groups)
    return makeError(op + ": input channels " + std::to_string(inChannels) + " do not match weight input channels " +
                     std::to_string(weightIn) + " x groups " + std::to_string(c.groups));
  if (outChannels % c.groups != 0)
    return makeError(op + ": output channels " + std::to_string(outChannels) + " are not divisible by groups " +
                     std::to_string(c.groups));
  BYOC_TRY(checkDeclaredSizes(op, input.attrs, outChannels, kh, kw));
  std::optional<int64_t> effectiveH = ((CheckedSize(kh) - 1) * c.dilation[0] + 1).value();
  std::optional<int64_t> effectiveW = ((CheckedSize(kw) - 1) * c.dilation[1] + 1).value();
  std::optional<int64_t> paddedH = (CheckedSize(x[c.dataLayout.height]) + c.padding[0] + c.padding[2]).value();
  std::optional<int64_t> paddedW = (CheckedSize(x[c.dataLayout.width]) + c.padding[1] + c.padding[3]).value();
  if (!effectiveH || !effectiveW || !paddedH || !paddedW)
    return makeError(op + ": the padded input or the dilated kernel overflows");
  if (*paddedH < *effectiveH || *paddedW < *effectiveW)
    return makeError(op + ": the kernel " + shapeText({*effectiveH, *effectiveW}) + " is larger than the padded input " +
                     shapeText({*paddedH, *paddedW}));
  std::optional<int64_t> height = ((CheckedSize(*paddedH) - *effectiveH) / c.strides[0] + 1).value();
  std::optional<int64_t> width = ((CheckedSize(*paddedW) - *effectiveW) / c.strides[1] + 1).value();
  if (!height || !width) return makeError(op + ": the output size overflows");
  return outputType(input.attrs, *c.data, c.dataLayout, outChannels, *height, *width);
}

Result<Type> conv2dTransposeRelation(const TypeRelationInput& input) {
  const std::string op = "nn.conv2d_transpose";
  BYOC_ASSIGN_OR_RETURN(ConvOperands c, convOperands(op, input));
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> outputPadding, intsAttr(op, input.attrs, "output_padding"));
  const Shape& x = c.data->shape;
  const Shape& w = c.weight->shape;
  int64_t inChannels = x[c.dataLayout.channelOrIn];
  // For a transposed convolution the "input" axis of the kernel holds the data's channels.
  int64_t weightIn = w[c.kernelLayout.channelOrIn];
  std::optional<int64_t> outChannels = (CheckedSize(w[c.kernelLayout.batchOrOut]) * c.groups).value();
  if (!outChannels) return makeError(op + ": output channels x groups overflows");
  int64_t kh = w[c.kernelLayout.height];
  int64_t kw = w[c.kernelLayout.width];
  if (inChannels != weightIn)
    return makeError(op + ": input channels " + std::to_string(inChannels) + " do not match weight input channels " +
                     std::to_string(weightIn));
  BYOC_TRY(checkDeclaredSizes(op, input.attrs, *outChannels, kh, kw));
  auto outputSize = [&](std::size_t axis, int64_t kernel, std::size_t i) {
    return ((CheckedSize(x[axis]) - 1) * c.strides[i] - c.padding[i] - c.padding[i + 2] +
            CheckedSize(c.dilation[i]) * (CheckedSize(kernel) - 1) + outputPadding[i] + 1)
        .value();
  };
  std::optional<int64_t> height = outputSize(c.dataLayout.height, kh, 0);
  std::optional<int64_t> width = outputSize(c.dataLayout.width, kw, 1);
  if (!height || !width) return makeError(op + ": the output size overflows");
  if (*height < 1 || *width < 1) return makeError(op + ": the padding leaves an empty output");
  return outputType(input.attrs, *c.data, c.dataLayout, *outChannels, *height, *width);
}

}  // namespace

void registerConvolutionOps(OpRegistry& registry) {
  declare(registry, "nn.conv2d", "2-D convolution (grouped, dilated, strided, padded)", {"data", "weight"},
          convAttrs("OIHW", false), FusionKind::OutElementwiseFusable, conv2dRelation, convNormalizer("nn.conv2d", false));
  declare(registry, "nn.conv2d_transpose", "2-D transposed convolution (deconvolution)", {"data", "weight"},
          convAttrs("IOHW", true), FusionKind::OutElementwiseFusable, conv2dTransposeRelation,
          convNormalizer("nn.conv2d_transpose", true));
}

}  // namespace byoc::ops
