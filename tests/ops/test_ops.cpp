#include <QtTest>

#include "ir/op.h"

using namespace byoc;

namespace {

/// An argument type written compactly: "f32[1,3,8,8]", "i64[]", "bool[2]", or a tuple "(f32[2], f32[3])".
Type parseTestType(const std::string& text) {
  if (text.front() == '(') {
    std::vector<Type> fields;
    std::string inner = text.substr(1, text.size() - 2);
    std::size_t start = 0;
    while (start < inner.size()) {
      std::size_t end = inner.find("], ", start);
      std::string field = end == std::string::npos ? inner.substr(start) : inner.substr(start, end + 1 - start);
      fields.push_back(parseTestType(field));
      start = end == std::string::npos ? inner.size() : end + 3;
    }
    return tupleType(std::move(fields));
  }
  std::size_t bracket = text.find('[');
  std::string dtypeText = text.substr(0, bracket);
  DType dtype = dtypeText == "f32" ? DType::Float32 : dtypeText == "i64" ? DType::Int64
                : dtypeText == "i32" ? DType::Int32 : dtypeText == "bool" ? DType::Bool : DType::Float16;
  Shape shape;
  std::string dims = text.substr(bracket + 1, text.size() - bracket - 2);
  std::size_t pos = 0;
  while (pos < dims.size()) {
    std::size_t comma = dims.find(',', pos);
    shape.push_back(std::stoll(dims.substr(pos, comma - pos)));
    pos = comma == std::string::npos ? dims.size() : comma + 1;
  }
  return tensorType(std::move(shape), dtype);
}

/// Infers the result type of `op` on arguments of the given types; returns the type text or "error: …".
std::string infer(const std::string& op, const std::vector<std::string>& argTypes, const Attrs& attrs = {}) {
  std::vector<Expr> args;
  for (std::size_t i = 0; i < argTypes.size(); ++i)
    args.push_back(VarNode::make("a" + std::to_string(i), parseTestType(argTypes[i])));
  Result<Call> call = makeOpCall(op, args, attrs);
  if (!call) return "error: " + call.error().message;
  std::vector<Type> types;
  for (const Expr& arg : (*call)->args) types.push_back(arg->type());
  Result<Type> result = (*call)->opDef()->relation({types, (*call)->attrs});
  return result ? typeToString(*result) : "error: " + result.error().message;
}

}  // namespace

/// The op registry: schemas, normalisation, type relations and their errors.
class TestOps : public QObject {
  Q_OBJECT

 private slots:
  void everyOpHasARelationAndASummary() {
    std::size_t count = 0;
    for (const OpDef* def : OpRegistry::global().all()) {
      QVERIFY2(def->relation != nullptr, def->name.c_str());
      QVERIFY2(!def->summary.empty(), def->name.c_str());
      QVERIFY(def->handle && &def->handle->def == def);
      ++count;
    }
    QVERIFY(count >= 70);
  }

