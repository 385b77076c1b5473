/// \file
/// The 1-D and 3-D convolutions and window pools: nn.conv1d, nn.conv3d, nn.conv3d_transpose,
/// nn.max_pool1d, nn.avg_pool1d, nn.max_pool3d and nn.avg_pool3d, with TVM's attributes, in the canonical layouts NCW / OIW and
/// NCDHW / OIDHW (IODHW for the transposed convolution), the layouts ONNX models use.

#include "ir/ops/op_helpers.h"

namespace byoc::ops {

namespace {

/// One op of the family: its spatial rank and canonical layouts.
struct SpatialOp {
  std::string name;
  std::size_t dims;
  std::string dataLayout;
  std::string kernelLayout;  ///< empty for pools
};

Status checkLayout(const SpatialOp& op, const Attrs& attrs, const char* name, const std::string& expected) {
  std::string layout = stringAttr(attrs, name);
  if (layout != expected)
    return makeError(op.name + ": unsupported " + std::string(name) + " \"" + layout + "\"; expected " + expected);
  return Status::ok();
}

Result<const TensorTypeNode*> spatialArg(const SpatialOp& op, const TypeRelationInput& input, std::size_t index,
                                         const char* role, const std::string& layout) {
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* arg, tensorArg(op.name, input, index));
  if (arg->shape.size() != op.dims + 2)
    return makeError(op.name + ": " + role + " must have rank " + std::to_string(op.dims + 2) + " (" + layout +
                     "), found " + shapeText(arg->shape));
  return arg;
}

/// The window attributes of a call, each checked for its length and sign.
struct SpatialWindow {
  std::vector<int64_t> kernel, strides, dilation, padding;  ///< padding: begins then ends
};

Result<SpatialWindow> readWindow(const SpatialOp& op, const Attrs& attrs, std::vector<int64_t> kernel) {
  SpatialWindow w{std::move(kernel), {}, {}, {}};
  BYOC_ASSIGN_OR_RETURN(w.strides, intsAttr(op.name, attrs, "strides"));
  BYOC_ASSIGN_OR_RETURN(w.dilation, intsAttr(op.name, attrs, "dilation"));
  BYOC_ASSIGN_OR_RETURN(w.padding, intsAttr(op.name, attrs, "padding"));
  for (std::size_t i = 0; i < op.dims; ++i) {
    if (w.kernel[i] < 1 || w.strides[i] < 1 || w.dilation[i] < 1)
      return makeError(op.name + ": the window, strides and dilation must be positive");
    if (w.padding[i] < 0 || w.padding[i + op.dims] < 0) return makeError(op.name + ": padding must not be negative");
  }
  return w;
}

/// The output size along spatial axis `i` of a window sliding over `in` elements.
Result<int64_t> slidingSize(const SpatialOp& op, const SpatialWindow& w, std::size_t i, int64_t in, bool ceilMode) {
  std::optional<int64_t> padded = (CheckedSize(in) + w.padding[i] + w.padding[i + op.dims]).value();
  std::optional<int64_t> effective = ((CheckedSize(w.kernel[i]) - 1) * w.dilation[i] + 1).value();
  if (!padded || !effective) return makeError(op.name + ": the padded input or the dilated window overflows");
  if (*padded < *effective)
    return makeError(op.name + ": the window " + shapeText(w.kernel) + " is larger than the padded input along spatial axis " +
                     std::to_string(i));
  CheckedSize span = CheckedSize(*padded) - *effective;
  std::optional<int64_t> size = ((ceilMode ? (span + w.strides[i] - 1) / w.strides[i] : span / w.strides[i]) + 1).value();
  if (!size) return makeError(op.name + ": the output size overflows");
  return *size;
}

/// Checks the optional `channels` and `kernel_size` attributes against the weight.
Status checkDeclared(const SpatialOp& op, const Attrs& attrs, int64_t outChannels, const std::vector<int64_t>& kernel) {
  const AttrValue* channels = attrs.find("channels");
  if (channels && channels->isInt() && channels->asInt() != outChannels)
    return makeError(op.name + ": channels=" + std::to_string(channels->asInt()) + " but the weight has " +
                     std::to_string(outChannels) + " output channels");
  const AttrValue* declared = attrs.find("kernel_size");
  if (declared && declared->isList() && declared->asInts() != kernel)
    return makeError(op.name + ": kernel_size " + declared->str() + " does not match the weight's kernel " +
                     shapeText(kernel));
  return Status::ok();
}

Type convOutput(const Attrs& attrs, const TensorTypeNode& data, Shape shape) {
  auto outDType = parseDType(stringAttr(attrs, "out_dtype"));
  return tensorType(std::move(shape), outDType ? *outDType : data.dtype);
}

TypeRelation convRelation(SpatialOp op, bool transposed) {
  return [op, transposed](const TypeRelationInput& input) -> Result<Type> {
    BYOC_TRY(checkLayout(op, input.attrs, "data_layout", op.dataLayout));
    BYOC_TRY(checkLayout(op, input.attrs, "kernel_layout", op.kernelLayout));
    BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, spatialArg(op, input, 0, "data", op.dataLayout));
    BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* weight, spatialArg(op, input, 1, "weight", op.kernelLayout));
    BYOC_ASSIGN_OR_RETURN(int64_t groups, intAttr(op.name, input.attrs, "groups"));
    if (groups < 1) return makeError(op.name + ": groups must be at least 1");
    const Shape& x = data->shape;
    const Shape& w = weight->shape;
    std::vector<int64_t> kernel(w.begin() + 2, w.end());
    BYOC_ASSIGN_OR_RETURN(SpatialWindow window, readWindow(op, input.attrs, kernel));
    // OI… for a convolution; IO… for a transposed one, whose output channels are per group.
    const int64_t weightIn = transposed ? w[0] : w[1];
    std::optional<int64_t> outChannels = transposed ? (CheckedSize(w[1]) * groups).value() : w[0];
    if (!outChannels) return makeError(op.name + ": output channels x groups overflows");
    const int64_t expectedIn = transposed ? weightIn : weightIn * groups;
    if (x[1] != expectedIn)
      return makeError(op.name + ": input channels " + std::to_string(x[1]) + " do not match weight input channels " +
                       std::to_string(weightIn) + (transposed ? "" : " x groups " + std::to_string(groups)));
    if (!transposed && *outChannels % groups != 0)
      return makeError(op.name + ": output channels " + std::to_string(*outChannels) + " are not divisible by groups " +
                       std::to_string(groups));
    BYOC_TRY(checkDeclared(op, input.attrs, *outChannels, kernel));
    Shape shape{x[0], *outChannels};
    if (!transposed) {
      for (std::size_t i = 0; i < op.dims; ++i) {
        BYOC_ASSIGN_OR_RETURN(int64_t size, slidingSize(op, window, i, x[2 + i], false));
        shape.push_back(size);
      }
      return convOutput(input.attrs, *data, std::move(shape));
    }
    BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> outputPadding, intsAttr(op.name, input.attrs, "output_padding"));
    for (std::size_t i = 0; i < op.dims; ++i) {
      std::optional<int64_t> size = ((CheckedSize(x[2 + i]) - 1) * window.strides[i] - window.padding[i] -
                                     window.padding[i + op.dims] + CheckedSize(window.dilation[i]) * (kernel[i] - 1) +
                                     outputPadding[i] + 1)
                                        .value();
      if (!size) return makeError(op.name + ": the output size overflows");
      if (*size < 1) return makeError(op.name + ": the padding leaves an empty output");
      shape.push_back(*size);
    }
    return convOutput(input.attrs, *data, std::move(shape));
  };
}

