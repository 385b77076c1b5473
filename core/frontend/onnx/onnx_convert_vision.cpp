/// \file
/// Converters of the ONNX detection ops: RoiAlign, as TVM's importer writes it (the batch indices
/// joined to the regions as their first column, for vision.roi_align).

#include "frontend/onnx/onnx_converters.h"

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

}  // namespace

void addVisionConverters(OnnxConverterTable& table) { table["RoiAlign"] = roiAlign; }

}  // namespace byoc::onnx_import