  void typeRelations_data() {
    QTest::addColumn<QString>("op");
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("attrs");  // "name=int" pairs; see attrsFrom
    QTest::addColumn<QString>("expected");
    auto row = [](const char* tag, const char* op, QStringList args, const char* attrs, const char* expected) {
      QTest::newRow(tag) << QString(op) << args << QString(attrs) << QString(expected);
    };
    row("conv seed", "nn.conv2d", {"f32[1,32,56,56]", "f32[32,32,3,3]"}, "padding=1", "Tensor[(1, 32, 56, 56), float32]");
    row("conv stride", "nn.conv2d", {"f32[1,3,224,224]", "f32[64,3,7,7]"}, "strides=2;padding=3", "Tensor[(1, 64, 112, 112), float32]");
    row("conv depthwise", "nn.conv2d", {"f32[1,32,8,8]", "f32[32,1,3,3]"}, "groups=32;padding=1", "Tensor[(1, 32, 8, 8), float32]");
    row("conv dilated", "nn.conv2d", {"f32[1,4,9,9]", "f32[4,4,3,3]"}, "dilation=2", "Tensor[(1, 4, 5, 5), float32]");
    row("conv channels", "nn.conv2d", {"f32[1,16,8,8]", "f32[32,32,3,3]"}, "", "error: nn.conv2d: input channels 16 do not match weight input channels 32 x groups 1");
    row("conv rank", "nn.conv2d", {"f32[16,8,8]", "f32[32,16,3,3]"}, "", "error: nn.conv2d: data must have rank 4, found (16, 8, 8)");
    row("deconv", "nn.conv2d_transpose", {"f32[1,8,4,4]", "f32[8,4,2,2]"}, "strides=2", "Tensor[(1, 4, 8, 8), float32]");
    row("dense", "nn.dense", {"f32[1,784]", "f32[128,784]"}, "", "Tensor[(1, 128), float32]");
    row("dense mismatch", "nn.dense", {"f32[1,784]", "f32[128,100]"}, "", "error: nn.dense: data features 784 do not match weight (128, 100) (expected [units, 784])");
    row("batch_matmul", "nn.batch_matmul", {"f32[4,128,64]", "f32[4,32,64]"}, "", "Tensor[(4, 128, 32), float32]");
    row("bias_add", "nn.bias_add", {"f32[1,32,4,4]", "f32[32]"}, "", "Tensor[(1, 32, 4, 4), float32]");
    row("bias_add wrong", "nn.bias_add", {"f32[1,32,4,4]", "f32[16]"}, "", "error: nn.bias_add: bias must have shape (32), found (16)");
    row("batch_norm", "nn.batch_norm", {"f32[1,8,4,4]", "f32[8]", "f32[8]", "f32[8]", "f32[8]"}, "", "(Tensor[(1, 8, 4, 4), float32], Tensor[(8), float32], Tensor[(8), float32])");
    row("add broadcast", "add", {"f32[1,32,4,4]", "f32[32,1,1]"}, "", "Tensor[(1, 32, 4, 4), float32]");
    row("add scalar", "add", {"i32[]", "i32[]"}, "", "int32");
    row("add mismatch", "add", {"f32[2,3]", "f32[4]"}, "", "error: add: shapes (2, 3) and (4) cannot be broadcast together");
    row("add dtypes", "add", {"f32[2]", "i32[2]"}, "", "error: add: operand dtypes differ: float32 and int32");
    row("less", "less", {"i32[]", "i32[]"}, "", "bool");
    row("relu", "nn.relu", {"f32[2,2]"}, "", "Tensor[(2, 2), float32]");
    row("max_pool", "nn.max_pool2d", {"f32[1,64,112,112]"}, "pool_size=3;strides=2;padding=1", "Tensor[(1, 64, 56, 56), float32]");
    row("avg_pool ceil", "nn.avg_pool2d", {"f32[1,8,7,7]"}, "pool_size=2;strides=2;ceil_mode=1", "Tensor[(1, 8, 4, 4), float32]");
    row("global pool", "nn.global_avg_pool2d", {"f32[1,512,7,7]"}, "", "Tensor[(1, 512, 1, 1), float32]");
    row("reshape seed", "reshape", {"f32[1,32,56,56]"}, "newshape=1,56,56,32", "Tensor[(1, 56, 56, 32), float32]");
    row("reshape infer", "reshape", {"f32[2,3,4]"}, "newshape=0,-1", "Tensor[(2, 12), float32]");
    row("reshape bad", "reshape", {"f32[2,3,4]"}, "newshape=5,-1", "error: reshape: cannot reshape (2, 3, 4) into [5, -1]");
    row("transpose", "transpose", {"f32[1,2,3]"}, "axes=0,2,1", "Tensor[(1, 3, 2), float32]");
    row("transpose axis", "transpose", {"f32[1,2,3]"}, "axes=0,3,1", "error: transpose: axis 3 is out of range for rank 3");
    row("squeeze", "squeeze", {"f32[1,3,1,2]"}, "", "Tensor[(3, 2), float32]");
    row("expand_dims", "expand_dims", {"f32[3]"}, "axis=0;num_newaxis=2", "Tensor[(1, 1, 3), float32]");
    row("concat", "concatenate", {"(f32[1,2], f32[1,3])"}, "axis=1", "Tensor[(1, 5), float32]");
    row("concat bad", "concatenate", {"(f32[1,2], f32[2,3])"}, "axis=1", "error: concatenate: field 1 has shape (2, 3), which differs from (1, 2) outside axis 1");
    row("split", "split", {"f32[6,4]"}, "indices_or_sections=3", "(Tensor[(2, 4), float32], Tensor[(2, 4), float32], Tensor[(2, 4), float32])");
    row("strided_slice", "strided_slice", {"f32[10,8]"}, "begin=2,0;end=8,-1;strides=2,1", "Tensor[(3, 7), float32]");
    row("take", "take", {"f32[100,16]", "i64[4,2]"}, "axis=0", "Tensor[(4, 2, 16), float32]");
    row("batch_flatten", "nn.batch_flatten", {"f32[2,3,4]"}, "", "Tensor[(2, 12), float32]");
    row("mean", "mean", {"f32[1,8,4,4]"}, "axis=2,3;keepdims=1", "Tensor[(1, 8, 1, 1), float32]");
    row("sum all", "sum", {"f32[2,3]"}, "", "float32");
    row("argmax", "argmax", {"f32[2,3]"}, "axis=1", "Tensor[(2), int32]");
    row("argmin keepdims", "argmin", {"f32[2,3]"}, "axis=1;keepdims=1", "Tensor[(2, 1), int32]");
    row("layer_norm", "nn.layer_norm", {"f32[1,128,256]", "f32[256]", "f32[256]"}, "", "Tensor[(1, 128, 256), float32]");
    row("softmax axis", "nn.softmax", {"f32[2,3]"}, "axis=2", "error: nn.softmax: axis 2 is out of range for rank 2");
    row("where", "where", {"bool[2,1]", "f32[3]", "f32[2,3]"}, "", "Tensor[(2, 3), float32]");
    row("annotation", "annotation.compiler_begin", {"f32[2]"}, "", "Tensor[(2), float32]");
    row("expand_dims huge", "expand_dims", {"f32[3]"}, "axis=0;num_newaxis=9223372036854775807", "error: expand_dims: result shape: rank 9223372036854775807 exceeds the limit of 32 dimensions");
    row("expand_dims rank", "expand_dims", {"f32[3]"}, "axis=0;num_newaxis=32", "error: expand_dims: result shape: rank 33 exceeds the limit of 32 dimensions");
    row("split sections", "split", {"f32[4294967296]"}, "indices_or_sections=4294967296", "error: split: 4294967296 parts exceed the limit of 65536 outputs");
    row("reshape overflow", "reshape", {"f32[2]"}, "newshape=4294967296,4294967296,4294967296", "error: reshape: cannot reshape (2) (2 elements) into (4294967296, 4294967296, 4294967296)");
    row("reshape merge", "reshape", {"f32[4294967296,4294967296]"}, "newshape=-3", "error: reshape: newshape -3 merges dimensions whose product overflows");
    row("reshape rank", "reshape", {"f32[1]"}, "newshape=1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1", "error: reshape: result shape: rank 33 exceeds the limit of 32 dimensions");
    row("batch_flatten huge", "nn.batch_flatten", {"f32[1,4294967296,4294967296]"}, "", "error: nn.batch_flatten: the flattened axes overflow");
    row("batch_flatten limit", "nn.batch_flatten", {"f32[1,65536,65537]"}, "", "error: nn.batch_flatten: result shape: more than 4294967296 elements (the limit of one tensor)");
    row("adaptive negative", "nn.adaptive_avg_pool2d", {"f32[1,1,4,4]"}, "output_size=-3,2", "error: nn.adaptive_avg_pool2d: result shape: dimension 2 is -3, expected 0 or more");
    row("conv padding overflow", "nn.conv2d", {"f32[1,3,8,8]", "f32[4,3,3,3]"}, "padding=9223372036854775807", "error: nn.conv2d: the padded input or the dilated kernel overflows");
    row("conv dilation overflow", "nn.conv2d", {"f32[1,3,8,8]", "f32[4,3,3,3]"}, "dilation=9223372036854775807", "error: nn.conv2d: the padded input or the dilated kernel overflows");
    row("conv dilation zero", "nn.conv2d", {"f32[1,3,8,8]", "f32[4,3,3,3]"}, "dilation=0", "error: nn.conv2d: dilation must be positive");
    row("deconv stride overflow", "nn.conv2d_transpose", {"f32[1,8,4,4]", "f32[8,4,2,2]"}, "strides=9223372036854775807", "error: nn.conv2d_transpose: the output size overflows");
    row("deconv huge output", "nn.conv2d_transpose", {"f32[1,8,4,4]", "f32[8,4,2,2]"}, "strides=4294967296", "error: nn.conv2d_transpose: result shape: more than 4294967296 elements (the limit of one tensor)");
    row("pool padding overflow", "nn.max_pool2d", {"f32[1,8,8,8]"}, "pool_size=2;padding=9223372036854775807", "error: nn.max_pool2d: the padded input or the dilated window overflows");
    row("pool ceil overflow", "nn.avg_pool2d", {"f32[1,8,8,8]"}, "pool_size=1;strides=9223372036854775807;padding=4611686018427387000;ceil_mode=1", "error: nn.avg_pool2d: the output size overflows");
    row("strided_slice huge stride", "strided_slice", {"f32[10,8]"}, "begin=2,0;end=8,-1;strides=9223372036854775807,-9223372036854775808", "Tensor[(1, 0), float32]");
    row("strided_slice reverse", "strided_slice", {"f32[10]"}, "begin=-1;end=-11;strides=-3,-3", "Tensor[(4), float32]");
    // The 1-D and 3-D family; output sizes by TVM's formulas (floor((in + pads - dilated kernel) / stride) + 1,
    // and (in - 1) * stride - pads + dilation * (kernel - 1) + output_padding + 1 transposed).
    row("conv1d", "nn.conv1d", {"f32[1,3,10]", "f32[4,3,3]"}, "strides=2;padding=1", "Tensor[(1, 4, 5), float32]");
    row("conv1d grouped", "nn.conv1d", {"f32[1,4,8]", "f32[4,1,3]"}, "groups=4", "Tensor[(1, 4, 6), float32]");
    row("conv3d", "nn.conv3d", {"f32[1,2,5,6,7]", "f32[3,2,3,3,3]"}, "padding=1", "Tensor[(1, 3, 5, 6, 7), float32]");
    row("conv3d stride", "nn.conv3d", {"f32[1,2,8,8,8]", "f32[4,2,2,2,2]"}, "strides=2", "Tensor[(1, 4, 4, 4, 4), float32]");
    row("conv3d rank", "nn.conv3d", {"f32[1,2,8,8]", "f32[4,2,2,2,2]"}, "", "error: nn.conv3d: data must have rank 5 (NCDHW), found (1, 2, 8, 8)");
    row("conv3d weight rank", "nn.conv3d", {"f32[1,2,8,8,8]", "f32[4,2,2,2]"}, "", "error: nn.conv3d: weight must have rank 5 (OIDHW), found (4, 2, 2, 2)");
    row("conv3d channels", "nn.conv3d", {"f32[1,3,4,4,4]", "f32[2,2,1,1,1]"}, "", "error: nn.conv3d: input channels 3 do not match weight input channels 2 x groups 1");
    row("conv3d window", "nn.conv3d", {"f32[1,2,2,8,8]", "f32[4,2,3,3,3]"}, "", "error: nn.conv3d: the window (3, 3, 3) is larger than the padded input along spatial axis 0");
    row("conv3d zero stride", "nn.conv3d", {"f32[1,2,8,8,8]", "f32[4,2,2,2,2]"}, "strides=0", "error: nn.conv3d: the window, strides and dilation must be positive");
    row("deconv3d", "nn.conv3d_transpose", {"f32[1,4,2,3,4]", "f32[4,2,2,2,2]"}, "strides=2", "Tensor[(1, 2, 4, 6, 8), float32]");
    row("deconv1d", "nn.conv1d_transpose", {"f32[1,4,5]", "f32[4,2,3]"}, "strides=2", "Tensor[(1, 2, 11), float32]");
    row("deconv1d output_padding grouped", "nn.conv1d_transpose", {"f32[1,4,5]", "f32[4,3,3]"}, "strides=2;padding=1;output_padding=1;groups=2",
        "Tensor[(1, 6, 10), float32]");
    row("adaptive_avg_pool1d global", "nn.adaptive_avg_pool1d", {"f32[1,4,9]"}, "output_size=1", "Tensor[(1, 4, 1), float32]");
    row("adaptive_max_pool3d", "nn.adaptive_max_pool3d", {"f32[2,3,4,5,6]"}, "output_size=2,1,3", "Tensor[(2, 3, 2, 1, 3), float32]");
    row("adaptive_avg_pool3d rank", "nn.adaptive_avg_pool3d", {"f32[1,2,3,4]"}, "", "error: nn.adaptive_avg_pool3d: data must have rank 5 (NCDHW), found (1, 2, 3, 4)");
    row("adaptive_max_pool1d size", "nn.adaptive_max_pool1d", {"f32[1,2,3]"}, "output_size=0", "error: nn.adaptive_max_pool1d: output_size must be positive, found [0]");
    row("gelu", "nn.gelu", {"f32[2,3]"}, "", "Tensor[(2, 3), float32]");
    row("deconv3d channels", "nn.conv3d_transpose", {"f32[1,4,2,3,4]", "f32[2,2,2,2,2]"}, "", "error: nn.conv3d_transpose: input channels 4 do not match weight input channels 2");
    row("max_pool1d", "nn.max_pool1d", {"f32[1,2,9]"}, "pool_size=2;strides=2;ceil_mode=1", "Tensor[(1, 2, 5), float32]");
    row("avg_pool1d rank", "nn.avg_pool1d", {"f32[1,1,5,5]"}, "pool_size=2", "error: nn.avg_pool1d: data must have rank 3 (NCW), found (1, 1, 5, 5)");
    row("max_pool3d", "nn.max_pool3d", {"f32[1,2,8,8,8]"}, "pool_size=2;strides=2", "Tensor[(1, 2, 4, 4, 4), float32]");
    row("avg_pool3d ceil", "nn.avg_pool3d", {"f32[1,1,5,5,5]"}, "pool_size=2;strides=2;ceil_mode=1", "Tensor[(1, 1, 3, 3, 3), float32]");
    row("avg_pool3d rank", "nn.avg_pool3d", {"f32[1,1,5,5]"}, "pool_size=2", "error: nn.avg_pool3d: data must have rank 5 (NCDHW), found (1, 1, 5, 5)");
    // tile, broadcast_to, reverse, topk, cumsum, gather_nd and scatter_nd; shapes by TVM's relations
    // (TileRel, BroadCastToRel, TopKRel, ScanopRel, GatherNDRel, ScatterNDRel).
    row("tile", "tile", {"f32[2,3]"}, "reps=2,2", "Tensor[(4, 6), float32]");
    row("tile longer reps", "tile", {"f32[3]"}, "reps=2,1,2", "Tensor[(2, 1, 6), float32]");
    row("tile shorter reps", "tile", {"f32[2,3]"}, "reps=2", "Tensor[(2, 6), float32]");
    row("tile negative", "tile", {"f32[2,3]"}, "reps=1,-1", "error: tile: reps [1, -1] has a negative count; expected counts of 0 or more");
    row("tile overflow", "tile", {"f32[4294967296]"}, "reps=4294967296", "error: tile: axis 0 of (4294967296) repeated 4294967296 times overflows");
    row("broadcast_to", "broadcast_to", {"f32[3,1]"}, "shape=2,3,4", "Tensor[(2, 3, 4), float32]");
    row("broadcast_to bad", "broadcast_to", {"f32[3,2]"}, "shape=3,4", "error: broadcast_to: cannot broadcast (3, 2) to (3, 4): axis 1 is 2, expected 1 or 4");
    row("broadcast_to rank", "broadcast_to", {"f32[1,3]"}, "shape=3", "error: broadcast_to: cannot broadcast (1, 3) to the lower rank of (3)");
    row("reverse", "reverse", {"f32[2,3]"}, "axis=-1", "Tensor[(2, 3), float32]");
    row("reverse axis", "reverse", {"f32[2,3]"}, "axis=2", "error: reverse: axis 2 is out of range for rank 2");
    row("topk", "topk", {"f32[2,5]"}, "k=3", "(Tensor[(2, 3), float32], Tensor[(2, 3), int32])");
    row("topk whole axis", "topk", {"f32[2,5]"}, "k=0;axis=0", "(Tensor[(2, 5), float32], Tensor[(2, 5), int32])");
    row("topk too many", "topk", {"f32[2,5]"}, "k=6", "error: topk: k 6 exceeds axis 1 of (2, 5); expected at most 5");
    row("cumsum flat", "cumsum", {"f32[2,3]"}, "", "Tensor[(6), float32]");
    row("cumsum axis", "cumsum", {"i32[2,3]"}, "axis=1", "Tensor[(2, 3), int32]");
    row("gather_nd", "gather_nd", {"f32[2,3,4]", "i64[2,5]"}, "", "Tensor[(5, 4), float32]");
    row("gather_nd batch", "gather_nd", {"f32[2,3,4]", "i64[1,2]"}, "batch_dims=1", "Tensor[(2, 4), float32]");
    row("gather_nd long tuples", "gather_nd", {"f32[2,3]", "i64[3,5]"}, "", "error: gather_nd: indices (3, 5) with batch_dims 0 do not fit data (2, 3); expected 1 <= M and batch_dims + M <= the data's rank, M = axis 0 of indices");
    row("gather_nd batch mismatch", "gather_nd", {"f32[2,3,4]", "i64[1,3]"}, "batch_dims=1", "error: gather_nd: batch axis 0 is 2 in data (2, 3, 4) but 3 in indices (1, 3)");
    row("gather_nd float indices", "gather_nd", {"f32[2,3]", "f32[1,2]"}, "", "error: gather_nd: indices must be integers, found float32");
    row("scatter_nd", "scatter_nd", {"f32[4,3]", "i64[1,2]", "f32[2,3]"}, "", "Tensor[(4, 3), float32]");
    row("scatter_nd updates", "scatter_nd", {"f32[4,3]", "i64[1,2]", "f32[2,2]"}, "", "error: scatter_nd: updates (2, 2) do not fit indices (1, 2) and data (4, 3); expected (2, 3)");
    row("roi_align", "vision.roi_align", {"f32[1,256,14,14]", "f32[10,5]"}, "pooled_size=7,7", "Tensor[(10, 256, 7, 7), float32]");
    row("roi_align rois", "vision.roi_align", {"f32[1,256,14,14]", "f32[10,4]"}, "pooled_size=7,7", "error: vision.roi_align: rois must have shape (num_roi, 5), found (10, 4)");
    row("roi_align pooled", "vision.roi_align", {"f32[1,256,14,14]", "f32[10,5]"}, "pooled_size=0,7", "error: vision.roi_align: pooled_size [0, 7]; expected one or two positive sizes");
    row("concat overflow", "concatenate", {"(f32[4294967296], f32[9223372036854775807])"}, "axis=0", "error: concatenate: the concatenated axis overflows");
    // Unknown dimensions (-1, printed ?) carried through, as a dynamic sequence axis needs them.
    row("dense ?", "nn.dense", {"f32[-1,256]", "f32[768,256]"}, "units=768", "Tensor[(?, 768), float32]");
    row("dense ? features", "nn.dense", {"f32[4,-1]", "f32[8,16]"}, "units=8", "Tensor[(4, 8), float32]");
    row("batch_matmul ?", "nn.batch_matmul", {"f32[4,-1,64]", "f32[4,64,-1]"}, "transpose_b=0", "Tensor[(4, ?, ?), float32]");
    row("batch_matmul ? batch", "nn.batch_matmul", {"f32[-1,3,8]", "f32[1,5,8]"}, "transpose_b=1", "Tensor[(?, 3, 5), float32]");
    row("batch_matmul ? against 4", "nn.batch_matmul", {"f32[-1,3,8]", "f32[4,5,8]"}, "transpose_b=1", "Tensor[(4, 3, 5), float32]");
    row("batch_matmul sizes differ", "nn.batch_matmul", {"f32[4,-1,64]", "f32[4,32,-1]"}, "transpose_b=0",
        "error: nn.batch_matmul: reduction sizes differ: 64 and 32");
    row("reshape -1 of ?", "reshape", {"f32[-1,1,768]"}, "newshape=-1,4,64", "Tensor[(?, 4, 64), float32]");
    row("reshape 0 copies ?", "reshape", {"f32[-1,4,64]"}, "newshape=0,256", "Tensor[(?, 256), float32]");
    row("reshape -3 of ?", "reshape", {"f32[-1,4,64]"}, "newshape=-3,64", "Tensor[(?, 64), float32]");
    row("transpose ?", "transpose", {"f32[-1,4,64]"}, "axes=1,0,2", "Tensor[(4, ?, 64), float32]");
    row("softmax ?", "nn.softmax", {"f32[4,-1,-1]"}, "axis=2", "Tensor[(4, ?, ?), float32]");
    row("add ? and size", "add", {"f32[-1,1,256]", "f32[256]"}, "", "Tensor[(?, 1, 256), float32]");
    row("add ? against size", "add", {"f32[-1,8]", "f32[5,1]"}, "", "Tensor[(5, 8), float32]");
    row("add ? and ?", "add", {"f32[-1,8]", "f32[-1,1]"}, "", "Tensor[(?, 8), float32]");
    row("mean ?", "mean", {"f32[-1,1,256]"}, "axis=-1;keepdims=1", "Tensor[(?, 1, 1), float32]");
    row("layer_norm ?", "nn.layer_norm", {"f32[-1,256]", "f32[256]", "f32[256]"}, "axis=-1", "Tensor[(?, 256), float32]");
    row("layer_norm ? channels", "nn.layer_norm", {"f32[2,-1]", "f32[256]", "f32[256]"}, "axis=-1", "Tensor[(2, ?), float32]");
    row("concatenate ?", "concatenate", {"(f32[-1,8], f32[3,8])"}, "axis=0", "Tensor[(?, 8), float32]");
    row("concatenate ? side", "concatenate", {"(f32[2,-1], f32[2,8])"}, "axis=0", "Tensor[(4, 8), float32]");
    row("strided_slice of ? axis", "strided_slice", {"f32[-1,768]"}, "begin=0,0;end=1,256;axes=0,1", "Tensor[(?, 256), float32]");
    row("take of ?", "take", {"i64[3]", "i64[]"}, "axis=0", "int64");
    row("expand_dims ?", "expand_dims", {"f32[-1]"}, "axis=0", "Tensor[(1, ?), float32]");
    row("squeeze ? unlisted", "squeeze", {"f32[-1,1,4]"}, "",
        "error: squeeze: without axes, which axes of (?, 1, 4) are removed depends on the unknown dimensions; expected the axes listed");
    row("split ? sections", "split", {"f32[-1,4]"}, "indices_or_sections=2;axis=0", "(Tensor[(?, 4), float32], Tensor[(?, 4), float32])");
    row("shape_of", "shape_of", {"f32[-1,1,256]"}, "", "Tensor[(3), int32]");
    row("argwhere", "argwhere", {"f32[2,-1,3]"}, "", "Tensor[(?, 3), int32]");
    row("argwhere of a scalar", "argwhere", {"f32[]"}, "", "error: argwhere: data must have rank at least 1, found a scalar");
    row("dyn.reshape", "dyn.reshape", {"f32[-1,256]", "i64[3]"}, "", "Tensor[(?, ?, ?), float32]");
    row("dyn.reshape of unknown length", "dyn.reshape", {"f32[-1,256]", "i64[-1]"}, "",
        "error: dyn.reshape: newshape must be a 1-D integer tensor of known length, found Tensor[(?), int64]");
    row("dyn.reshape by floats", "dyn.reshape", {"f32[-1,256]", "f32[2]"}, "",
        "error: dyn.reshape: newshape must be a 1-D integer tensor of known length, found Tensor[(2), float32]");
    // The sizes-as-tensors forms of topk, full and strided_slice, and all-class NMS (TVM's relations).
    row("dyn.topk", "dyn.topk", {"f32[2,-1]", "i64[1]"}, "axis=1", "(Tensor[(2, ?), float32], Tensor[(2, ?), int32])");
    row("dyn.topk scalar k", "dyn.topk", {"f32[5]", "i32[]"}, "axis=0", "(Tensor[(?), float32], Tensor[(?), int32])");
    row("dyn.topk k of two", "dyn.topk", {"f32[5]", "i64[2]"}, "",
        "error: dyn.topk: k must be an integer scalar or a tensor of one element, found Tensor[(2), int64]");
    row("dyn.full", "dyn.full", {"i64[]", "i64[3]"}, "", "Tensor[(?, ?, ?), int64]");
    row("dyn.full of a vector", "dyn.full", {"f32[2]", "i64[1]"}, "", "error: dyn.full: fill_value must be a scalar, found Tensor[(2), float32]");
    row("dyn.full unknown rank", "dyn.full", {"f32[]", "i64[-1]"}, "",
        "error: dyn.full: shape must be a 1-D integer tensor of known length, found Tensor[(?), int64]");
    row("dyn.strided_slice", "dyn.strided_slice", {"i64[6,3]", "i64[1]", "i64[1]", "i64[1]"}, "", "Tensor[(?, 3), int64]");
    row("dyn.strided_slice lengths", "dyn.strided_slice", {"i64[6,3]", "i64[1]", "i64[2]", "i64[1]"}, "",
        "error: dyn.strided_slice: begin has 1 elements but end has 2; expected one per sliced axis");
    row("dyn.strided_slice too many axes", "dyn.strided_slice", {"f32[4]", "i64[2]", "i64[2]", "i64[2]"}, "",
        "error: dyn.strided_slice: 2 axes sliced of (4)");
    row("dyn.tile", "dyn.tile", {"f32[2,3]", "i64[3]"}, "", "Tensor[(?, ?, ?), float32]");
    row("dyn.tile of floats", "dyn.tile", {"f32[2,3]", "f32[2]"}, "",
        "error: dyn.tile: reps must be a 1-D integer tensor of known length, found Tensor[(2), float32]");
    row("dyn.broadcast_to", "dyn.broadcast_to", {"f32[3,1]", "i64[1]"}, "", "Tensor[(?, ?), float32]");
    row("arange", "arange", {"i64[]", "i64[]", "i64[]"}, "", "Tensor[(?), int64]");
    row("arange of vectors", "arange", {"f32[1]", "f32[]", "f32[]"}, "",
        "error: arange: start, stop and step must be numeric scalars of one dtype, found Tensor[(1), float32], float32 and float32");
    row("all_class_nms", "vision.all_class_non_max_suppression", {"f32[1,6,4]", "f32[1,2,6]", "i64[]", "f32[]", "f32[1]"}, "",
        "(Tensor[(12, 3), int64], Tensor[(1), int64])");
    row("all_class_nms ?", "vision.all_class_non_max_suppression", {"f32[1,-1,4]", "f32[1,1,-1]", "i64[]", "f32[]", "f32[]"}, "",
        "(Tensor[(?, 3), int64], Tensor[(1), int64])");
    row("all_class_nms boxes", "vision.all_class_non_max_suppression", {"f32[1,6,5]", "f32[1,2,6]", "i64[]", "f32[]", "f32[]"}, "",
        "error: vision.all_class_non_max_suppression: boxes must be floating-point of shape (batches, boxes, 4), found Tensor[(1, 6, 5), float32]");
    row("all_class_nms scores", "vision.all_class_non_max_suppression", {"f32[1,6,4]", "f32[1,2,5]", "i64[]", "f32[]", "f32[]"}, "",
        "error: vision.all_class_non_max_suppression: scores must be float32 of shape (batches, classes, boxes) for boxes (1, 6, 4), "
        "found Tensor[(1, 2, 5), float32]");
    row("all_class_nms threshold", "vision.all_class_non_max_suppression", {"f32[1,6,4]", "f32[1,2,6]", "i64[]", "f32[2]", "f32[]"}, "",
        "error: vision.all_class_non_max_suppression: iou_threshold must be a floating-point scalar or tensor of one element, "
        "found Tensor[(2), float32]");
    row("all_class_nms too many rows", "vision.all_class_non_max_suppression",
        {"f32[65536,65536,4]", "f32[65536,65536,65536]", "i64[]", "f32[]", "f32[]"}, "",
        "error: vision.all_class_non_max_suppression: (65536, 65536, 65536) batches, classes and boxes are too many rows for one tensor");
  }

