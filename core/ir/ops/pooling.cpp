#include "ir/ops/op_helpers.h"

namespace byoc::ops {

namespace {

/// Positions of H and W (and C) in a 4-d pooling layout.
struct PoolLayout {
  std::size_t channel, height, width;
};

Result<PoolLayout> poolLayout(const std::string& op, const std::string& layout) {
  if (layout == "NCHW") return PoolLayout{1, 2, 3};
  if (layout == "NHWC") return PoolLayout{3, 1, 2};
  return makeError(op + ": unsupported layout \"" + layout + "\"; expected NCHW or NHWC");
}

Result<const TensorTypeNode*> data4d(const std::string& op, const TypeRelationInput& input) {
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  if (data->shape.size() != 4) return makeError(op + ": data must have rank 4, found " + shapeText(data->shape));
  return data;
}

TypeRelation windowPoolRelation(std::string op) {
  return [op](const TypeRelationInput& input) -> Result<Type> {
    BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, data4d(op, input));
    BYOC_ASSIGN_OR_RETURN(PoolLayout layout, poolLayout(op, stringAttr(input.attrs, "layout")));
    BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> window, intsAttr(op, input.attrs, "pool_size"));
    BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> strides, intsAttr(op, input.attrs, "strides"));
    BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> dilation, intsAttr(op, input.attrs, "dilation"));
    BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> padding, intsAttr(op, input.attrs, "padding"));
    bool ceilMode = boolAttr(input.attrs, "ceil_mode");
    Shape shape = data->shape;
    std::size_t axes[2] = {layout.height, layout.width};
    for (std::size_t i = 0; i < 2; ++i) {
      if (strides[i] < 1 || window[i] < 1 || dilation[i] < 1)
        return makeError(op + ": pool_size, strides and dilation must be positive");
      std::optional<int64_t> padded = (CheckedSize(data->shape[axes[i]]) + padding[i] + padding[i + 2]).value();
      std::optional<int64_t> effective = ((CheckedSize(window[i]) - 1) * dilation[i] + 1).value();
      if (!padded || !effective) return makeError(op + ": the padded input or the dilated window overflows");
      if (*padded < *effective)
        return makeError(op + ": the window " + shapeText(window) + " is larger than the padded input");
      CheckedSize span = CheckedSize(*padded) - *effective;
      std::optional<int64_t> size = ((ceilMode ? (span + strides[i] - 1) / strides[i] : span / strides[i]) + 1).value();
      if (!size) return makeError(op + ": the output size overflows");
      shape[axes[i]] = *size;
    }
    return tensorType(std::move(shape), data->dtype);
  };
}

TypeRelation globalPoolRelation(std::string op) {
  return [op](const TypeRelationInput& input) -> Result<Type> {
    BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, data4d(op, input));
    BYOC_ASSIGN_OR_RETURN(PoolLayout layout, poolLayout(op, stringAttr(input.attrs, "layout")));
    Shape shape = data->shape;
    shape[layout.height] = 1;
    shape[layout.width] = 1;
    return tensorType(std::move(shape), data->dtype);
  };
}

Result<Type> adaptivePoolRelation(const TypeRelationInput& input) {
  const std::string op = "nn.adaptive_avg_pool2d";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, data4d(op, input));
  BYOC_ASSIGN_OR_RETURN(PoolLayout layout, poolLayout(op, stringAttr(input.attrs, "layout")));
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> size, intsAttr(op, input.attrs, "output_size"));
  Shape shape = data->shape;
  shape[layout.height] = size[0];
  shape[layout.width] = size[1];
  return tensorType(std::move(shape), data->dtype);
}

AttrNormalizer windowNormalizer(std::string op) {
  return [op](Attrs attrs) -> Result<Attrs> {
    BYOC_ASSIGN_OR_RETURN(attrs, expandListAttr(op, std::move(attrs), "pool_size", 2));
    BYOC_ASSIGN_OR_RETURN(attrs, expandListAttr(op, std::move(attrs), "strides", 2));
    BYOC_ASSIGN_OR_RETURN(attrs, expandListAttr(op, std::move(attrs), "dilation", 2));
    return expandListAttr(op, std::move(attrs), "padding", 4);
  };
}

std::vector<AttrField> windowAttrs(bool withCountIncludePad) {
  std::vector<AttrField> fields = {
      tvmRequired("pool_size", AttrValue::ints({1, 1})), {"strides", AttrValue::ints({1, 1})},
      {"dilation", AttrValue::ints({1, 1})},  {"padding", AttrValue::ints({0, 0, 0, 0})},
      {"layout", "NCHW"},                     {"out_layout", ""},
      {"ceil_mode", false},
  };
  if (withCountIncludePad) fields.push_back({"count_include_pad", false});
  return fields;
}

}  // namespace

void registerPoolingOps(OpRegistry& registry) {
  declare(registry, "nn.max_pool2d", "2-D max pooling", {"data"}, windowAttrs(false), FusionKind::OutElementwiseFusable,
          windowPoolRelation("nn.max_pool2d"), windowNormalizer("nn.max_pool2d"));
  declare(registry, "nn.avg_pool2d", "2-D average pooling", {"data"}, windowAttrs(true),
          FusionKind::OutElementwiseFusable, windowPoolRelation("nn.avg_pool2d"), windowNormalizer("nn.avg_pool2d"));
  declare(registry, "nn.global_avg_pool2d", "average over the whole spatial extent", {"data"},
          {{"layout", "NCHW"}, {"out_layout", ""}}, FusionKind::OutElementwiseFusable,
          globalPoolRelation("nn.global_avg_pool2d"));
  declare(registry, "nn.global_max_pool2d", "maximum over the whole spatial extent", {"data"},
          {{"layout", "NCHW"}, {"out_layout", ""}}, FusionKind::OutElementwiseFusable,
          globalPoolRelation("nn.global_max_pool2d"));
  declare(registry, "nn.adaptive_avg_pool2d", "average pooling to a fixed output size", {"data"},
          // TVM's default output_size is the input's size: ours, (1, 1), is always printed.
          {tvmRequired("output_size", AttrValue::ints({1, 1})), {"layout", "NCHW"}, {"out_layout", ""}},
          FusionKind::OutElementwiseFusable, adaptivePoolRelation, [](Attrs attrs) {
            return expandListAttr("nn.adaptive_avg_pool2d", std::move(attrs), "output_size", 2);
          });
}

}  // namespace byoc::ops