TypeRelation poolRelation(SpatialOp op) {
  return [op](const TypeRelationInput& input) -> Result<Type> {
    BYOC_TRY(checkLayout(op, input.attrs, "layout", op.dataLayout));
    BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, spatialArg(op, input, 0, "data", op.dataLayout));
    BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> kernel, intsAttr(op.name, input.attrs, "pool_size"));
    BYOC_ASSIGN_OR_RETURN(SpatialWindow window, readWindow(op, input.attrs, std::move(kernel)));
    Shape shape(data->shape.begin(), data->shape.begin() + 2);
    for (std::size_t i = 0; i < op.dims; ++i) {
      BYOC_ASSIGN_OR_RETURN(int64_t size, slidingSize(op, window, i, data->shape[2 + i], boolAttr(input.attrs, "ceil_mode")));
      shape.push_back(size);
    }
    return tensorType(std::move(shape), data->dtype);
  };
}

/// Brings every list attribute to its full length: `dims` values, padding twice as many.
AttrNormalizer spatialNormalizer(SpatialOp op) {
  return [op](Attrs attrs) -> Result<Attrs> {
    for (const char* name : {"strides", "dilation", "output_padding", "pool_size"}) {
      BYOC_ASSIGN_OR_RETURN(attrs, expandListAttr(op.name, std::move(attrs), name, op.dims));
    }
    BYOC_ASSIGN_OR_RETURN(attrs, expandListAttr(op.name, std::move(attrs), "padding", 2 * op.dims));
    const AttrValue* kernel = attrs.find("kernel_size");
    if (kernel && !kernel->isNone()) {
      BYOC_ASSIGN_OR_RETURN(attrs, expandListAttr(op.name, std::move(attrs), "kernel_size", op.dims));
    }
    return attrs;
  };
}

std::vector<AttrField> convFields(const SpatialOp& op, bool transposed) {
  std::vector<AttrField> fields = {
      {"strides", AttrValue::ints(std::vector<int64_t>(op.dims, 1))},
      {"padding", AttrValue::ints(std::vector<int64_t>(2 * op.dims, 0))},
      {"dilation", AttrValue::ints(std::vector<int64_t>(op.dims, 1))},
      {"groups", 1},
      {"channels", AttrValue()},
      {"kernel_size", AttrValue()},
      {"data_layout", op.dataLayout},
      {"kernel_layout", op.kernelLayout},
      {"out_layout", ""},
      {"out_dtype", ""},
  };
  if (transposed) fields.insert(fields.begin() + 2, {"output_padding", AttrValue::ints(std::vector<int64_t>(op.dims, 0))});
  return fields;
}