  void typeRelations() {
    QFETCH(QString, op);
    QFETCH(QStringList, args);
    QFETCH(QString, attrs);
    QFETCH(QString, expected);
    std::vector<std::string> argTypes;
    for (const QString& arg : args) argTypes.push_back(arg.toStdString());
    Attrs given;
    for (const QString& pair : attrs.split(';', Qt::SkipEmptyParts)) {
      QStringList parts = pair.split('=');
      QStringList values = parts[1].split(',');
      bool listAttr = parts[0] == "newshape" || parts[0] == "axes" || parts[0] == "begin" || parts[0] == "end" ||
                      parts[0] == "reps" || parts[0] == "shape" || parts[0] == "pooled_size";
      if (values.size() == 1 && !listAttr) {
        given.set(parts[0].toStdString(), AttrValue(static_cast<int64_t>(values[0].toLongLong())));
      } else {
        std::vector<int64_t> ints;
        for (const QString& v : values) ints.push_back(v.toLongLong());
        given.set(parts[0].toStdString(), AttrValue::ints(ints));
      }
    }
    QCOMPARE(QString::fromStdString(infer(op.toStdString(), argTypes, given)), expected);
  }

  void paddingIsNormalisedToFourValues_data() {
    QTest::addColumn<QString>("given");
    QTest::addColumn<QString>("normalised");
    QTest::newRow("int") << "1" << "[1, 1, 1, 1]";
    QTest::newRow("pair") << "1,2" << "[1, 2, 1, 2]";
    QTest::newRow("four") << "1,2,3,4" << "[1, 2, 3, 4]";
  }
  void paddingIsNormalisedToFourValues() {
    QFETCH(QString, given);
    QFETCH(QString, normalised);
    const OpDef& conv = *OpRegistry::global().find("nn.conv2d");
    std::vector<int64_t> values;
    for (const QString& v : given.split(',')) values.push_back(v.toLongLong());
    Attrs attrs{{"padding", values.size() == 1 ? AttrValue(values[0]) : AttrValue::ints(values)}};
    Result<Attrs> result = normalizeAttrs(conv, attrs);
    QVERIFY(result.isOk());
    QCOMPARE(QString::fromStdString(result->find("padding")->str()), normalised);
    QCOMPARE(QString::fromStdString(result->find("strides")->str()), QStringLiteral("[1, 1]"));
    QCOMPARE(result->entries().front().first, std::string("strides"));  // schema order
  }

