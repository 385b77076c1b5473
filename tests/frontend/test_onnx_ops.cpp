#include <QtTest>

#include <functional>
#include <limits>
#include <map>

#include "frontend/onnx/onnx_import.h"
#include "frontend/onnx/onnx_node_context.h"
#include "ir/op.h"
#include "test_files.h"
#include "onnx_golden.h"
#include "test_onnx_builder.h"

using namespace byoc;
using byoc::testing::attr;
using byoc::testing::graphAttr;
using byoc::testing::OnnxModelBuilder;

namespace {

using Build = std::function<OnnxModelBuilder()>;

/// Conv with bias and padding, then Relu: nn.conv2d → nn.bias_add → nn.relu.
OnnxModelBuilder convBiasRelu() {
  OnnxModelBuilder b;
  b.input("x", {1, 3, 8, 8}).rampInitializer("w", {4, 3, 3, 3}).rampInitializer("b", {4}).output("y");
  attr(b.node("Conv", {"x", "w", "b"}, {"c"}, "conv"), "pads", std::vector<int64_t>{1, 1, 1, 1});
  b.node("Relu", {"c"}, {"y"}, "relu");
  return b;
}

/// SAME_UPPER padding with stride 2, dilation and groups.
OnnxModelBuilder convSameUpperGrouped() {
  OnnxModelBuilder b;
  b.input("x", {1, 4, 9, 9}).rampInitializer("w", {8, 2, 3, 3}).output("y");
  auto& conv = b.node("Conv", {"x", "w"}, {"y"}, "conv");
  attr(conv, "auto_pad", "SAME_UPPER");
  attr(conv, "strides", std::vector<int64_t>{2, 2});
  attr(conv, "dilations", std::vector<int64_t>{2, 1});
  attr(conv, "group", int64_t{2});
  return b;
}

/// ConvTranspose (grouped, strided, output padding) with bias, PRelu with a [C, 1, 1] slope, ArgMax.
OnnxModelBuilder convTransposePreluArgmax() {
  OnnxModelBuilder b;
  b.input("x", {1, 4, 5, 5}).rampInitializer("w", {4, 2, 3, 3}).rampInitializer("b", {4});
  b.rampInitializer("slope", {4, 1, 1}).output("y");
  auto& deconv = b.node("ConvTranspose", {"x", "w", "b"}, {"d"}, "deconv");
  attr(deconv, "strides", std::vector<int64_t>{2, 2});
  attr(deconv, "pads", std::vector<int64_t>{1, 1, 1, 1});
  attr(deconv, "output_padding", std::vector<int64_t>{1, 1});
  attr(deconv, "group", int64_t{2});
  b.node("PRelu", {"d", "slope"}, {"p"});
  auto& argmax = b.node("ArgMax", {"p"}, {"y"});
  attr(argmax, "axis", int64_t{1});
  attr(argmax, "keepdims", int64_t{0});
  return b;
}

/// ArgMin keeping the reduced axis and taking the last of equal minima.
OnnxModelBuilder argminLast() {
  OnnxModelBuilder b;
  b.input("x", {2, 3, 4}).output("y");
  auto& argmin = b.node("ArgMin", {"x"}, {"y"});
  attr(argmin, "axis", int64_t{-1});
  attr(argmin, "select_last_index", int64_t{1});
  return b;
}

/// Gemm with transB: nn.dense then add of the bias.
OnnxModelBuilder gemmTransB() {
  OnnxModelBuilder b;
  b.input("x", {1, 4}).rampInitializer("w", {3, 4}).rampInitializer("c", {3}).output("y");
  attr(b.node("Gemm", {"x", "w", "c"}, {"y"}, "fc"), "transB", int64_t{1});
  return b;
}

/// Gemm with transA, an untransposed weight, alpha and beta.
OnnxModelBuilder gemmAlphaBeta() {
  OnnxModelBuilder b;
  b.input("x", {4, 2}).input("w", {4, 3}).rampInitializer("c", {3}).output("y");
  auto& gemm = b.node("Gemm", {"x", "w", "c"}, {"y"}, "fc");
  attr(gemm, "transA", int64_t{1});
  attr(gemm, "alpha", 2.0f);
  attr(gemm, "beta", 0.5f);
  return b;
}

/// MatMul by a constant 2-D weight: nn.dense with the weight transposed at import.
OnnxModelBuilder matmul2d() {
  OnnxModelBuilder b;
  b.input("x", {2, 4}).rampInitializer("w", {4, 3}).output("y");
  b.node("MatMul", {"x", "w"}, {"y"}, "mm");
  return b;
}

/// MatMul of a 3-D input by a 2-D weight: flattened to 2-D for nn.dense, reshaped back.
OnnxModelBuilder matmul3dBy2d() {
  OnnxModelBuilder b;
  b.input("x", {1, 5, 4}).rampInitializer("w", {4, 3}).output("y");
  b.node("MatMul", {"x", "w"}, {"y"}, "mm");
  return b;
}

/// MatMul of two 4-D inputs: reshaped to 3-D for nn.batch_matmul, reshaped back.
OnnxModelBuilder matmulBatched() {
  OnnxModelBuilder b;
  b.input("a", {1, 2, 5, 4}).input("b", {1, 2, 4, 3}).output("y");
  b.node("MatMul", {"a", "b"}, {"y"}, "mm");
  return b;
}

OnnxModelBuilder batchNorm() {
  OnnxModelBuilder b;
  b.input("x", {1, 2, 3, 3}).rampInitializer("gamma", {2}).rampInitializer("beta", {2});
  b.rampInitializer("mean", {2}).rampInitializer("var", {2}).output("y");
  attr(b.node("BatchNormalization", {"x", "gamma", "beta", "mean", "var"}, {"y"}, "bn"), "epsilon", 1e-3f);
  return b;
}

OnnxModelBuilder layerNorm() {
  OnnxModelBuilder b(17);
  b.input("x", {2, 3, 8}).rampInitializer("scale", {8}).rampInitializer("bias", {8}).output("y");
  b.node("LayerNormalization", {"x", "scale", "bias"}, {"y"}, "ln");
  return b;
}

/// Activations and elementwise maths.
OnnxModelBuilder unaryChain() {
  OnnxModelBuilder b;
  b.input("x", {2, 3}).output("y");
  const char* ops[] = {"Sigmoid", "Tanh", "Erf", "Sqrt", "Exp", "Log", "Abs", "Neg", "Floor", "Ceil", "Reciprocal"};
  std::string previous = "x";
  int index = 0;
  for (const char* op : ops) {
    std::string out = ++index == static_cast<int>(std::size(ops)) ? "y" : "t" + std::to_string(index);
    b.node(op, {previous}, {out});
    previous = out;
  }
  return b;
}

/// Broadcasting arithmetic, including Pow with an integer exponent (cast to the base's dtype).
OnnxModelBuilder binaryBroadcast() {
  OnnxModelBuilder b;
  b.input("x", {2, 3}).input("z", {3}).rampInitializer("s", {}).intInitializer("two", {}, {2}).output("y");
  b.node("Add", {"x", "z"}, {"t1"});
  b.node("Sub", {"t1", "s"}, {"t2"});
  b.node("Mul", {"t2", "z"}, {"t3"});
  b.node("Div", {"t3", "s"}, {"t4"});
  b.node("Pow", {"t4", "two"}, {"t5"});
  b.node("Max", {"t5", "x", "z"}, {"t6"});
  b.node("Min", {"t6", "x"}, {"y"});
  return b;
}

/// Comparisons and Where.
OnnxModelBuilder compareWhere() {
  OnnxModelBuilder b;
  b.input("x", {2, 3}).input("z", {2, 3}).output("y");
  b.node("Less", {"x", "z"}, {"lt"});
  b.node("Greater", {"x", "z"}, {"gt"});
  b.node("Or", {"lt", "gt"}, {"ne"});
  b.node("Not", {"ne"}, {"eq"});
  b.node("Where", {"eq", "x", "z"}, {"y"});
  return b;
}

/// Clip with bound inputs (opset 13: min only) and the activations built from it.
OnnxModelBuilder clipActivations() {
  OnnxModelBuilder b;
  b.input("x", {2, 3}).initializer("lo", {}, {0.0f}).initializer("hi", {}, {6.0f}).output("y");
  b.node("Clip", {"x", "lo", "hi"}, {"relu6"});
  b.node("Clip", {"relu6", "lo"}, {"floor0"});
  attr(b.node("LeakyRelu", {"floor0"}, {"leaky"}), "alpha", 0.125f);
  b.node("HardSigmoid", {"leaky"}, {"hsig"});
  b.node("HardSwish", {"hsig"}, {"y"});
  return b;
}

/// Softmax (default axis 1) and LogSoftmax (axis 1) under opset 11, whose semantics flatten the
/// input to 2-D at the axis: a reshape surrounds them.
OnnxModelBuilder softmaxOpsets() {
  OnnxModelBuilder b(11);
  b.input("x", {2, 3, 4}).output("y").output("z");
  b.node("Softmax", {"x"}, {"y"});
  attr(b.node("LogSoftmax", {"x"}, {"z"}), "axis", int64_t{1});
  return b;
}

OnnxModelBuilder pools() {
  OnnxModelBuilder b;
  b.input("x", {1, 2, 9, 9}).output("y").output("g");
  auto& max = b.node("MaxPool", {"x"}, {"m"});
  attr(max, "kernel_shape", std::vector<int64_t>{3, 3});
  attr(max, "strides", std::vector<int64_t>{2, 2});
  attr(max, "ceil_mode", int64_t{1});
  auto& avg = b.node("AveragePool", {"m"}, {"y"});
  attr(avg, "kernel_shape", std::vector<int64_t>{2, 2});
  attr(avg, "pads", std::vector<int64_t>{0, 0, 1, 1});
  attr(avg, "count_include_pad", int64_t{1});
  b.node("GlobalAveragePool", {"x"}, {"ga"});
  b.node("GlobalMaxPool", {"ga"}, {"g"});
  return b;
}

/// Conv on a rank-3 input (nn.conv1d) with bias, strides and SAME_LOWER padding.
OnnxModelBuilder conv1d() {
  OnnxModelBuilder b;
  b.input("x", {1, 2, 9}).rampInitializer("w", {4, 2, 3}).rampInitializer("b", {4}).output("y");
  auto& conv = b.node("Conv", {"x", "w", "b"}, {"y"}, "conv");
  attr(conv, "auto_pad", "SAME_LOWER");
  attr(conv, "strides", std::vector<int64_t>{2});
  return b;
}

/// ConvTranspose on a rank-3 input (nn.conv1d_transpose, as TVM's dimension_picker names it) with
/// bias, strides, pads and output padding.
OnnxModelBuilder convTranspose1d() {
  OnnxModelBuilder b;
  b.input("x", {1, 2, 5}).rampInitializer("w", {2, 3, 3}).rampInitializer("b", {3}).output("y");
  auto& deconv = b.node("ConvTranspose", {"x", "w", "b"}, {"y"}, "deconv");
  attr(deconv, "strides", std::vector<int64_t>{2});
  attr(deconv, "pads", std::vector<int64_t>{1, 1});
  attr(deconv, "output_padding", std::vector<int64_t>{1});
  return b;
}

/// MaxPool and AveragePool on a rank-3 input (nn.max_pool1d, nn.avg_pool1d): ceil mode, and
/// padding counted in the average.
OnnxModelBuilder pools1d() {
  OnnxModelBuilder b;
  b.input("x", {1, 2, 9}).output("y");
  auto& max = b.node("MaxPool", {"x"}, {"m"}, "max");
  attr(max, "kernel_shape", std::vector<int64_t>{2});
  attr(max, "strides", std::vector<int64_t>{2});
  attr(max, "ceil_mode", int64_t{1});
  auto& avg = b.node("AveragePool", {"m"}, {"y"}, "avg");
  attr(avg, "kernel_shape", std::vector<int64_t>{3});
  attr(avg, "pads", std::vector<int64_t>{1, 1});
  attr(avg, "count_include_pad", int64_t{1});
  return b;
}

/// GlobalAveragePool and GlobalMaxPool in 1-D and 3-D: TVM's global_*_pool1d/3d, adaptive pools to
/// an output size of all 1.
OnnxModelBuilder globalPools1d3d() {
  OnnxModelBuilder b;
  b.input("x", {1, 2, 5}).input("v", {1, 2, 3, 4, 5}).output("a").output("m").output("va").output("vm");
  b.node("GlobalAveragePool", {"x"}, {"a"}, "avg1d");
  b.node("GlobalMaxPool", {"x"}, {"m"}, "max1d");
  b.node("GlobalAveragePool", {"v"}, {"va"}, "avg3d");
  b.node("GlobalMaxPool", {"v"}, {"vm"}, "max3d");
  return b;
}

/// The 3-D family: Conv (grouped, padded), MaxPool with ceil_mode, AveragePool counting the
/// padding, ConvTranspose with output padding.
OnnxModelBuilder convPool3d() {
  OnnxModelBuilder b;
  b.input("x", {1, 2, 5, 6, 7}).rampInitializer("w", {4, 1, 3, 3, 3}).rampInitializer("wt", {4, 2, 2, 2, 2}).output("y");
  auto& conv = b.node("Conv", {"x", "w"}, {"c"}, "conv");
  attr(conv, "pads", std::vector<int64_t>{1, 1, 1, 1, 1, 1});
  attr(conv, "group", int64_t{2});
  auto& max = b.node("MaxPool", {"c"}, {"m"}, "max");
  attr(max, "kernel_shape", std::vector<int64_t>{2, 2, 2});
  attr(max, "strides", std::vector<int64_t>{2, 2, 2});
  attr(max, "ceil_mode", int64_t{1});
  auto& avg = b.node("AveragePool", {"m"}, {"a"}, "avg");
  attr(avg, "kernel_shape", std::vector<int64_t>{2, 2, 2});
  attr(avg, "pads", std::vector<int64_t>{0, 0, 0, 1, 1, 1});
  attr(avg, "count_include_pad", int64_t{1});
  auto& deconv = b.node("ConvTranspose", {"a", "wt"}, {"y"}, "deconv");
  attr(deconv, "strides", std::vector<int64_t>{2, 2, 2});
  attr(deconv, "output_padding", std::vector<int64_t>{1, 0, 1});
  return b;
}

/// Einsum as a batch matrix product and as a transpose with a reduction.
OnnxModelBuilder einsum() {
  OnnxModelBuilder b;
  b.input("a", {2, 3, 4}).input("b", {2, 4, 5}).output("y").output("z");
  attr(b.node("Einsum", {"a", "b"}, {"y"}, "bmm"), "equation", "bij,bjk->bik");
  attr(b.node("Einsum", {"a"}, {"z"}, "sum"), "equation", "bij->ji");
  return b;
}

/// Concat, Reshape with a constant shape, Flatten at two axes, Transpose.
OnnxModelBuilder reshaping() {
  OnnxModelBuilder b;
  b.input("x", {1, 2, 3, 4}).input("z", {1, 1, 3, 4}).intInitializer("shape", {3}, {0, -1, 4}).output("y").output("f");
  attr(b.node("Concat", {"x", "z"}, {"cat"}), "axis", int64_t{1});
  b.node("Reshape", {"cat", "shape"}, {"r"});
  attr(b.node("Transpose", {"r"}, {"y"}), "perm", std::vector<int64_t>{0, 2, 1});
  b.node("Flatten", {"x"}, {"f1"});
  attr(b.node("Flatten", {"x"}, {"f"}), "axis", int64_t{2});
  return b;
}

/// Squeeze and Unsqueeze with axes inputs (opset 13).
OnnxModelBuilder squeezeUnsqueeze13() {
  OnnxModelBuilder b;
  b.input("x", {1, 3, 1, 2}).intInitializer("axes", {2}, {0, 2}).intInitializer("new", {2}, {-1, 1}).output("y");
  b.node("Squeeze", {"x", "axes"}, {"s"});
  b.node("Unsqueeze", {"s", "new"}, {"y"});
  return b;
}

/// Squeeze and Unsqueeze with axes attributes (opset 11).
OnnxModelBuilder squeezeUnsqueeze11() {
  OnnxModelBuilder b(11);
  b.input("x", {1, 3, 1, 2}).output("y");
  attr(b.node("Squeeze", {"x"}, {"s"}), "axes", std::vector<int64_t>{2});
  attr(b.node("Unsqueeze", {"s"}, {"y"}), "axes", std::vector<int64_t>{0});
  return b;
}

/// Slice with an "until the end" bound and a negative step; Split into sizes.
OnnxModelBuilder sliceSplit() {
  OnnxModelBuilder b;
  b.input("x", {4, 10}).output("s").output("p0").output("p1");
  b.intInitializer("starts", {2}, {1, -1});
  b.intInitializer("ends", {2}, {std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()});
  b.intInitializer("axes", {2}, {0, 1}).intInitializer("steps", {2}, {1, -2}).intInitializer("sizes", {2}, {3, 7});
  b.node("Slice", {"x", "starts", "ends", "axes", "steps"}, {"s"});
  attr(b.node("Split", {"x", "sizes"}, {"p0", "p1"}), "axis", int64_t{1});
  return b;
}

/// Gather with negative constant indices, made positive at import.
OnnxModelBuilder gatherNegative() {
  OnnxModelBuilder b;
  b.input("x", {5, 3}).intInitializer("idx", {2}, {-1, 0}).output("y");
  attr(b.node("Gather", {"x", "idx"}, {"y"}), "axis", int64_t{0});
  return b;
}

OnnxModelBuilder padReduce() {
  OnnxModelBuilder b;
  b.input("x", {1, 2, 3, 3}).intInitializer("pads", {8}, {0, 0, 1, 2, 0, 0, 1, 2}).initializer("v", {}, {0.5f});
  b.intInitializer("axes", {1}, {1}).output("m").output("s");
  b.node("Pad", {"x", "pads", "v"}, {"p"});
  auto& mean = b.node("ReduceMean", {"p"}, {"m"});
  attr(mean, "axes", std::vector<int64_t>{2, 3});
  attr(mean, "keepdims", int64_t{0});
  b.node("ReduceSum", {"p", "axes"}, {"s"});
  return b;
}

OnnxModelBuilder castConstantIdentity() {
  OnnxModelBuilder b;
  b.input("x", {2, 2}, onnx::TensorProto::INT32).output("y");
  attr(b.node("Cast", {"x"}, {"f"}), "to", int64_t{onnx::TensorProto::FLOAT});
  attr(b.node("Constant", {}, {"k"}), "value", OnnxModelBuilder::floatTensor("k", {2}, {1.0f, 2.0f}));
  b.node("Identity", {"f"}, {"i"});
  b.node("Dropout", {"i"}, {"d"});
  b.node("Add", {"d", "k"}, {"y"});
  return b;
}

/// The chain exporters write for `x.view(x.size(0), -1)`: Shape → Gather → Unsqueeze → Concat →
/// Reshape, folded to a constant shape at import.
OnnxModelBuilder shapeFolding() {
  OnnxModelBuilder b;
  b.input("x", {2, 3, 4}).intInitializer("zero", {}, {0}).intInitializer("minus1", {1}, {-1});
  b.intInitializer("axes", {1}, {0}).output("y");
  b.node("Shape", {"x"}, {"shape"});
  b.node("Gather", {"shape", "zero"}, {"batch"});
  b.node("Unsqueeze", {"batch", "axes"}, {"batch1"});
  attr(b.node("Concat", {"batch1", "minus1"}, {"target"}), "axis", int64_t{0});
  b.node("Reshape", {"x", "target"}, {"y"});
  return b;
}

/// Shape arithmetic as exporters write it for `x.reshape(x.shape[0], x.shape[1] * x.shape[2])`,
/// with the zero-guard of `reshape`: every integer node folds and Reshape gets [2, 12].
OnnxModelBuilder shapeArithmeticFolding() {
  OnnxModelBuilder b;
  b.input("x", {2, 3, 4}).output("y");
  b.intInitializer("s0", {1}, {0}).intInitializer("e0", {1}, {1}).intInitializer("i1", {}, {1});
  b.intInitializer("i2", {}, {2}).intInitializer("axes", {1}, {0}).intInitializer("one", {}, {1});
  b.node("Shape", {"x"}, {"shape"});
  b.node("Slice", {"shape", "s0", "e0"}, {"first"});
  b.node("Gather", {"shape", "i1"}, {"h"});
  b.node("Gather", {"shape", "i2"}, {"w"});
  b.node("Mul", {"h", "w"}, {"hw"});
  attr(b.node("Cast", {"hw"}, {"hw32"}), "to", int64_t{onnx::TensorProto::INT32});
  attr(b.node("Cast", {"hw32"}, {"hw64"}), "to", int64_t{onnx::TensorProto::INT64});
  b.node("Unsqueeze", {"hw64", "axes"}, {"hw1"});
  attr(b.node("Concat", {"first", "hw1"}, {"target"}), "axis", int64_t{0});
  b.node("Shape", {"target"}, {"targetShape"});
  onnx::TensorProto zero;
  zero.set_data_type(onnx::TensorProto::INT64);
  zero.add_dims(1);
  zero.add_int64_data(0);
  attr(b.node("ConstantOfShape", {"targetShape"}, {"zeros"}), "value", zero);
  b.node("Equal", {"target", "zeros"}, {"isZero"});
  b.node("Where", {"isZero", "one", "target"}, {"guarded"});
  b.node("Reshape", {"x", "guarded"}, {"y"});
  return b;
}

/// Shape arithmetic on an input of unknown batch, as exporters write `x.reshape(x.shape[0], -1)`
/// spelled with sizes: Shape is the run-time shape_of, its known sizes fold (3 * 4 = 12), and the
/// target with one unknown size becomes a static reshape with -1.
OnnxModelBuilder dynamicShapeArithmetic() {
  OnnxModelBuilder b;
  b.input("x", {testing::kSymbolicDim, 3, 4}).output("y");
  b.intInitializer("i0", {}, {0}).intInitializer("i1", {}, {1}).intInitializer("i2", {}, {2}).intInitializer("axes", {1}, {0});
  b.node("Shape", {"x"}, {"shape"});
  b.node("Gather", {"shape", "i0"}, {"n"});
  b.node("Gather", {"shape", "i1"}, {"h"});
  b.node("Gather", {"shape", "i2"}, {"w"});
  b.node("Mul", {"h", "w"}, {"hw"});
  b.node("Unsqueeze", {"n", "axes"}, {"n1"});
  b.node("Unsqueeze", {"hw", "axes"}, {"hw1"});
  attr(b.node("Concat", {"n1", "hw1"}, {"target"}), "axis", int64_t{0});
  b.node("Reshape", {"x", "target"}, {"y"});
  return b;
}

/// A Reshape target with two sizes known only at run time ([d1, d0, 4] of an input (d0, d1, 4)):
/// shape_of, take, expand_dims and concatenate compute it, and dyn.reshape reshapes to it.
OnnxModelBuilder dynamicReshape() {
  OnnxModelBuilder b;
  b.input("x", {testing::kSymbolicDim, testing::kSymbolicDim, 4}).output("y");
  b.intInitializer("i0", {}, {0}).intInitializer("i1", {}, {1}).intInitializer("four", {1}, {4}).intInitializer("axes", {1}, {0});
  b.node("Shape", {"x"}, {"shape"});
  b.node("Gather", {"shape", "i0"}, {"a"});
  b.node("Gather", {"shape", "i1"}, {"b"});
  b.node("Unsqueeze", {"b", "axes"}, {"b1"});
  b.node("Unsqueeze", {"a", "axes"}, {"a1"});
  attr(b.node("Concat", {"b1", "a1", "four"}, {"target"}), "axis", int64_t{0});
  b.node("Reshape", {"x", "target"}, {"y"});
  return b;
}

/// An encoder's projection on a sequence of unknown length: MatMul by a 2-D weight flattens to
/// nn.dense and reshapes back with -1; the bias add and softmax keep the unknown length, and
/// Shape with start=1 of it is the known tail (1, 3), a constant.
OnnxModelBuilder dynamicSequenceProjection() {
  OnnxModelBuilder b;
  b.input("x", {testing::kSymbolicDim, 1, 4}).rampInitializer("w", {4, 3}).rampInitializer("bias", {3}).output("y").output("tail");
  b.node("MatMul", {"x", "w"}, {"mm"});
  b.node("Add", {"bias", "mm"}, {"biased"});
  attr(b.node("Softmax", {"biased"}, {"y"}), "axis", int64_t{-1});
  attr(b.node("Shape", {"y"}, {"tail"}), "start", int64_t{1});
  return b;
}

/// NonZero: argwhere (rows of indices, as many as non-zero elements), cast to int64 and transposed
/// to ONNX's [rank, count].
OnnxModelBuilder nonZero() {
  OnnxModelBuilder b;
  b.input("x", {2, 3}).output("y");
  b.node("NonZero", {"x"}, {"y"});
  return b;
}

/// If: both branches read x from the enclosing graph and have their own initializer; the IR's
/// `if` gets the condition reshaped from [1] to a scalar, and each branch's two outputs as a
/// tuple, taken apart after it.
OnnxModelBuilder ifBranches() {
  OnnxModelBuilder b;
  b.input("c", {1}, onnx::TensorProto::BOOL).input("x", {2, 3}).output("y").output("z");
  onnx::NodeProto& node = b.node("If", {"c"}, {"y", "z"}, "branch");
  for (const char* name : {"then_branch", "else_branch"}) {
    onnx::GraphProto* graph = graphAttr(node, name);
    const bool then = std::string(name) == "then_branch";
    *graph->add_initializer() = OnnxModelBuilder::floatTensor(std::string(name) + "_k", {}, {then ? 2.0f : -1.0f});
    onnx::NodeProto* first = graph->add_node();
    first->set_op_type(then ? "Relu" : "Neg");
    first->add_input("x");
    first->add_output(std::string(name) + "_a");
    onnx::NodeProto* second = graph->add_node();
    second->set_op_type("Mul");
    second->add_input(std::string(name) + "_a");
    second->add_input(std::string(name) + "_k");
    second->add_output(std::string(name) + "_b");
    graph->add_output()->set_name(std::string(name) + "_a");
    graph->add_output()->set_name(std::string(name) + "_b");
  }
  return b;
}

/// Layer normalisation and GELU as opset-13 exporters write them, op by op.
OnnxModelBuilder layerNormGeluSubgraph() {
  OnnxModelBuilder b;
  b.input("x", {1, 4, 8}).initializer("two", {}, {2.0f}).initializer("eps", {}, {1e-5f});
  b.initializer("sqrt2", {}, {1.4142135f}).initializer("one", {}, {1.0f}).initializer("half", {}, {0.5f});
  b.output("y");
  attr(b.node("ReduceMean", {"x"}, {"mu"}), "axes", std::vector<int64_t>{-1});
  b.node("Sub", {"x", "mu"}, {"d"});
  b.node("Pow", {"d", "two"}, {"d2"});
  attr(b.node("ReduceMean", {"d2"}, {"var"}), "axes", std::vector<int64_t>{-1});
  b.node("Add", {"var", "eps"}, {"ve"});
  b.node("Sqrt", {"ve"}, {"sd"});
  b.node("Div", {"d", "sd"}, {"n"});
  b.node("Div", {"n", "sqrt2"}, {"g1"});
  b.node("Erf", {"g1"}, {"g2"});
  b.node("Add", {"g2", "one"}, {"g3"});
  b.node("Mul", {"n", "g3"}, {"g4"});
  b.node("Mul", {"g4", "half"}, {"y"});
  return b;
}

/// Resize by scales (nearest) and to sizes (linear).
OnnxModelBuilder resize() {
  OnnxModelBuilder b;
  b.input("x", {1, 2, 4, 4}).initializer("scales", {4}, {1.0f, 1.0f, 2.0f, 2.0f});
  b.intInitializer("sizes", {4}, {1, 2, 3, 5}).output("n").output("l");
  auto& nearest = b.node("Resize", {"x", "", "scales"}, {"n"});
  attr(nearest, "mode", "nearest");
  attr(nearest, "nearest_mode", "floor");
  attr(nearest, "coordinate_transformation_mode", "asymmetric");
  attr(b.node("Resize", {"x", "", "", "sizes"}, {"l"}), "mode", "linear");
  return b;
}

/// A small conv net: conv → batch norm → relu → max pool → conv → relu → global pool → flatten →
/// gemm → softmax.
OnnxModelBuilder smallConvNet() {
  OnnxModelBuilder b;
  b.input("image", {1, 3, 16, 16}).output("probs");
  b.rampInitializer("conv1.w", {8, 3, 3, 3}).rampInitializer("conv1.b", {8});
  b.rampInitializer("bn.gamma", {8}).rampInitializer("bn.beta", {8}).rampInitializer("bn.mean", {8});
  b.rampInitializer("bn.var", {8}).rampInitializer("conv2.w", {16, 8, 3, 3}).rampInitializer("fc.w", {10, 16});
  b.rampInitializer("fc.b", {10});
  auto& conv1 = b.node("Conv", {"image", "conv1.w", "conv1.b"}, {"c1"}, "conv1");
  attr(conv1, "pads", std::vector<int64_t>{1, 1, 1, 1});
  attr(conv1, "strides", std::vector<int64_t>{2, 2});
  b.node("BatchNormalization", {"c1", "bn.gamma", "bn.beta", "bn.mean", "bn.var"}, {"n1"}, "bn");
  b.node("Relu", {"n1"}, {"r1"}, "relu1");
  auto& pool = b.node("MaxPool", {"r1"}, {"p1"}, "pool");
  attr(pool, "kernel_shape", std::vector<int64_t>{2, 2});
  attr(pool, "strides", std::vector<int64_t>{2, 2});
  b.node("Conv", {"p1", "conv2.w"}, {"c2"}, "conv2");
  b.node("Relu", {"c2"}, {"r2"}, "relu2");
  b.node("GlobalAveragePool", {"r2"}, {"g"}, "gap");
  b.node("Flatten", {"g"}, {"f"}, "flatten");
  attr(b.node("Gemm", {"f", "fc.w", "fc.b"}, {"logits"}, "fc"), "transB", int64_t{1});
  b.node("Softmax", {"logits"}, {"probs"}, "softmax");
  return b;
}

/// Expand (broadcast both ways) and Tile with constant repeats.
OnnxModelBuilder expandTile() {
  OnnxModelBuilder b;
  b.input("x", {3, 1}).intInitializer("shape", {3}, {2, 1, 4}).intInitializer("repeats", {2}, {2, 3});
  b.output("e").output("t");
  b.node("Expand", {"x", "shape"}, {"e"}, "expand");
  b.node("Tile", {"x", "repeats"}, {"t"}, "tile");
  return b;
}

/// TopK of the smallest, and CumSum both exclusive and reversed.
OnnxModelBuilder topkCumsum() {
  OnnxModelBuilder b;
  b.input("x", {2, 5}).intInitializer("k", {1}, {3}).intInitializer("axis", {}, {1});
  b.output("values").output("indices").output("sums");
  auto& topk = b.node("TopK", {"x", "k"}, {"values", "indices"}, "topk");
  attr(topk, "largest", int64_t{0});
  auto& cumsum = b.node("CumSum", {"x", "axis"}, {"sums"}, "cumsum");
  attr(cumsum, "exclusive", int64_t{1});
  attr(cumsum, "reverse", int64_t{1});
  return b;
}

/// GatherND with a batch axis and ScatterND with an add reduction (opset 16).
OnnxModelBuilder gatherScatterNd() {
  OnnxModelBuilder b(16);
  b.input("x", {2, 3, 4}).input("d", {4, 3}).input("u", {2, 3});
  b.intInitializer("gi", {2, 1}, {2, 0}).intInitializer("si", {2, 1}, {3, 1}).output("g").output("s");
  attr(b.node("GatherND", {"x", "gi"}, {"g"}, "gather_nd"), "batch_dims", int64_t{1});
  attr(b.node("ScatterND", {"d", "si", "u"}, {"s"}, "scatter_nd"), "reduction", "add");
  return b;
}

/// Range of constant bounds, integer and floating-point, folded to constants.
OnnxModelBuilder constantRanges() {
  OnnxModelBuilder b;
  b.input("x", {4}).intInitializer("start", {}, {0}).intInitializer("limit", {}, {10}).intInitializer("delta", {}, {3});
  b.initializer("fstart", {}, {1.0f}).initializer("flimit", {}, {2.0f}).initializer("fdelta", {}, {0.25f});
  b.output("y").output("i");
  b.node("Range", {"start", "limit", "delta"}, {"i"}, "int_range");
  b.node("Range", {"fstart", "flimit", "fdelta"}, {"f"}, "float_range");
  b.node("Add", {"x", "f"}, {"y"});
  return b;
}

/// RoiAlign (opset 13: output_half_pixel), its batch indices joined to the regions.
OnnxModelBuilder roiAlign() {
  OnnxModelBuilder b;
  b.input("x", {2, 3, 8, 8}).input("rois", {4, 4}).input("batch", {4}, onnx::TensorProto::INT64).output("y");
  auto& node = b.node("RoiAlign", {"x", "rois", "batch"}, {"y"}, "roi_align");
  attr(node, "output_height", int64_t{2});
  attr(node, "output_width", int64_t{3});
  attr(node, "sampling_ratio", int64_t{2});
  attr(node, "spatial_scale", 0.25f);
  return b;
}

/// An int64 tensor named `name`, for attributes and branch initializers.
onnx::TensorProto int64Tensor(const std::string& name, const std::vector<int64_t>& shape, const std::vector<int64_t>& values) {
  onnx::TensorProto tensor;
  tensor.set_name(name);
  tensor.set_data_type(onnx::TensorProto::INT64);
  for (int64_t d : shape) tensor.add_dims(d);
  for (int64_t v : values) tensor.add_int64_data(v);
  return tensor;
}

/// What torchvision's detection post-processing exports: TopK whose K is computed from a run-time
/// count (dyn.topk), ConstantOfShape of a run-time shape (dyn.full), Slice of an axis of unknown
/// size, and NonMaxSuppression (all_class_non_max_suppression, its filled rows sliced out by
/// dyn.strided_slice) inside an If whose branches give (0) and (?) rows (the if gives (?)).
OnnxModelBuilder detectionPostProcessing() {
  OnnxModelBuilder b;
  b.input("scores", {testing::kSymbolicDim}).input("boxes", {1, 6, 4}).input("nms_scores", {1, 1, 6});
  b.intInitializer("limit", {1}, {3}).intInitializer("zero", {1}, {0}).intInitializer("end", {1}, {2});
  b.intInitializer("max_out", {1}, {100}).initializer("iou", {1}, {0.5f});
  b.input("empty", {}, onnx::TensorProto::BOOL);
  b.output("top").output("top_i").output("labels").output("first").output("keep");
  b.node("Shape", {"scores"}, {"n"});
  attr(b.node("Concat", {"limit", "n"}, {"both"}), "axis", int64_t{0});
  attr(b.node("ReduceMin", {"both"}, {"k"}), "keepdims", int64_t{1});
  b.node("TopK", {"scores", "k"}, {"top", "top_i"}, "topk");
  auto& full = b.node("ConstantOfShape", {"n"}, {"labels"}, "labels");
  attr(full, "value", int64Tensor("v", {1}, {7}));
  b.node("Slice", {"scores", "zero", "end"}, {"first"}, "slice");
  onnx::NodeProto& node = b.node("If", {"empty"}, {"keep"}, "branch");
  for (const char* name : {"then_branch", "else_branch"}) {
    onnx::GraphProto* graph = graphAttr(node, name);
    graph->add_output()->set_name(std::string(name) + "_keep");
    if (std::string(name) == "then_branch") {
      *graph->add_initializer() = int64Tensor("then_branch_keep", {0, 3}, {});
      continue;
    }
    onnx::NodeProto* nms = graph->add_node();
    nms->set_op_type("NonMaxSuppression");
    for (const char* input : {"boxes", "nms_scores", "max_out", "iou"}) nms->add_input(input);
    nms->add_output("else_branch_keep");
  }
  return b;
}

/// Pads computed in float, as torchvision's transform computes them: ceil(max(sizes) / 32) * 32
/// minus the size, folded at import into Pad's constant pads.
OnnxModelBuilder floatSizeArithmetic() {
  OnnxModelBuilder b;
  b.input("x", {1, 2, 30, 20}).initializer("sizes", {2}, {30.0f, 20.0f}).initializer("stride", {}, {32.0f});
  b.intInitializer("size", {1}, {30});
  b.output("y");
  attr(b.node("ReduceMax", {"sizes"}, {"largest"}), "keepdims", int64_t{0});
  b.node("Div", {"largest", "stride"}, {"blocks"});
  b.node("Ceil", {"blocks"}, {"whole"});
  b.node("Mul", {"whole", "stride"}, {"padded"});
  attr(b.node("Cast", {"padded"}, {"padded_int"}), "to", int64_t{onnx::TensorProto::INT64});
  b.intInitializer("zero_axis", {1}, {0});
  b.node("Unsqueeze", {"padded_int", "zero_axis"}, {"padded_1"});
  b.node("Sub", {"padded_1", "size"}, {"extra"});
  b.intInitializer("head", {7}, {0, 0, 0, 0, 0, 0, 0});
  attr(b.node("Concat", {"head", "extra"}, {"pads"}), "axis", int64_t{0});
  b.node("Pad", {"x", "pads"}, {"y"}, "pad");
  return b;
}

/// Float casts of constants fold where the value fits (0.5 to bool is true, -2.7 to int64 is -2);
/// 3e10 does not fit int32 and stays a cast, computed at run time.
OnnxModelBuilder floatCasts() {
  OnnxModelBuilder b;
  b.initializer("half", {1}, {0.5f}).initializer("negative", {1}, {-2.7f}).initializer("huge", {1}, {3e10f});
  b.output("flag").output("count").output("overflow");
  attr(b.node("Cast", {"half"}, {"flag"}), "to", int64_t{onnx::TensorProto::BOOL});
  attr(b.node("Cast", {"negative"}, {"count"}), "to", int64_t{onnx::TensorProto::INT64});
  attr(b.node("Cast", {"huge"}, {"overflow"}), "to", int64_t{onnx::TensorProto::INT32});
  return b;
}

/// Expand, Tile and Range whose sizes are computed at run time: dyn.broadcast_to, dyn.tile and
/// arange of the bounds reshaped to scalars, as TVM's importer writes them.
OnnxModelBuilder runTimeSizes() {
  OnnxModelBuilder b;
  b.input("x", {2, 1}).input("shape", {2}, onnx::TensorProto::INT64).input("reps", {2}, onnx::TensorProto::INT64);
  b.input("limit", {1}, onnx::TensorProto::INT64).intInitializer("start", {}, {0}).intInitializer("delta", {}, {2});
  b.output("expanded").output("tiled").output("range");
  b.node("Expand", {"x", "shape"}, {"expanded"}, "expand");
  b.node("Tile", {"x", "reps"}, {"tiled"}, "tile");
  b.node("Range", {"start", "limit", "delta"}, {"range"}, "range");
  return b;
}

/// torch's F.pad export: its (begin, end) pairs, last axis first, reordered into ONNX's pads by
/// Reshape, a reversing Slice of the 2-D constant, Transpose and Reshape, all folded at import.
OnnxModelBuilder padsReordered() {
  OnnxModelBuilder b;
  b.input("x", {1, 2, 3}).intInitializer("torch_pads", {6}, {0, 2, 1, 0, 0, 0});
  b.intInitializer("pairs", {2}, {-1, 2}).intInitializer("flat", {1}, {-1});
  b.intInitializer("start", {1}, {-1}).intInitializer("stop", {1}, {std::numeric_limits<int64_t>::min() + 1});
  b.intInitializer("axis", {1}, {0}).intInitializer("step", {1}, {-1});
  b.output("y");
  b.node("Reshape", {"torch_pads", "pairs"}, {"p2"});
  b.node("Slice", {"p2", "start", "stop", "axis", "step"}, {"reversed"});
  attr(b.node("Transpose", {"reversed"}, {"columns"}), "perm", std::vector<int64_t>{1, 0});
  b.node("Reshape", {"columns", "flat"}, {"pads"});
  b.node("Pad", {"x", "pads"}, {"y"}, "pad");
  return b;
}

/// What opsets 18 to 20 changed: reduction axes and Pad's axes as inputs, Split's num_outputs,
/// Resize's axes, and Gelu in both forms.
OnnxModelBuilder opsets18To20() {
  OnnxModelBuilder b(20);
  b.input("x", {1, 2, 5, 4}).intInitializer("axes", {1}, {-1}).intInitializer("pads", {2}, {1, 2});
  b.intInitializer("pad_axes", {1}, {2}).initializer("scales", {2}, {2.0f, 0.5f});
  b.output("mean").output("p").output("s0").output("s1").output("s2").output("r").output("g").output("t");
  b.node("ReduceMean", {"x", "axes"}, {"mean"}, "mean");
  b.node("Pad", {"x", "pads", "", "pad_axes"}, {"p"}, "pad");
  auto& split = b.node("Split", {"x"}, {"s0", "s1", "s2"}, "split");
  attr(split, "axis", int64_t{2});
  attr(split, "num_outputs", int64_t{3});
  attr(b.node("Resize", {"x", "", "scales"}, {"r"}, "resize"), "axes", std::vector<int64_t>{2, 3});
  b.node("Gelu", {"x"}, {"g"}, "gelu");
  attr(b.node("Gelu", {"x"}, {"t"}, "gelu_tanh"), "approximate", "tanh");
  return b;
}

const std::map<QString, Build>& cases() {
  static const std::map<QString, Build> table = {
      {QStringLiteral("conv_bias_relu"), convBiasRelu},
      {QStringLiteral("conv_same_upper_grouped"), convSameUpperGrouped},
      {QStringLiteral("conv_transpose_prelu_argmax"), convTransposePreluArgmax},
      {QStringLiteral("argmin_last"), argminLast},
      {QStringLiteral("gemm_trans_b"), gemmTransB},
      {QStringLiteral("gemm_alpha_beta"), gemmAlphaBeta},
      {QStringLiteral("matmul_2d"), matmul2d},
      {QStringLiteral("matmul_3d_by_2d"), matmul3dBy2d},
      {QStringLiteral("matmul_batched"), matmulBatched},
      {QStringLiteral("batch_norm"), batchNorm},
      {QStringLiteral("layer_norm"), layerNorm},
      {QStringLiteral("unary_chain"), unaryChain},
      {QStringLiteral("binary_broadcast"), binaryBroadcast},
      {QStringLiteral("compare_where"), compareWhere},
      {QStringLiteral("clip_activations"), clipActivations},
      {QStringLiteral("softmax_opsets"), softmaxOpsets},
      {QStringLiteral("pools"), pools},
      {QStringLiteral("conv1d"), conv1d},
      {QStringLiteral("conv_transpose_1d"), convTranspose1d},
      {QStringLiteral("global_pools_1d_3d"), globalPools1d3d},
      {QStringLiteral("conv_pool_3d"), convPool3d},
      {QStringLiteral("pools_1d"), pools1d},
      {QStringLiteral("einsum"), einsum},
      {QStringLiteral("reshaping"), reshaping},
      {QStringLiteral("squeeze_unsqueeze_13"), squeezeUnsqueeze13},
      {QStringLiteral("squeeze_unsqueeze_11"), squeezeUnsqueeze11},
      {QStringLiteral("slice_split"), sliceSplit},
      {QStringLiteral("gather_negative"), gatherNegative},
      {QStringLiteral("pad_reduce"), padReduce},
      {QStringLiteral("cast_constant_identity"), castConstantIdentity},
      {QStringLiteral("shape_folding"), shapeFolding},
      {QStringLiteral("shape_arithmetic_folding"), shapeArithmeticFolding},
      {QStringLiteral("dynamic_shape_arithmetic"), dynamicShapeArithmetic},
      {QStringLiteral("dynamic_reshape"), dynamicReshape},
      {QStringLiteral("dynamic_sequence_projection"), dynamicSequenceProjection},
      {QStringLiteral("nonzero"), nonZero},
      {QStringLiteral("if_branches"), ifBranches},
      {QStringLiteral("layer_norm_gelu_subgraph"), layerNormGeluSubgraph},
      {QStringLiteral("resize"), resize},
      {QStringLiteral("small_conv_net"), smallConvNet},
      {QStringLiteral("expand_tile"), expandTile},
      {QStringLiteral("topk_cumsum"), topkCumsum},
      {QStringLiteral("gather_scatter_nd"), gatherScatterNd},
      {QStringLiteral("constant_ranges"), constantRanges},
      {QStringLiteral("roi_align"), roiAlign},
      {QStringLiteral("opsets_18_to_20"), opsets18To20},
      {QStringLiteral("detection_post_processing"), detectionPostProcessing},
      {QStringLiteral("float_size_arithmetic"), floatSizeArithmetic},
      {QStringLiteral("pads_reordered"), padsReordered},
      {QStringLiteral("float_casts"), floatCasts},
      {QStringLiteral("run_time_sizes"), runTimeSizes},
  };
  return table;
}

}  // namespace

