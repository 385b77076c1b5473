#include "ir/ops/op_helpers.h"

namespace byoc::ops {

namespace {

Result<Type> resize2dRelation(const TypeRelationInput& input) {
  const std::string op = "image.resize2d";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  if (data->shape.size() != 4) return makeError(op + ": data must have rank 4, found " + shapeText(data->shape));
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> size, intsAttr(op, input.attrs, "size"));
  if (size.size() != 2) return makeError(op + ": size must be [height, width]");
  std::string layout = stringAttr(input.attrs, "layout");
  if (layout != "NCHW" && layout != "NHWC")
    return makeError(op + ": unsupported layout \"" + layout + "\"; expected NCHW or NHWC");
  std::string method = stringAttr(input.attrs, "method");
  if (method != "nearest_neighbor" && method != "linear" && method != "cubic")
    return makeError(op + ": unknown method \"" + method + "\"; expected nearest_neighbor, linear or cubic");
  Shape out = data->shape;
  std::size_t h = layout == "NCHW" ? 2 : 1;
  out[h] = size[0];
  out[h + 1] = size[1];
  auto outDType = parseDType(stringAttr(input.attrs, "out_dtype"));
  return tensorType(std::move(out), outDType ? *outDType : data->dtype);
}

}  // namespace

void registerImageOps(OpRegistry& registry) {
  declare(registry, "image.resize2d", "resizes the spatial axes by interpolation", {"data"},
          {{"size", AttrValue::ints({})},
           {"roi", AttrValue(AttrValue::List{0.0, 0.0, 0.0, 0.0})},
           {"layout", "NCHW"},
           {"method", "linear"},
           {"coordinate_transformation_mode", "half_pixel"},
           tvmRequired("rounding_method", ""),  // TVM's default is "round"
           {"cubic_alpha", -0.5},
           {"cubic_exclude", 0},
           {"extrapolation_value", 0.0},
           {"out_dtype", ""}},
          FusionKind::Injective, resize2dRelation);
}

}  // namespace byoc::ops