  void badPaddingLengthIsRejected() {
    const OpDef& conv = *OpRegistry::global().find("nn.conv2d");
    Result<Attrs> result = normalizeAttrs(conv, Attrs{{"padding", AttrValue::ints({1, 2, 3})}});
    QVERIFY(!result);
    QCOMPARE(QString::fromStdString(result.error().message),
             QStringLiteral("nn.conv2d: attribute padding needs 4 values, found [1, 2, 3]"));
  }

  void spatialListsAreNormalisedPerRank() {
    auto normalised = [](const char* op, AttrValue padding) {
      Result<Attrs> result = normalizeAttrs(*OpRegistry::global().find(op), Attrs{{"padding", std::move(padding)}});
      return QString::fromStdString(result ? result->find("padding")->str() + " " + result->find("strides")->str()
                                           : result.error().message);
    };
    QCOMPARE(normalised("nn.conv1d", 1), QStringLiteral("[1, 1] [1]"));
    QCOMPARE(normalised("nn.conv3d", AttrValue::ints({1, 2, 3})), QStringLiteral("[1, 2, 3, 1, 2, 3] [1, 1, 1]"));
    QCOMPARE(normalised("nn.max_pool3d", AttrValue::ints({1, 2, 3, 4, 5, 6})), QStringLiteral("[1, 2, 3, 4, 5, 6] [1, 1, 1]"));
    QCOMPARE(normalised("nn.conv3d", AttrValue::ints({1, 2, 3, 4})),
             QStringLiteral("nn.conv3d: attribute padding needs 6 values, found [1, 2, 3, 4]"));
  }

