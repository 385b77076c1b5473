/// \file
/// Converters of the ONNX detection ops, as TVM's importer writes them: RoiAlign (the batch indices
/// joined to the regions as their first column, for vision.roi_align) and NonMaxSuppression
/// (vision.all_class_non_max_suppression, its filled rows sliced out with dyn.strided_slice).

#include <limits>

#include "frontend/onnx/onnx_converters.h"
#include "ir/ops/op_helpers.h"

namespace byoc::onnx_import {

namespace {

Result<OnnxOutputs> roiAlign(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue x, c.input(0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue rois, c.input(1));
  BYOC_ASSIGN_OR_RETURN(OnnxValue batchIndices, c.input(2));
  // From opset 16 the default is half_pixel, which shifts regions by half a pixel in a way
  // vision.roi_align (and TVM's importer) does not: only output_half_pixel imports.
  BYOC_ASSIGN_OR_RETURN(std::string transform,
                        c.attrs.getString("coordinate_transformation_mode", c.opset >= 16 ? "half_pixel" : "output_half_pixel"));
  if (transform != "output_half_pixel")
    return makeError("coordinate_transformation_mode \"" + transform + "\" is not supported; expected output_half_pixel");
  BYOC_ASSIGN_OR_RETURN(std::string mode, c.attrs.getString("mode", "avg"));
  BYOC_ASSIGN_OR_RETURN(int64_t height, c.attrs.getInt("output_height", 1));
  BYOC_ASSIGN_OR_RETURN(int64_t width, c.attrs.getInt("output_width", 1));
  BYOC_ASSIGN_OR_RETURN(int64_t samplingRatio, c.attrs.getInt("sampling_ratio", 0));
  BYOC_ASSIGN_OR_RETURN(double spatialScale, c.attrs.getFloat("spatial_scale", 1.0f));
  if (!rois.tensor()) return makeError("rois must be a tensor");
  BYOC_ASSIGN_OR_RETURN(OnnxValue column, c.call("expand_dims", {batchIndices}, {{"axis", 1}, {"num_newaxis", 1}}));
  BYOC_ASSIGN_OR_RETURN(column, c.call("cast", {column}, {{"dtype", std::string(dtypeName(rois.tensor()->dtype))}}));
  BYOC_ASSIGN_OR_RETURN(OnnxValue regions, c.call("concatenate", {c.tuple({column, rois})}, {{"axis", 1}}));
  return single(c.call("vision.roi_align", {x, regions},
                       {{"pooled_size", AttrValue::ints({height, width})},
                        {"spatial_scale", spatialScale},
                        {"sample_ratio", samplingRatio},
                        {"mode", mode}}));
}

/// A scalar NMS parameter: input `index` squeezed to rank 0, or `fallback` when absent.
Result<OnnxValue> nmsScalar(const OnnxNodeContext& c, std::size_t index, const char* name, DType dtype,
                            double fallback) {
  if (!c.hasInput(index)) return c.scalar(dtype, fallback);
  BYOC_ASSIGN_OR_RETURN(OnnxValue value, c.input(index));
  if (!value.tensor() || value.tensor()->numElements() != 1 || value.tensor()->dtype != dtype)
    return makeError(std::string(name) + " must be one " + std::string(dtypeName(dtype)) + ", found " +
                     typeToString(value.type));
  if (value.rank() == 0) return value;
  return c.call("reshape", {value}, {{"newshape", AttrValue::ints({})}});
}

/// Center boxes (x_center, y_center, width, height) as the corners (y1, x1, y2, x2), as TVM's
/// importer turns them before its NMS.
Result<OnnxValue> cornerBoxes(const OnnxNodeContext& c, const OnnxValue& boxes) {
  if (!boxes.tensor() || boxes.rank() != 3 || !ops::dimsCompatible(boxes.tensor()->shape[2], 4))
    return makeError("boxes must have shape (batches, boxes, 4), found " + typeToString(boxes.type));
  BYOC_ASSIGN_OR_RETURN(OnnxValue parts, c.call("split", {boxes}, {{"indices_or_sections", 4}, {"axis", 2}}));
  std::vector<OnnxValue> fields;
  for (int i = 0; i < 4; ++i) {
    BYOC_ASSIGN_OR_RETURN(OnnxValue field, c.getItem(parts, i));
    fields.push_back(field);
  }
  const OnnxValue two = c.scalar(boxes.tensor()->dtype, 2.0);
  BYOC_ASSIGN_OR_RETURN(OnnxValue halfWidth, c.call("divide", {fields[2], two}));
  BYOC_ASSIGN_OR_RETURN(OnnxValue halfHeight, c.call("divide", {fields[3], two}));
  BYOC_ASSIGN_OR_RETURN(OnnxValue x1, c.call("subtract", {fields[0], halfWidth}));
  BYOC_ASSIGN_OR_RETURN(OnnxValue x2, c.call("add", {fields[0], halfWidth}));
  BYOC_ASSIGN_OR_RETURN(OnnxValue y1, c.call("subtract", {fields[1], halfHeight}));
  BYOC_ASSIGN_OR_RETURN(OnnxValue y2, c.call("add", {fields[1], halfHeight}));
  return c.call("concatenate", {c.tuple({y1, x1, y2, x2})}, {{"axis", 2}});
}

/// NonMaxSuppression: TVM's all_class_non_max_suppression, whose first `count` rows are the
/// selected (batch, class, box) triples; center boxes become corners first. An absent score_threshold keeps every box (TVM's
/// importer uses 0, which would drop non-positive scores) and an absent max_output_boxes_per_class
/// selects none, as ONNX defines them.
Result<OnnxOutputs> nonMaxSuppression(const OnnxNodeContext& c) {
  BYOC_ASSIGN_OR_RETURN(OnnxValue boxes, c.input(0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue scores, c.input(1));
  BYOC_ASSIGN_OR_RETURN(int64_t centerPointBox, c.attrs.getInt("center_point_box", 0));
  if (centerPointBox != 0 && centerPointBox != 1)
    return makeError("center_point_box is " + std::to_string(centerPointBox) +
                     "; expected 0 (corner boxes) or 1 (center boxes)");
  if (centerPointBox == 1) {
    BYOC_ASSIGN_OR_RETURN(boxes, cornerBoxes(c, boxes));
  }
  if (!boxes.tensor()) return makeError("boxes must be a tensor");
  const DType dtype = boxes.tensor()->dtype;
  BYOC_ASSIGN_OR_RETURN(OnnxValue maxPerClass, nmsScalar(c, 2, "max_output_boxes_per_class", DType::Int64, 0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue iou, nmsScalar(c, 3, "iou_threshold", dtype, 0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue scoreThreshold, nmsScalar(c, 4, "score_threshold", dtype,
                                                            -static_cast<double>(std::numeric_limits<float>::max())));
  BYOC_ASSIGN_OR_RETURN(
      OnnxValue nms, c.call("vision.all_class_non_max_suppression", {boxes, scores, maxPerClass, iou, scoreThreshold}));
  BYOC_ASSIGN_OR_RETURN(OnnxValue rows, c.getItem(nms, 0));
  BYOC_ASSIGN_OR_RETURN(OnnxValue count, c.getItem(nms, 1));
  OnnxValue begin = c.constant(intsToTensor({0}, {1}));
  OnnxValue strides = c.constant(intsToTensor({1}, {1}));
  return single(c.call("dyn.strided_slice", {rows, begin, count, strides}));
}

}  // namespace

void addVisionConverters(OnnxConverterTable& table) {
  table["RoiAlign"] = roiAlign;
  table["NonMaxSuppression"] = nonMaxSuppression;
}

}  // namespace byoc::onnx_import
