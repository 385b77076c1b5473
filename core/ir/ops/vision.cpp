/// \file
/// Detection ops, with TVM's attributes: vision.roi_align and vision.all_class_non_max_suppression.

#include <cmath>

#include "ir/ops/op_helpers.h"
#include "support/limits.h"

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

/// A scalar or one-element tensor argument of NMS.
Status checkNmsScalar(const std::string& op, const TypeRelationInput& input, std::size_t index, const char* name,
                      bool integer) {
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* value, tensorArg(op, input, index));
  if (value->shape.size() > 1 || (value->shape.size() == 1 && value->shape[0] != 1) ||
      isInteger(value->dtype) != integer)
    return makeError(op + ": " + name + " must be " + (integer ? "an integer" : "a floating-point") +
                     " scalar or tensor of one element, found " + typeToString(input.args[index]));
  return Status::ok();
}

/// TVM's AllClassNMSRel (output_format "onnx"): boxes (batches, boxes, 4) and scores (batches,
/// classes, boxes) give the selected (batch, class, box) rows, as many as could be selected at
/// most, and the number of rows that are filled.
Result<Type> allClassNmsRelation(const TypeRelationInput& input) {
  const std::string op = "vision.all_class_non_max_suppression";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* boxes, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* scores, tensorArg(op, input, 1));
  if (stringAttr(input.attrs, "output_format") != "onnx")
    return makeError(op + ": output_format \"" + stringAttr(input.attrs, "output_format") +
                     "\" is not supported; expected onnx");
  if (boxes->shape.size() != 3 || !dimsCompatible(boxes->shape[2], 4) || !isFloat(boxes->dtype))
    return makeError(op + ": boxes must be floating-point of shape (batches, boxes, 4), found " +
                     typeToString(input.args[0]));
  if (scores->shape.size() != 3 || scores->dtype != boxes->dtype ||
      !dimsCompatible(scores->shape[0], boxes->shape[0]) || !dimsCompatible(scores->shape[2], boxes->shape[1]))
    return makeError(op + ": scores must be " + std::string(dtypeName(boxes->dtype)) +
                     " of shape (batches, classes, boxes) for boxes " + shapeText(boxes->shape) + ", found " +
                     typeToString(input.args[1]));
  BYOC_TRY(checkNmsScalar(op, input, 2, "max_output_boxes_per_class", true));
  BYOC_TRY(checkNmsScalar(op, input, 3, "iou_threshold", false));
  BYOC_TRY(checkNmsScalar(op, input, 4, "score_threshold", false));
  Shape rows{unifyDims(scores->shape[0], boxes->shape[0]), scores->shape[1],
             unifyDims(scores->shape[2], boxes->shape[1])};
  int64_t total = kAnyDim;
  if (isStaticShape(rows)) {
    std::optional<int64_t> product = checkedProduct(rows, 0, rows.size());
    if (!product || *product > limits::kMaxElements / 3)
      return makeError(op + ": " + shapeText(rows) + " batches, classes and boxes are too many rows for one tensor");
    total = *product;
  }
  return tupleType({tensorType({total, 3}, DType::Int64), tensorType({1}, DType::Int64)});
}

}  // namespace

void registerVisionOps(OpRegistry& registry) {
  declare(registry, "vision.roi_align", "bilinear average (or max) pooling of each region of interest to a fixed size",
          {"data", "rois"},
          {tvmRequired("pooled_size", AttrValue::ints({})), tvmRequired("spatial_scale", 1.0), {"sample_ratio", -1},
           {"layout", "NCHW"}, {"mode", "avg"}},
          FusionKind::OutElementwiseFusable, roiAlignRelation);
  declare(registry, "vision.all_class_non_max_suppression",
          "greedy non-maximum suppression of each class's boxes, as ONNX NonMaxSuppression selects them",
          {"boxes", "scores", "max_output_boxes_per_class", "iou_threshold", "score_threshold"},
          {{"output_format", "onnx"}}, FusionKind::Opaque, allClassNmsRelation);
}

}  // namespace byoc::ops