  void spatialOpsTakeTheirCanonicalLayoutsOnly() {
    QCOMPARE(QString::fromStdString(infer("nn.conv3d", {"f32[1,8,8,8,2]", "f32[4,2,2,2,2]"}, Attrs{{"data_layout", "NDHWC"}})),
             QStringLiteral("error: nn.conv3d: unsupported data_layout \"NDHWC\"; expected NCDHW"));
    QCOMPARE(QString::fromStdString(infer("nn.conv1d", {"f32[1,2,8]", "f32[3,2,2]"}, Attrs{{"kernel_layout", "WIO"}})),
             QStringLiteral("error: nn.conv1d: unsupported kernel_layout \"WIO\"; expected OIW"));
    QCOMPARE(QString::fromStdString(infer("nn.max_pool3d", {"f32[1,8,8,8,2]"}, Attrs{{"layout", "NDHWC"}})),
             QStringLiteral("error: nn.max_pool3d: unsupported layout \"NDHWC\"; expected NCDHW"));
    QCOMPARE(QString::fromStdString(infer("nn.conv3d", {"f32[1,2,8,8,8]", "f32[4,2,2,2,2]"}, Attrs{{"strides", "2"}})),
             QStringLiteral("error: nn.conv3d: attribute strides must be an integer or a list of integers, found \"2\""));
  }