/// Each ONNX op mapping on a small model built in C++: the imported module, type-checked and
/// printed with types, equals its golden file tests/data/frontend/onnx/<case>.expected.
class TestOnnxOps : public QObject {
  Q_OBJECT

 private slots:
  void importsAsGolden_data() { testing::addGoldenRows(cases()); }
  void importsAsGolden() { testing::checkGoldenRow(cases()); }

  /// Range of constant bounds folds to the values ONNX's definition gives.
  void constantRangesHoldTheirValues() {
    Result<Module> module = importOnnxModel(constantRanges().bytes(), "ranges.onnx", "");
    QVERIFY(module.isOk());
    const auto* outputs = module->find("main")->body->as<TupleNode>();
    QVERIFY(outputs != nullptr);
    const auto* ints = outputs->fields[1]->as<ConstantNode>();
    QVERIFY(ints != nullptr);
    QCOMPARE(onnx_import::tensorToInts(ints->data), (std::vector<int64_t>{0, 3, 6, 9}));
    const auto* floats = outputs->fields[0]->as<CallNode>()->args[1]->as<ConstantNode>();
    QVERIFY(floats != nullptr);
    std::vector<double> values;
    for (int64_t i = 0; i < floats->data.numElements(); ++i) values.push_back(floats->data.elementAsDouble(i));
    QCOMPARE(values, (std::vector<double>{1.0, 1.25, 1.5, 1.75}));
  }

