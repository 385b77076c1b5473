/// \file
/// Detection ops, with TVM's attributes: vision.roi_align.

#include <cmath>

#include "ir/ops/op_helpers.h"

namespace byoc::ops {

namespace {

/// TVM's ROIAlignRel: NCHW data and (num_roi, 5) rois [batch index, x1, y1, x2, y2] give
/// (num_roi, C, pooled height, pooled width).
Result<Type> roiAlignRelation(const TypeRelationInput& input) {
  const std::string op = "vision.roi_align";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* rois, tensorArg(op, input, 1));
  if (stringAttr(input.attrs, "layout") != "NCHW")
    return makeError(op + ": layout \"" + stringAttr(input.attrs, "layout") + "\" is not supported; expected NCHW");
  const std::string mode = stringAttr(input.attrs, "mode");
  if (mode != "avg" && mode != "max") return makeError(op + ": mode \"" + mode + "\"; expected avg or max");
  if (data->shape.size() != 4) return makeError(op + ": data must have rank 4 (NCHW), found " + shapeText(data->shape));
  if (!isFloat(data->dtype)) return makeError(op + ": data must be floating-point, found " + std::string(dtypeName(data->dtype)));
  if (rois->shape.size() != 2 || rois->shape[1] != 5)
    return makeError(op + ": rois must have shape (num_roi, 5), found " + shapeText(rois->shape));
  if (rois->dtype != data->dtype)
    return makeError(op + ": rois " + std::string(dtypeName(rois->dtype)) + " differ in dtype from data " +
                     std::string(dtypeName(data->dtype)));
  BYOC_ASSIGN_OR_RETURN(double scale, floatAttr(op, input.attrs, "spatial_scale"));
  if (!(scale > 0) || !std::isfinite(scale))
    return makeError(op + ": spatial_scale " + input.attrs.find("spatial_scale")->str() + "; expected a finite positive number");
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> pooled, intsAttr(op, input.attrs, "pooled_size"));
  if (pooled.size() == 1) pooled.push_back(pooled[0]);
  if (pooled.size() != 2 || pooled[0] < 1 || pooled[1] < 1)
    return makeError(op + ": pooled_size " + AttrValue::ints(pooled).str() + "; expected one or two positive sizes");
  return tensorType({rois->shape[0], data->shape[1], pooled[0], pooled[1]}, data->dtype);
}

}  // namespace

void registerVisionOps(OpRegistry& registry) {
  declare(registry, "vision.roi_align", "bilinear average (or max) pooling of each region of interest to a fixed size",
          {"data", "rois"},
          {tvmRequired("pooled_size", AttrValue::ints({})), tvmRequired("spatial_scale", 1.0), {"sample_ratio", -1},
           {"layout", "NCHW"}, {"mode", "avg"}},
          FusionKind::OutElementwiseFusable, roiAlignRelation);
}

}  // namespace byoc::ops