  void creationLayoutAndEinsumRelations() {
    auto check = [](const char* op, std::vector<std::string> args, const Attrs& attrs) {
      return QString::fromStdString(infer(op, args, attrs));
    };
    QCOMPARE(check("zeros", {}, Attrs{{"shape", AttrValue::ints({2, 3})}}), QStringLiteral("Tensor[(2, 3), float32]"));
    QCOMPARE(check("ones", {}, Attrs{{"shape", AttrValue::ints({4})}, {"dtype", "int64"}}), QStringLiteral("Tensor[(4), int64]"));
    QCOMPARE(check("zeros", {}, Attrs{{"shape", AttrValue::ints({2, -1})}}),
             QStringLiteral("error: zeros: shape (2, ?) has a negative dimension"));
    QCOMPARE(check("ones", {}, Attrs{{"shape", AttrValue::ints({2})}, {"dtype", "float8"}}),
             QStringLiteral("error: ones: unknown dtype \"float8\""));
    QCOMPARE(check("layout_transform", {"f32[1,3,4,5]"}, Attrs{{"src_layout", "NCHW"}, {"dst_layout", "NHWC"}}),
             QStringLiteral("Tensor[(1, 4, 5, 3), float32]"));
    QCOMPARE(check("layout_transform", {"f32[1,3,4,5]"}, Attrs{{"src_layout", "NCHW"}, {"dst_layout", "NCHW8c"}}),
             QStringLiteral("error: layout_transform: layout \"NCHW8c\" is not supported; expected each axis once as a capital letter"));
    QCOMPARE(check("layout_transform", {"f32[1,3,4,5]"}, Attrs{{"src_layout", "NCHW"}, {"dst_layout", "NCDW"}}),
             QStringLiteral("error: layout_transform: dst_layout \"NCDW\" does not name the axes of src_layout \"NCHW\""));
    QCOMPARE(check("layout_transform", {"f32[1,3,4]"}, Attrs{{"src_layout", "NCHW"}, {"dst_layout", "NHWC"}}),
             QStringLiteral("error: layout_transform: src_layout \"NCHW\" names 4 axes but the data (1, 3, 4) has rank 3"));
    QCOMPARE(check("einsum", {"(f32[2,3], f32[3,4])"}, Attrs{{"equation", "ij,jk->ik"}}), QStringLiteral("Tensor[(2, 4), float32]"));
    QCOMPARE(check("einsum", {"(f32[5,2,3], f32[5,3,4])"}, Attrs{{"equation", "bij,bjk->bik"}}),
             QStringLiteral("Tensor[(5, 2, 4), float32]"));
    QCOMPARE(check("einsum", {"(f32[2,3], f32[3,4])"}, Attrs{{"equation", "ij,jk"}}), QStringLiteral("Tensor[(2, 4), float32]"));
    QCOMPARE(check("einsum", {"(f32[2,3])"}, Attrs{{"equation", "ij->"}}), QStringLiteral("float32"));
  }

