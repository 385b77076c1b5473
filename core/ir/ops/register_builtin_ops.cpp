#include "ir/ops/op_helpers.h"

namespace byoc {

void registerBuiltinOps(OpRegistry& registry) {
  ops::registerElementwiseOps(registry);
  ops::registerBroadcastOps(registry);
  ops::registerConvolutionOps(registry);
  ops::registerDenseOps(registry);
  ops::registerNormalizationOps(registry);
  ops::registerPoolingOps(registry);
  ops::registerTransformOps(registry);
  ops::registerReduceOps(registry);
  ops::registerImageOps(registry);
  ops::registerAnnotationOps(registry);
  ops::registerSpatialNdOps(registry);
  ops::registerCreationOps(registry);
  ops::registerReplicateOps(registry);
  ops::registerAlgorithmOps(registry);
  ops::registerIndexingOps(registry);
  ops::registerVisionOps(registry);
  ops::registerDynamicShapeOps(registry);
  ops::registerQnnOps(registry);
}

}  // namespace byoc