  /// Folded float casts hold the values ONNX gives them.
  void floatCastsHoldTheirValues() {
    Result<Module> module = importOnnxModel(floatCasts().bytes(), "casts.onnx", "");
    QVERIFY(module.isOk());
    const auto* outputs = module->find("main")->body->as<TupleNode>();
    QVERIFY(outputs != nullptr);
    const auto* flag = outputs->fields[0]->as<ConstantNode>();
    const auto* count = outputs->fields[1]->as<ConstantNode>();
    QVERIFY(flag && count);
    QCOMPARE(flag->data.elementAsDouble(0), 1.0);
    QCOMPARE(onnx_import::tensorToInts(count->data), (std::vector<int64_t>{-2}));
  }

  /// Every imported node records its ONNX name and op type; initializers become named constants.
  void provenanceKeepsNamesAndOpTypes() {
    std::string bytes = smallConvNet().bytes();
    Result<Module> module = importOnnxModel(bytes, "net.onnx", "");
    QVERIFY(module.isOk());
    const Provenance& provenance = *module->provenance();
    std::map<std::string, std::string> opTypeByName;
    for (const auto& [id, opType] : provenance.sourceOps) opTypeByName[provenance.names.at(id)] = opType;
    QCOMPARE(opTypeByName.size(), std::size_t{10});
    QCOMPARE(opTypeByName.at("conv1"), std::string("Conv"));
    QCOMPARE(opTypeByName.at("fc"), std::string("Gemm"));
    const auto* call = module->find("main")->body->as<CallNode>();
    QVERIFY(call != nullptr);
    QCOMPARE(call->opDef()->name, std::string("nn.softmax"));
    QCOMPARE(provenance.names.at(call->origin().ids()[0]), std::string("softmax"));
    const auto* bias = call->args[0]->as<CallNode>()->args[1]->as<ConstantNode>();
    QVERIFY(bias != nullptr);
    QCOMPARE(bias->name, std::string("fc.b"));
  }
};

QTEST_GUILESS_MAIN(TestOnnxOps)
#include "test_onnx_ops.moc"