  void badEinsumEquationsAreErrors_data() {
    QTest::addColumn<QString>("equation");
    QTest::addColumn<QString>("expected");
    auto row = [](const char* equation, const char* expected) { QTest::newRow(equation) << QString(equation) << QString(expected); };
    row("ij,jk,kl->il", "einsum: equation \"ij,jk,kl->il\" names 3 operand(s) but 2 were given");
    row("ij,jk->iz", "einsum: equation \"ij,jk->iz\": output subscript 'z' appears in no operand");
    row("ij,jk->ii", "einsum: equation \"ij,jk->ii\": output subscript 'i' appears more than once");
    row("...j,jk->...k", "einsum: equation \"...j,jk->...k\": ellipsis ('...') is not supported; name every axis");
    row("i1,jk->ik", "einsum: equation \"i1,jk->ik\": unexpected character '1'; expected letters, ',' and '->'");
    row("ij,jk->ik->i", "einsum: equation \"ij,jk->ik->i\": more than one '->'");
    row("ij,jk>ik", "einsum: equation \"ij,jk>ik\": '-' or '>' outside '->'");
    row("ijk,jk->ik", "einsum: operand 0 (2, 3) has rank 2 but its subscripts \"ijk\" name 3 axes");
    row("ij,ik->jk", "einsum: subscript 'i' is 2 elsewhere but 3 in operand 1 (3, 4)");
  }
  void badEinsumEquationsAreErrors() {
    QFETCH(QString, equation);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(infer("einsum", {"(f32[2,3], f32[3,4])"}, Attrs{{"equation", equation.toStdString()}})),
             "error: " + expected);
  }

  void unknownAttributeListsTheSchema() {
    Result<Call> call = makeOpCall("nn.relu", {VarNode::make("x")}, Attrs{{"alpha", 1}});
    QVERIFY(!call);
    QCOMPARE(QString::fromStdString(call.error().message), QStringLiteral("nn.relu has no attribute 'alpha'; it takes none"));
    call = makeOpCall("nn.bias_add", {VarNode::make("x"), VarNode::make("b")}, Attrs{{"axes", 1}});
    QCOMPARE(QString::fromStdString(call.error().message),
             QStringLiteral("nn.bias_add has no attribute 'axes'; expected one of: axis"));
  }

  void attributeOfAnotherKindIsRefused() {
    struct Case {
      const char* op;
      const char* attr;
      AttrValue value;
      const char* expected;  // empty: accepted
    };
    const Case cases[] = {
        {"nn.conv2d", "groups", "x", "nn.conv2d: attribute groups must be an integer, found \"x\""},
        {"clip", "a_min", "a", "clip: attribute a_min must be a number, found \"a\""},
        {"nn.batch_norm", "center", 1.5, "nn.batch_norm: attribute center must be a boolean, found 1.5f"},
        {"nn.conv2d", "data_layout", 1, "nn.conv2d: attribute data_layout must be a string, found 1"},
        {"nn.conv2d", "strides", AttrValue::List{"a", 1},
         "nn.conv2d: attribute strides must be an integer or a list of integers, found [\"a\", 1]"},
        {"clip", "a_min", 0, ""},                                    // an integer for a number
        {"nn.batch_norm", "center", 0, ""},                          // an integer for a boolean
        {"nn.conv2d", "strides", 2, ""},                             // one value for a list
        {"split", "indices_or_sections", AttrValue::ints({1, 2}), ""},  // the indices for a count
        {"nn.conv2d", "channels", "x", ""},                          // a None default fixes no kind
    };
    for (const Case& c : cases) {
      const OpDef* def = OpRegistry::global().find(c.op);
      QVERIFY(def);
      Result<Attrs> normalized = normalizeAttrs(*def, Attrs{{c.attr, c.value}});
      QCOMPARE(normalized ? QString() : QString::fromStdString(normalized.error().message), QString(c.expected));
    }
  }

  void unknownOpAndArityAreErrors() {
    QCOMPARE(QString::fromStdString(makeOpCall("nn.frobnicate", {}).error().message),
             QStringLiteral("unknown op 'nn.frobnicate'"));
    QCOMPARE(QString::fromStdString(makeOpCall("add", {VarNode::make("x")}).error().message),
             QStringLiteral("add expects 2 argument(s), got 1"));
  }

  void fusionKindsFollowRelay() {
    auto kind = [](const char* name) { return OpRegistry::global().find(name)->fusion; };
    QCOMPARE(kind("nn.relu"), FusionKind::Elementwise);
    QCOMPARE(kind("add"), FusionKind::Broadcast);
    QCOMPARE(kind("reshape"), FusionKind::Injective);
    QCOMPARE(kind("sum"), FusionKind::CommReduce);
    QCOMPARE(kind("nn.conv2d"), FusionKind::OutElementwiseFusable);
    QCOMPARE(kind("annotation.compiler_begin"), FusionKind::Opaque);
    QCOMPARE(kind("tile"), FusionKind::Injective);
    QCOMPARE(kind("broadcast_to"), FusionKind::Broadcast);
    QCOMPARE(kind("gather_nd"), FusionKind::Injective);
    QCOMPARE(kind("topk"), FusionKind::Opaque);
    QCOMPARE(kind("scatter_nd"), FusionKind::Opaque);
  }
};

QTEST_GUILESS_MAIN(TestOps)
#include "test_ops.moc"