std::vector<AttrField> poolFields(const SpatialOp& op, bool average) {
  std::vector<AttrField> fields = {
      tvmRequired("pool_size", AttrValue::ints(std::vector<int64_t>(op.dims, 1))),
      {"strides", AttrValue::ints(std::vector<int64_t>(op.dims, 1))},
      {"dilation", AttrValue::ints(std::vector<int64_t>(op.dims, 1))},
      {"padding", AttrValue::ints(std::vector<int64_t>(2 * op.dims, 0))},
      {"layout", op.dataLayout},
      {"out_layout", ""},
      {"ceil_mode", false},
  };
  if (average) fields.push_back({"count_include_pad", false});
  return fields;
}

/// Adaptive pooling: (N, C, *output_size), each output cell pooling its share of the input.
TypeRelation adaptivePoolRelation(SpatialOp op) {
  return [op](const TypeRelationInput& input) -> Result<Type> {
    BYOC_TRY(checkLayout(op, input.attrs, "layout", op.dataLayout));
    BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, spatialArg(op, input, 0, "data", op.dataLayout));
    BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> size, intsAttr(op.name, input.attrs, "output_size"));
    Shape shape(data->shape.begin(), data->shape.begin() + 2);
    for (int64_t dim : size) {
      if (dim < 1) return makeError(op.name + ": output_size must be positive, found " + AttrValue::ints(size).str());
      shape.push_back(dim);
    }
    return tensorType(std::move(shape), data->dtype);
  };
}

void declareAdaptivePool(OpRegistry& registry, const SpatialOp& op, std::string summary) {
  declare(registry, op.name, std::move(summary), {"data"},
          // TVM defaults output_size to [] (the input size), so the text always states ours.
          {tvmRequired("output_size", AttrValue::ints(std::vector<int64_t>(op.dims, 1))), {"layout", op.dataLayout}, {"out_layout", ""}},
          FusionKind::OutElementwiseFusable, adaptivePoolRelation(op), [op](Attrs attrs) {
            return expandListAttr(op.name, std::move(attrs), "output_size", op.dims);
          });
}

void declareConv(OpRegistry& registry, const SpatialOp& op, std::string summary, bool transposed) {
  declare(registry, op.name, std::move(summary), {"data", "weight"}, convFields(op, transposed),
          FusionKind::OutElementwiseFusable, convRelation(op, transposed), spatialNormalizer(op));
}

void declarePool(OpRegistry& registry, const SpatialOp& op, std::string summary, bool average) {
  declare(registry, op.name, std::move(summary), {"data"}, poolFields(op, average), FusionKind::OutElementwiseFusable,
          poolRelation(op), spatialNormalizer(op));
}

}  // namespace

void registerSpatialNdOps(OpRegistry& registry) {
  declareConv(registry, {"nn.conv1d", 1, "NCW", "OIW"}, "1-D convolution (grouped, dilated, strided, padded)", false);
  declareConv(registry, {"nn.conv3d", 3, "NCDHW", "OIDHW"}, "3-D convolution (grouped, dilated, strided, padded)", false);
  declareConv(registry, {"nn.conv3d_transpose", 3, "NCDHW", "IODHW"}, "3-D transposed convolution (deconvolution)", true);
  declareConv(registry, {"nn.conv1d_transpose", 1, "NCW", "IOW"}, "1-D transposed convolution (deconvolution)", true);
  declarePool(registry, {"nn.max_pool1d", 1, "NCW", ""}, "1-D max pooling", false);
  declarePool(registry, {"nn.avg_pool1d", 1, "NCW", ""}, "1-D average pooling", true);
  declarePool(registry, {"nn.max_pool3d", 3, "NCDHW", ""}, "3-D max pooling", false);
  declarePool(registry, {"nn.avg_pool3d", 3, "NCDHW", ""}, "3-D average pooling", true);
  // What TVM's global_avg_pool1d/3d and global_max_pool1d/3d build (output_size all 1).
  declareAdaptivePool(registry, {"nn.adaptive_avg_pool1d", 1, "NCW", ""}, "1-D average pooling to a fixed output size");
  declareAdaptivePool(registry, {"nn.adaptive_avg_pool3d", 3, "NCDHW", ""}, "3-D average pooling to a fixed output size");
  declareAdaptivePool(registry, {"nn.adaptive_max_pool1d", 1, "NCW", ""}, "1-D max pooling to a fixed output size");
  declareAdaptivePool(registry, {"nn.adaptive_max_pool3d", 3, "NCDHW", ""}, "3-D max pooling to a fixed output size");
}

}  // namespace byoc::ops
