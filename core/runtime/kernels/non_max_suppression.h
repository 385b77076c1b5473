#pragma once
/// \file
/// The kernel of vision.all_class_non_max_suppression (registered with the vision kernels).

#include "runtime/kernels/kernel.h"

namespace byoc::kernels {

/// Selects boxes as ONNX NonMaxSuppression does (center_point_box=0), per batch and class: the
/// boxes scoring above score_threshold, in descending score order (ties: lower index first), each
/// kept unless its IoU with a kept box exceeds iou_threshold, at most max_output_boxes_per_class
/// of them. Writes the (batch, class, box) rows in that order, zeros after them, and their count.
Status allClassNonMaxSuppression(const KernelArgs& args);

}  // namespace byoc::kernels
