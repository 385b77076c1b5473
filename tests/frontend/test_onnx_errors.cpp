#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <functional>
#include <limits>

#include "frontend/loader.h"
#include "frontend/onnx/onnx_import.h"
#include "ir/op.h"
#include "support/file_io.h"
#include "onnx_import_errors.h"
#include "text/printer.h"

using namespace byoc;
using byoc::testing::attr;
using byoc::testing::BadModel;
using byoc::testing::importError;
using byoc::testing::graphAttr;
using byoc::testing::OnnxModelBuilder;

namespace {

/// x → Conv(w) → y, the model most error cases start from.
OnnxModelBuilder convModel(int64_t opset = 13) {
  OnnxModelBuilder b(opset);
  b.input("x", {1, 3, 8, 8}).rampInitializer("w", {4, 3, 3, 3}).output("y");
  b.node("Conv", {"x", "w"}, {"y"}, "conv");
  return b;
}


/// 2^32, the element limit of one tensor: three such dimensions make 2^96 elements.
constexpr int64_t kHuge = int64_t{1} << 32;

/// A model with one input `x` of `shape` and one node `op` (named "n") from `inputs` to `y`.
OnnxModelBuilder oneNode(const std::string& op, const std::vector<int64_t>& shape, const std::vector<std::string>& inputs,
                         int64_t opset = 13) {
  OnnxModelBuilder b(opset);
  b.input("x", shape).output("y");
  b.node(op, inputs, {"y"}, "n");
  return b;
}

onnx::NodeProto& lastNode(OnnxModelBuilder& b) {
  return *b.model().mutable_graph()->mutable_node(b.model().graph().node_size() - 1);
}

/// One hostile model and the exact error it must give.
/// Out-of-range values, bad axes, negative and huge dimensions, and malformed graphs.
const std::vector<BadModel>& badModels() {
  static const std::vector<BadModel> cases = {
      {"gather index beyond the axis",
       [] {
         OnnxModelBuilder b = oneNode("Gather", {5, 3}, {"x", "i"});
         b.intInitializer("i", {2}, {1, 7});
         return b;
       },
       "model.onnx: node 'n' (Gather): index 7 is out of range for axis 0 of size 5; expected -5 to 4"},
      {"gather negative index beyond the axis",
       [] {
         OnnxModelBuilder b = oneNode("Gather", {5, 3}, {"x", "i"});
         b.intInitializer("i", {1}, {-6});
         attr(lastNode(b), "axis", int64_t{0});
         return b;
       },
       "model.onnx: node 'n' (Gather): index -6 is out of range for axis 0 of size 5; expected -5 to 4"},
      {"range of a run-time vector",
       [] {
         OnnxModelBuilder b = oneNode("Range", {2}, {"x", "l", "d"});
         b.intInitializer("l", {}, {5}).intInitializer("d", {}, {1});
         return b;
       },
       "model.onnx: node 'n' (Range): Range's input 0 is Tensor[(2), float32]; expected a scalar"},
      {"range of run-time bounds of two dtypes",
       [] {
         OnnxModelBuilder b = oneNode("Range", {}, {"x", "l", "d"});
         b.intInitializer("l", {}, {5}).intInitializer("d", {}, {1});
         return b;
       },
       "model.onnx: node 'n' (Range): arange: start, stop and step must be numeric scalars of one dtype, found float32, "
       "int64 and int64"},
      {"tile of run-time repeats of another length",
       [] {
         OnnxModelBuilder b = oneNode("Tile", {2, 3}, {"x", "r"});
         b.input("r", {3}, onnx::TensorProto::INT64);
         return b;
       },
       "model.onnx: node 'n' (Tile): repeats of type Tensor[(3), int64]: expected 2 counts, one per axis of the input"},
      {"range of zero step",
       [] {
         OnnxModelBuilder b;
         b.intInitializer("s", {}, {0}).intInitializer("l", {}, {5}).intInitializer("d", {}, {0}).output("y");
         b.node("Range", {"s", "l", "d"}, {"y"}, "n");
         return b;
       },
       "model.onnx: node 'n' (Range): Range has a delta of 0; expected a non-zero step"},
      {"range beyond the element limit",
       [] {
         OnnxModelBuilder b;
         b.intInitializer("s", {}, {INT64_MIN}).intInitializer("l", {}, {INT64_MAX}).intInitializer("d", {}, {1}).output("y");
         b.node("Range", {"s", "l", "d"}, {"y"}, "n");
         return b;
       },
       "model.onnx: node 'n' (Range): Range has more than 4294967296 elements (the limit of one tensor)"},
      {"range beyond the folded-constant limit",
       [] {
         OnnxModelBuilder b;
         b.intInitializer("s", {}, {0}).intInitializer("l", {}, {int64_t{1} << 30}).intInitializer("d", {}, {1}).output("y");
         b.node("Range", {"s", "l", "d"}, {"y"}, "n");
         return b;
       },
       "model.onnx: node 'n' (Range): Range has 1073741824 elements: more than 1073741824 bytes (the limit of a folded "
       "constant)"},
      {"topk of zero",
       [] {
         OnnxModelBuilder b = oneNode("TopK", {5}, {"x", "k"});
         b.intInitializer("k", {1}, {0});
         b.model().mutable_graph()->mutable_node(0)->add_output("i");
         return b;
       },
       "model.onnx: node 'n' (TopK): K (0): expected one positive count"},
      {"topk beyond the axis",
       [] {
         OnnxModelBuilder b = oneNode("TopK", {5}, {"x", "k"});
         b.intInitializer("k", {1}, {6});
         b.model().mutable_graph()->mutable_node(0)->add_output("i");
         return b;
       },
       "model.onnx: node 'n' (TopK): topk: k 6 exceeds axis 0 of (5); expected at most 5"},
      {"tile repeats of another rank",
       [] {
         OnnxModelBuilder b = oneNode("Tile", {2, 3}, {"x", "r"});
         b.intInitializer("r", {1}, {2});
         return b;
       },
       "model.onnx: node 'n' (Tile): repeats (2): expected 2 counts, one per axis of the input"},
      {"expand to a shape that does not broadcast",
       [] {
         OnnxModelBuilder b = oneNode("Expand", {2, 3}, {"x", "s"});
         b.intInitializer("s", {2}, {2, 4});
         return b;
       },
       "model.onnx: node 'n' (Expand): Expand: shapes (2, 3) and (2, 4) cannot be broadcast together"},
      {"scatter_nd reduction",
       [] {
         OnnxModelBuilder b = oneNode("ScatterND", {4}, {"x", "i", "x"}, 16);
         b.intInitializer("i", {4, 1}, {0, 1, 2, 3});
         attr(lastNode(b), "reduction", "mean");
         return b;
       },
       "model.onnx: node 'n' (ScatterND): reduction \"mean\"; expected none, add, mul, min or max"},
      {"roi_align half_pixel",
       [] {
         OnnxModelBuilder b = oneNode("RoiAlign", {1, 1, 4, 4}, {"x", "r", "i"}, 16);
         b.input("r", {1, 4}).input("i", {1}, onnx::TensorProto::INT64);
         return b;
       },
       "model.onnx: node 'n' (RoiAlign): coordinate_transformation_mode \"half_pixel\" is not supported; expected "
       "output_half_pixel"},
      {"nms of an unknown box format",
       [] {
         OnnxModelBuilder b = oneNode("NonMaxSuppression", {1, 3, 4}, {"x", "s"});
         b.input("s", {1, 1, 3});
         attr(lastNode(b), "center_point_box", int64_t{2});
         return b;
       },
       "model.onnx: node 'n' (NonMaxSuppression): center_point_box is 2; expected 0 (corner boxes) or 1 (center "
       "boxes)"},
      {"nms of center boxes of the wrong shape",
       [] {
         OnnxModelBuilder b = oneNode("NonMaxSuppression", {1, 3, 5}, {"x", "s"});
         b.input("s", {1, 1, 3});
         attr(lastNode(b), "center_point_box", int64_t{1});
         return b;
       },
       "model.onnx: node 'n' (NonMaxSuppression): boxes must have shape (batches, boxes, 4), found Tensor[(1, 3, 5), "
       "float32]"},
      {"nms threshold of two values",
       [] {
         OnnxModelBuilder b = oneNode("NonMaxSuppression", {1, 3, 4}, {"x", "s", "m", "t"});
         b.input("s", {1, 1, 3}).intInitializer("m", {1}, {5}).initializer("t", {2}, {0.5f, 0.5f});
         return b;
       },
       "model.onnx: node 'n' (NonMaxSuppression): iou_threshold must be one float32, found Tensor[(2), float32]"},
      {"nms boxes of five coordinates",
       [] {
         OnnxModelBuilder b = oneNode("NonMaxSuppression", {1, 3, 5}, {"x", "s"});
         b.input("s", {1, 1, 3});
         return b;
       },
       "model.onnx: node 'n' (NonMaxSuppression): vision.all_class_non_max_suppression: boxes must be floating-point of "
       "shape (batches, boxes, 4), found Tensor[(1, 3, 5), float32]"},
      {"topk of a run-time k of two values",
       [] {
         OnnxModelBuilder b = oneNode("TopK", {5}, {"x", "k"});
         b.input("k", {2}, onnx::TensorProto::INT64);
         b.model().mutable_graph()->mutable_node(0)->add_output("i");
         return b;
       },
       "model.onnx: node 'n' (TopK): dyn.topk: k must be an integer scalar or a tensor of one element, found "
       "Tensor[(2), int64]"},
      {"constant of a run-time shape of unknown length",
       [] {
         OnnxModelBuilder b = oneNode("ConstantOfShape", {testing::kSymbolicDim}, {"x"});
         b.model().mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT64);
         return b;
       },
       "model.onnx: node 'n' (ConstantOfShape): dyn.full: shape must be a 1-D integer tensor of known length, found "
       "Tensor[(?), int64]"},
      {"gather on a folded shape",
       [] {
         OnnxModelBuilder b;
         b.input("x", {2, 3}).intInitializer("i", {}, {2}).output("y");
         b.node("Shape", {"x"}, {"s"}, "shape");
         b.node("Gather", {"s", "i"}, {"y"}, "n");
         return b;
       },
       "model.onnx: node 'n' (Gather): index 2 is out of range for axis 0 of size 2; expected -2 to 1"},
      {"split sizes short of the axis",
       [] {
         OnnxModelBuilder b = oneNode("Split", {6, 2}, {"x", "s"});
         b.intInitializer("s", {2}, {2, 2});
         lastNode(b).add_output("z");
         return b;
       },
       "model.onnx: node 'n' (Split): split sizes (2, 2) add up to 4; expected 6, the size of axis 0"},
      {"split attribute with a negative size",
       [] {
         OnnxModelBuilder b = oneNode("Split", {6}, {"x"}, 11);
         lastNode(b).add_output("z");
         attr(lastNode(b), "split", std::vector<int64_t>{7, -1});
         return b;
       },
       "model.onnx: node 'n' (Split): split size -1 in (7, -1); expected sizes of 0 or more"},
      {"concat axis",
       [] {
         OnnxModelBuilder b = oneNode("Concat", {2, 3}, {"x", "x"});
         attr(lastNode(b), "axis", int64_t{2});
         return b;
       },
       "model.onnx: node 'n' (Concat): axis 2 is out of range for rank 2; expected -2 to 1"},
      {"softmax axis",
       [] {
         OnnxModelBuilder b = oneNode("Softmax", {2, 3}, {"x"});
         attr(lastNode(b), "axis", int64_t{-3});
         return b;
       },
       "model.onnx: node 'n' (Softmax): axis -3 is out of range for rank 2; expected -2 to 1"},
      {"transpose perm repeats an axis",
       [] {
         OnnxModelBuilder b = oneNode("Transpose", {2, 3, 4}, {"x"});
         attr(lastNode(b), "perm", std::vector<int64_t>{0, 2, -1});
         return b;
       },
       "model.onnx: node 'n' (Transpose): axis -1 names axis 2 a second time; expected each axis once"},
      {"transpose perm of another rank",
       [] {
         OnnxModelBuilder b = oneNode("Transpose", {2, 3, 4}, {"x"});
         attr(lastNode(b), "perm", std::vector<int64_t>{1, 0});
         return b;
       },
       "model.onnx: node 'n' (Transpose): perm (1, 0) lists 2 axes; expected 3, the input's rank"},
      {"squeeze axis",
       [] {
         OnnxModelBuilder b = oneNode("Squeeze", {1, 3}, {"x", "a"});
         b.intInitializer("a", {1}, {2});
         return b;
       },
       "model.onnx: node 'n' (Squeeze): axis 2 is out of range for rank 2; expected -2 to 1"},
      {"unsqueeze repeats an axis",
       [] {
         OnnxModelBuilder b = oneNode("Unsqueeze", {3}, {"x", "a"});
         b.intInitializer("a", {2}, {0, -3});
         return b;
       },
       "model.onnx: node 'n' (Unsqueeze): axis -3 names axis 0 a second time; expected each axis once"},
      {"reduce axis",
       [] {
         OnnxModelBuilder b = oneNode("ReduceMean", {2, 3}, {"x"});
         attr(lastNode(b), "axes", std::vector<int64_t>{5});
         return b;
       },
       "model.onnx: node 'n' (ReduceMean): axis 5 is out of range for rank 2; expected -2 to 1"},
      {"flatten axis",
       [] {
         OnnxModelBuilder b = oneNode("Flatten", {2, 3}, {"x"});
         attr(lastNode(b), "axis", int64_t{3});
         return b;
       },
       "model.onnx: node 'n' (Flatten): axis 3 is out of range for rank 2; expected -2 to 2"},
      {"negative input dimension",
       [] {
         OnnxModelBuilder b;
         b.input("x", {2, -3}).output("x");
         return b;
       },
       "model.onnx: graph input 'x': dimension 1 is -3, expected 0 or more (or a symbolic dimension)"},
      {"input of 2^96 elements",
       [] {
         OnnxModelBuilder b;
         b.input("x", {kHuge, kHuge, kHuge}).output("x");
         return b;
       },
       "model.onnx: graph input 'x': shape (4294967296, 4294967296, 4294967296): more than 4294967296 elements (the "
       "limit of one tensor)"},
      {"input of rank 40",
       [] {
         OnnxModelBuilder b;
         b.input("x", std::vector<int64_t>(40, 1)).output("x");
         return b;
       },
       "model.onnx: graph input 'x': rank 40 exceeds the limit of 32 dimensions"},
      {"initializer of 2^96 elements",
       [] {
         OnnxModelBuilder b;
         b.input("x", {1}).initializer("w", {kHuge, kHuge, kHuge}, {}).output("y");
         b.node("Add", {"x", "w"}, {"y"});
         return b;
       },
       "model.onnx: initializer 'w': shape (4294967296, 4294967296, 4294967296): more than 4294967296 elements (the "
       "limit of one tensor)"},
      {"initializer whose byte count wraps",
       [] {
         OnnxModelBuilder b;
         b.input("x", {1}).initializer("w", {int64_t{1} << 31, int64_t{1} << 31, 4}, {}).output("y");
         b.node("Add", {"x", "w"}, {"y"});
         return b;
       },
       "model.onnx: initializer 'w': shape (2147483648, 2147483648, 4): more than 4294967296 elements (the limit of "
       "one tensor)"},
      {"negative initializer dimension",
       [] {
         OnnxModelBuilder b;
         b.input("x", {1}).intInitializer("w", {-1}, {}).output("y");
         b.node("Add", {"x", "w"}, {"y"});
         return b;
       },
       "model.onnx: initializer 'w': shape (-1): dimension 0 is -1, expected 0 or more"},
      {"reshape to a huge shape",
       [] {
         OnnxModelBuilder b = oneNode("Reshape", {2, 3}, {"x", "s"});
         b.intInitializer("s", {3}, {0, kHuge, kHuge});
         return b;
       },
       "model.onnx: node 'n' (Reshape): the new shape (0, 4294967296, 4294967296) gives shape (2, 4294967296, "
       "4294967296): more than 4294967296 elements (the limit of one tensor)"},
      {"reshape with a value below -1",
       [] {
         OnnxModelBuilder b = oneNode("Reshape", {2, 3}, {"x", "s"});
         b.intInitializer("s", {2}, {-3, 2});
         return b;
       },
       "model.onnx: node 'n' (Reshape): shape value -3 at position 0; expected -1, 0 or a size"},
      {"constant of a negative shape",
       [] {
         OnnxModelBuilder b;
         b.intInitializer("s", {2}, {-1, 3}).output("y");
         b.node("ConstantOfShape", {"s"}, {"y"}, "n");
         return b;
       },
       "model.onnx: node 'n' (ConstantOfShape): shape (-1, 3): dimension 0 is -1, expected 0 or more"},
      {"constant of a huge shape",
       [] {
         OnnxModelBuilder b;
         b.intInitializer("s", {3}, {kHuge, kHuge, kHuge}).output("y");
         b.node("ConstantOfShape", {"s"}, {"y"}, "n");
         return b;
       },
       "model.onnx: node 'n' (ConstantOfShape): shape (4294967296, 4294967296, 4294967296): more than 4294967296 "
       "elements (the limit of one tensor)"},
      {"constant beyond the folding limit",
       [] {
         OnnxModelBuilder b;
         b.intInitializer("s", {2}, {65536, 65536}).output("y");
         b.node("ConstantOfShape", {"s"}, {"y"}, "n");
         return b;
       },
       "model.onnx: node 'n' (ConstantOfShape): shape (65536, 65536) of float32: more than 1073741824 bytes (the limit "
       "of a folded constant)"},
      {"pads past int64",
       [] {
         OnnxModelBuilder b = oneNode("Pad", {2}, {"x", "p"});
         b.intInitializer("p", {2}, {std::numeric_limits<int64_t>::max(), 1});
         return b;
       },
       "model.onnx: node 'n' (Pad): pads (9223372036854775807, 1) make axis 0 of size 2 negative or too large"},
      {"pads past the element limit",
       [] {
         OnnxModelBuilder b = oneNode("Pad", {2, 2}, {"x", "p"});
         b.intInitializer("p", {4}, {kHuge, kHuge, 0, 0});
         return b;
       },
       "model.onnx: node 'n' (Pad): pads (4294967296, 4294967296, 0, 0) give shape (4294967298, 4294967298): more "
       "than 4294967296 elements (the limit of one tensor)"},
      {"resize to a negative size",
       [] {
         OnnxModelBuilder b = oneNode("Resize", {1, 1, 2, 2}, {"x", "", "", "s"});
         b.intInitializer("s", {4}, {1, 1, -4, 4});
         return b;
       },
       "model.onnx: node 'n' (Resize): sizes (1, 1, -4, 4) hold a negative size; expected sizes of 0 or more"},
      {"resize by a huge scale",
       [] {
         OnnxModelBuilder b = oneNode("Resize", {1, 1, 2, 2}, {"x", "", "s"});
         b.initializer("s", {4}, {1.0f, 1.0f, 1e30f, 1.0f});
         return b;
       },
       "model.onnx: node 'n' (Resize): scale 1e+30 of axis 2 (size 2) is not "
       "supported; expected a positive number giving at most 4294967296 elements"},
      {"conv stride 0 with auto_pad",
       [] {
         OnnxModelBuilder b = convModel();
         attr(lastNode(b), "strides", std::vector<int64_t>{0, 1});
         attr(lastNode(b), "auto_pad", "SAME_UPPER");
         return b;
       },
       "model.onnx: node 'conv' (Conv): kernel_shape (3, 3), strides (0, 1), dilations (1, 1), pads (0, 0, 0, 0): "
       "expected a positive kernel_shape, strides and dilations, and pads of 0 or more"},
      {"conv dilation past int64",
       [] {
         OnnxModelBuilder b = convModel();
         attr(lastNode(b), "dilations", std::vector<int64_t>{int64_t{1} << 62, 1});
         return b;
       },
       "model.onnx: node 'conv' (Conv): kernel_shape (3, 3), strides (1, 1), dilations (4611686018427387904, 1), "
       "pads (0, 0, 0, 0): the window is too large for an input of size 8"},
      {"conv group 0",
       [] {
         OnnxModelBuilder b = convModel();
         attr(lastNode(b), "group", int64_t{0});
         return b;
       },
       "model.onnx: node 'conv' (Conv): group 0 is not supported; expected a positive number of groups"},
      {"einsum with an ellipsis",
       [] {
         OnnxModelBuilder b = oneNode("Einsum", {2, 3}, {"x"});
         attr(lastNode(b), "equation", "...j->j");
         return b;
       },
       "model.onnx: node 'n' (Einsum): einsum: equation \"...j->j\": ellipsis ('...') is not supported; name every axis"},
      {"conv of rank 6",
       [] {
         OnnxModelBuilder b;
         b.input("x", {1, 1, 2, 2, 2, 2}).rampInitializer("w", {1, 1, 1, 1, 1, 1}).output("y");
         b.node("Conv", {"x", "w"}, {"y"}, "conv");
         return b;
       },
       "model.onnx: node 'conv' (Conv): Conv on an input of rank 6 is not supported; expected 1-D (rank 3), "
       "2-D (rank 4), 3-D (rank 5)"},
      {"conv 3-D with a 2-D weight",
       [] {
         OnnxModelBuilder b;
         b.input("x", {1, 3, 4, 8, 8}).rampInitializer("w", {4, 3, 3, 3}).output("y");
         b.node("Conv", {"x", "w"}, {"y"}, "conv");
         return b;
       },
       "model.onnx: node 'conv' (Conv): the weight must have rank 5, as the input, found 4"},
      {"conv 3-D with 2 strides",
       [] {
         OnnxModelBuilder b;
         b.input("x", {1, 3, 4, 8, 8}).rampInitializer("w", {4, 3, 3, 3, 3}).output("y");
         attr(b.node("Conv", {"x", "w"}, {"y"}, "conv"), "strides", std::vector<int64_t>{2, 2});
         return b;
       },
       "model.onnx: node 'conv' (Conv): strides and dilations must have 3 values and pads 6"},
      {"conv 1-D with a 2-D kernel_shape",
       [] {
         OnnxModelBuilder b;
         b.input("x", {1, 3, 8}).rampInitializer("w", {4, 3, 3}).output("y");
         attr(b.node("Conv", {"x", "w"}, {"y"}, "conv"), "kernel_shape", std::vector<int64_t>{3, 3});
         return b;
       },
       "model.onnx: node 'conv' (Conv): kernel_shape must have 1 values, found 2"},
      {"conv transpose 4-D",
       [] {
         OnnxModelBuilder b;
         b.input("x", {1, 3, 2, 2, 2, 2}).rampInitializer("w", {3, 4, 1, 1, 1, 1}).output("y");
         b.node("ConvTranspose", {"x", "w"}, {"y"}, "n");
         return b;
       },
       "model.onnx: node 'n' (ConvTranspose): ConvTranspose on an input of rank 6 is not supported; expected "
       "1-D (rank 3), 2-D (rank 4), 3-D (rank 5)"},
      {"max pool 4-D",
       [] {
         OnnxModelBuilder b = oneNode("MaxPool", {1, 2, 2, 2, 2, 2}, {"x"});
         attr(lastNode(b), "kernel_shape", std::vector<int64_t>{2, 2, 2, 2});
         return b;
       },
       "model.onnx: node 'n' (MaxPool): MaxPool on an input of rank 6 is not supported; expected 1-D (rank 3), "
       "2-D (rank 4), 3-D (rank 5)"},
      {"conv transpose 3-D with 2 output paddings",
       [] {
         OnnxModelBuilder b;
         b.input("x", {1, 3, 4, 4, 4}).rampInitializer("w", {3, 4, 2, 2, 2}).output("y");
         attr(b.node("ConvTranspose", {"x", "w"}, {"y"}, "n"), "output_padding", std::vector<int64_t>{1, 1});
         return b;
       },
       "model.onnx: node 'n' (ConvTranspose): output_padding must hold 3 values of 0 or more"},
      {"constant with external data",
       [] {
         OnnxModelBuilder b;
         b.output("y");
         onnx::TensorProto value = OnnxModelBuilder::floatTensor("", {1}, {});
         value.clear_raw_data();
         value.set_data_location(onnx::TensorProto::EXTERNAL);
         auto* entry = value.add_external_data();
         entry->set_key("location");
         entry->set_value("/etc/passwd");
         attr(b.node("Constant", {}, {"y"}, "n"), "value", value);
         return b;
       },
       "model.onnx: node 'n' (Constant): attribute 'value' keeps its data outside the model; expected it inside "
       "(external data is supported for initializers)"},
      {"add of one constant operand",
       [] {
         OnnxModelBuilder b;
         b.intInitializer("a", {2}, {1, 2}).output("y");
         b.node("Add", {"a"}, {"y"}, "n");
         return b;
       },
       "model.onnx: node 'n' (Add): missing input 1"},
      {"where of two constant operands",
       [] {
         OnnxModelBuilder b;
         b.intInitializer("a", {2}, {1, 2}).output("y");
         b.node("Where", {"a", "a"}, {"y"}, "n");
         return b;
       },
       "model.onnx: node 'n' (Where): missing input 2"},
      {"gather of one constant operand",
       [] {
         OnnxModelBuilder b;
         b.intInitializer("a", {2}, {1, 2}).output("y");
         b.node("Gather", {"a"}, {"y"}, "n");
         return b;
       },
       "model.onnx: node 'n' (Gather): missing input 1"},
      {"slice without operands",
       [] {
         OnnxModelBuilder b;
         b.output("y");
         b.node("Slice", {}, {"y"}, "n");
         return b;
       },
       "model.onnx: node 'n' (Slice): missing input 0"},
      {"cast without an operand",
       [] {
         OnnxModelBuilder b;
         b.output("y");
         attr(b.node("Cast", {}, {"y"}, "n"), "to", int64_t{7});
         return b;
       },
       "model.onnx: node 'n' (Cast): missing input 0"},
      {"missing required input",
       [] {
         OnnxModelBuilder b = oneNode("BatchNormalization", {1, 2, 2, 2}, {"x", "x"});
         return b;
       },
       "model.onnx: node 'n' (BatchNormalization): missing input 2"},
      {"two nodes write one output",
       [] {
         OnnxModelBuilder b = oneNode("Relu", {2}, {"x"});
         b.node("Neg", {"x"}, {"y"}, "m");
         return b;
       },
       "model.onnx: node 'm' (Neg): output 0 ('y') reuses the name of node 'n' (Relu); expected unique names"},
      {"a node overwrites an initializer",
       [] {
         OnnxModelBuilder b = oneNode("Relu", {2}, {"x"});
         b.initializer("y", {1}, {1.0f});
         return b;
       },
       "model.onnx: node 'n' (Relu): output 0 ('y') reuses the name of initializer #0; expected unique names"},
      {"two graph inputs of one name",
       [] {
         OnnxModelBuilder b = oneNode("Relu", {2}, {"x"});
         b.input("x", {3});
         return b;
       },
       "model.onnx: graph input #1 ('x') reuses the name of graph input #0; expected unique names"},
      {"a cycle",
       [] {
         OnnxModelBuilder b;
         b.input("x", {2}).output("y");
         b.node("Add", {"x", "b"}, {"a"}, "first");
         b.node("Relu", {"a"}, {"b"}, "second");
         b.node("Relu", {"b"}, {"y"}, "third");
         return b;
       },
       "model.onnx: node 'first' (Add): input 'b' is produced by node 'second' (Relu), which does not come before "
       "it; expected nodes in topological order, without cycles"},
      {"initializer without a name",
       [] {
         OnnxModelBuilder b = oneNode("Relu", {2}, {"x"});
         b.initializer("", {1}, {1.0f});
         return b;
       },
       "model.onnx: initializer #0 has no name"},
      {"graph input without a name",
       [] {
         OnnxModelBuilder b = oneNode("Relu", {2}, {"x"});
         b.input("", {2});
         return b;
       },
       "model.onnx: graph input #1 has no name"},
      {"graph output without a name",
       [] {
         OnnxModelBuilder b = oneNode("Relu", {2}, {"x"});
         b.output("");
         return b;
       },
       "model.onnx: graph output #1 has no name"},
      {"cast to an unknown element type",
       [] {
         OnnxModelBuilder b = oneNode("Cast", {2}, {"x"});
         attr(lastNode(b), "to", int64_t{99});
         return b;
       },
       "model.onnx: node 'n' (Cast): unsupported element type 99"},
      {"opset beyond the supported ones", [] { return convModel(21); },
       "model.onnx: opset 21 is not supported; expected 11 to 20"},
      {"split num_outputs beyond the axis",
       [] {
         OnnxModelBuilder b(18);
         b.input("x", {5}).output("a").output("b").output("c").output("d");
         attr(b.node("Split", {"x"}, {"a", "b", "c", "d"}, "n"), "num_outputs", int64_t{4});
         return b;
       },
       "model.onnx: node 'n' (Split): num_outputs 4 cannot split an axis of size 5 into parts of 2 with a smaller last one"},
      {"pads for the listed axes",
       [] {
         OnnxModelBuilder b = oneNode("Pad", {2, 3}, {"x", "p", "", "a"}, 18);
         b.intInitializer("p", {4}, {1, 1, 1, 1}).intInitializer("a", {1}, {1});
         return b;
       },
       "model.onnx: node 'n' (Pad): pads must have 2 values for axes (1), found 4"},
      {"pad wrap",
       [] {
         OnnxModelBuilder b = oneNode("Pad", {2, 3}, {"x", "p"}, 19);
         b.intInitializer("p", {4}, {0, 1, 0, 1});
         attr(lastNode(b), "mode", "wrap");
         return b;
       },
       "model.onnx: node 'n' (Pad): Pad mode \"wrap\" is not supported; expected constant, reflect or edge"},
      {"resize antialias",
       [] {
         OnnxModelBuilder b = oneNode("Resize", {1, 1, 4, 4}, {"x", "", "s"}, 18);
         b.initializer("s", {4}, {1.0f, 1.0f, 0.5f, 0.5f});
         attr(lastNode(b), "antialias", int64_t{1});
         return b;
       },
       "model.onnx: node 'n' (Resize): Resize with antialias is not supported"},
      {"resize half_pixel_symmetric",
       [] {
         OnnxModelBuilder b = oneNode("Resize", {1, 1, 4, 4}, {"x", "", "s"}, 19);
         b.initializer("s", {4}, {1.0f, 1.0f, 2.0f, 2.0f});
         attr(lastNode(b), "coordinate_transformation_mode", "half_pixel_symmetric");
         return b;
       },
       "model.onnx: node 'n' (Resize): Resize coordinate_transformation_mode \"half_pixel_symmetric\" is not supported; "
       "expected half_pixel, pytorch_half_pixel, align_corners, asymmetric or tf_half_pixel_for_nn"},
      {"gelu approximation",
       [] {
         OnnxModelBuilder b = oneNode("Gelu", {4}, {"x"}, 20);
         attr(lastNode(b), "approximate", "sigmoid");
         return b;
       },
       "model.onnx: node 'n' (Gelu): approximate \"sigmoid\"; expected none or tanh"},
      {"if branch without outputs",
       [] {
         OnnxModelBuilder b;
         b.input("c", {}, onnx::TensorProto::BOOL).output("y");
         onnx::NodeProto& node = b.node("If", {"c"}, {"y"}, "branch");
         for (const char* name : {"then_branch", "else_branch"}) graphAttr(node, name);
         return b;
       },
       "model.onnx: node 'branch' (If): then_branch has 0 outputs; expected 1, one per output of If"},
      {"loop with an empty body",
       [] {
         OnnxModelBuilder b;
         b.input("n", {}, onnx::TensorProto::INT64).output("y");
         onnx::NodeProto& node = b.node("Loop", {"n", ""}, {"y"}, "loop");
         graphAttr(node, "body");
         return b;
       },
       "model.onnx: node 'loop' (Loop): body has 0 inputs; expected 2: the iteration number, the condition and the 0 "
       "loop-carried values"},
  };
  return cases;
}

}  // namespace

/// Bad ONNX input: every case gets one precise message naming the file and what was wrong.
class TestOnnxErrors : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

  std::string writeTemp(const QString& name, const std::string& content) {
    std::string path = dir_.filePath(name).toStdString();
    Status written = writeFileAtomic(path, content);
    if (!written) qFatal("cannot write %s", path.c_str());
    return path;
  }

 private slots:
  void badModelsGiveTheirError_data() { addBadModelRows(badModels()); }
  void badModelsGiveTheirError() { checkBadModelRow(badModels()); }

  /// 100,000 axes are refused by the rank they would give before any work proportional to them.
  void unsqueezeOfManyAxesIsRefusedAtOnce() {
    OnnxModelBuilder b = oneNode("Unsqueeze", {3}, {"x", "a"});
    b.intInitializer("a", {100000}, std::vector<int64_t>(100000, 0));
    QCOMPARE(importError(b.bytes()),
             std::string("model.onnx: node 'n' (Unsqueeze): adding 100000 axes to rank 1 exceeds the limit of 32 "
                         "dimensions"));
  }

  /// Shape arithmetic that overflows int64 is left to run time instead of being folded.
  void overflowingShapeArithmeticIsNotFolded() {
    OnnxModelBuilder b;
    b.intInitializer("a", {1}, {std::numeric_limits<int64_t>::max()}).intInitializer("b", {1}, {2}).output("y");
    b.node("Mul", {"a", "b"}, {"y"});
    Result<Module> module = importOnnxModel(b.bytes(), "model.onnx", "");
    QVERIFY2(module.isOk(), module ? "" : module.error().str().c_str());
    const auto* call = module->find("main")->body->as<CallNode>();
    QVERIFY(call != nullptr);
    QCOMPARE(call->opDef()->name, std::string("multiply"));
  }

  /// A step longer than the sliced vector takes one element instead of running the index past int64.
  void sliceStepsBeyondTheAxis() {
    constexpr int64_t kLongest = std::numeric_limits<int64_t>::max();
    OnnxModelBuilder b;
    b.intInitializer("v", {5}, {10, 11, 12, 13, 14}).output("y");
    b.intInitializer("b", {1}, {1}).intInitializer("e", {1}, {kLongest}).intInitializer("a", {1}, {0});
    b.intInitializer("up", {1}, {kLongest}).intInitializer("down", {1}, {std::numeric_limits<int64_t>::min()});
    b.node("Slice", {"v", "b", "e", "a", "up"}, {"forward"});
    b.node("Slice", {"v", "e", "b", "a", "down"}, {"backward"});
    b.node("Concat", {"forward", "backward"}, {"y"});
    attr(lastNode(b), "axis", int64_t{0});
    Result<Module> module = importOnnxModel(b.bytes(), "model.onnx", "");
    QVERIFY2(module.isOk(), module ? "" : module.error().str().c_str());
    const auto* constant = module->find("main")->body->as<ConstantNode>();
    QVERIFY(constant != nullptr);
    QCOMPARE(constant->data.numElements(), int64_t{2});
    QCOMPARE(constant->data.elementAsDouble(0), 11.0);
    QCOMPARE(constant->data.elementAsDouble(1), 14.0);
  }

  /// Symbolic dimensions stay unknown (`?`) and pass the limits.
  void symbolicDimensionsImport() {
    OnnxModelBuilder b;
    b.input("x", {1, 3}).output("y");
    b.model().mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_param("batch");
    b.node("Relu", {"x"}, {"y"});
    Result<Module> module = importOnnxModel(b.bytes(), "model.onnx", "");
    QVERIFY2(module.isOk(), module ? "" : module.error().str().c_str());
    QVERIFY(printModule(*module).find("?") != std::string::npos);
  }

  /// A graph field whose bytes are not a GraphProto fails in protobuf's decoder.
  void undecodableGraph() {
    std::string bytes = std::string("\x08\x08\x3a\x02\xff\xff", 6);
    QCOMPARE(importError(bytes),
             std::string("model.onnx: corrupt ONNX model: the protobuf data inside the model cannot be decoded"));
  }

  void truncatedFileNamesTheCutField() {
    OnnxModelBuilder b = convModel();
    std::string bytes = b.bytes();
    std::string cut = bytes.substr(0, bytes.size() / 2);
    // ir_version takes bytes 0-1 and producer_name ("byoc-tests") bytes 2-13, so the graph starts at 14.
    QCOMPARE(importError(cut), "model.onnx: truncated ONNX model: field graph (" +
                                   std::to_string(b.model().graph().ByteSizeLong()) + " bytes) at byte 14 runs past the end of the " +
                                   std::to_string(cut.size()) + "-byte file");
  }

  /// Every proper prefix of a model is an error, whether it ends inside a field or between two.
  void everyPrefixIsAnError() {
    std::string bytes = convModel().bytes();
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      Result<Module> module = importOnnxModel(std::string_view(bytes).substr(0, n), "model.onnx", "");
      QVERIFY2(!module.isOk(), qPrintable(QStringLiteral("prefix of %1 bytes imported").arg(n)));
    }
  }

  /// A corrupted byte anywhere gives a model or an error with a message, never a crash.
  void corruptedBytesNeverCrash() {
    std::string bytes = convModel().bytes();
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      std::string corrupted = bytes;
      corrupted[i] = static_cast<char>(corrupted[i] ^ 0x5a);
      Result<Module> module = importOnnxModel(corrupted, "model.onnx", "");
      if (!module) QVERIFY(!module.error().message.empty());
    }
  }

  void truncatedInsideAVarint() {
    QCOMPARE(importError(std::string("\x08", 1)),
             std::string("model.onnx: truncated ONNX model: field ir_version at byte 0 runs past the end of the 1-byte file"));
  }

  void textIsNotOnnx() {
    QCOMPARE(importError("hello, world\n"),
             std::string("model.onnx: not an ONNX model: byte 0 starts field 13 of wire type 0, which an ONNX ModelProto "
                         "does not have"));
  }

  void emptyFileIsNotOnnx() { QCOMPARE(importError(""), std::string("model.onnx: not an ONNX model: the file is empty")); }

  void modelWithoutGraph() {
    QCOMPARE(importError(std::string("\x08\x08", 2)), std::string("model.onnx: not an ONNX model: it has no graph"));
  }

  void unsupportedOpsAreListedWithCounts() {
    OnnxModelBuilder b;
    b.input("x", {4}).output("r");
    b.node("Unique", {"x"}, {"t1"});
    b.node("Unique", {"t1"}, {"t2"});
    b.node("SequenceConstruct", {"t2"}, {"n"});
    b.node("FusedConv", {"n"}, {"f"}).set_domain("com.microsoft");
    b.node("Relu", {"f"}, {"r"});
    QCOMPARE(importError(b.bytes()),
             std::string("model.onnx: unsupported ONNX ops in 4 nodes: Unique (2), SequenceConstruct (1), "
                         "com.microsoft.FusedConv (1)"));
  }

  void missingInitializer() {
    OnnxModelBuilder b;
    b.input("x", {1, 3, 8, 8}).output("y");
    b.node("Conv", {"x", "w"}, {"y"}, "conv");
    QCOMPARE(importError(b.bytes()),
             std::string("model.onnx: node 'conv' (Conv): input 'w' is not a graph input, an initializer or the output "
                         "of an earlier node"));
  }

  void wrongAttributeType() {
    OnnxModelBuilder b = convModel();
    attr(*b.model().mutable_graph()->mutable_node(0), "strides", 2.0f);
    QCOMPARE(importError(b.bytes()),
             std::string("model.onnx: node 'conv' (Conv): attribute 'strides' must be INTS, found FLOAT"));
  }

  void missingRequiredAttribute() {
    OnnxModelBuilder b;
    b.input("x", {2}).output("y");
    b.node("Cast", {"x"}, {"y"}, "cast");
    QCOMPARE(importError(b.bytes()), std::string("model.onnx: node 'cast' (Cast): missing attribute 'to'"));
  }

  void unsupportedAttributeValue() {
    OnnxModelBuilder b = convModel();
    attr(*b.model().mutable_graph()->mutable_node(0), "auto_pad", "SAME_SIDEWAYS");
    QCOMPARE(importError(b.bytes()),
             std::string("model.onnx: node 'conv' (Conv): auto_pad \"SAME_SIDEWAYS\" is not supported; expected NOTSET, "
                         "SAME_UPPER, SAME_LOWER or VALID"));
  }

  void unsupportedOpset() {
    QCOMPARE(importError(convModel(9).bytes()), std::string("model.onnx: opset 9 is not supported; expected 11 to 20"));
  }

  /// Slice bounds must be known at import (a Reshape target need not: it becomes dyn.reshape).
  void nonConstantShapeInput() {
    OnnxModelBuilder b;
    b.input("x", {2, 3}).input("starts", {1}, onnx::TensorProto::INT64).intInitializer("ends", {1}, {2}).output("y");
    b.node("Slice", {"x", "starts", "ends"}, {"y"}, "slice");
    QCOMPARE(importError(b.bytes()),
             std::string("model.onnx: node 'slice' (Slice): input 1 ('starts') must be a constant (an initializer or "
                         "a value computable at import)"));
  }

  /// What cannot be typed on an axis of unknown size is refused in one line naming the axis.
  void unknownSizesThatCannotBeImported() {
    OnnxModelBuilder squeeze;
    squeeze.input("x", {testing::kSymbolicDim, 1}).output("y");
    squeeze.node("Squeeze", {"x"}, {"y"}, "squeeze");
    QCOMPARE(importError(squeeze.bytes()),
             std::string("model.onnx: node 'squeeze' (Squeeze): squeeze: without axes, which axes of (?, 1) are removed "
                         "depends on the unknown dimensions; expected the axes listed"));
  }

  void initializerOfTheWrongSize() {
    OnnxModelBuilder b;
    b.input("x", {4}).initializer("w", {4}, {1.0f, 2.0f, 3.0f}).output("y");
    b.node("Add", {"x", "w"}, {"y"});
    QCOMPARE(importError(b.bytes()),
             std::string("model.onnx: initializer 'w': tensor holds 12 bytes, expected 16 for shape (4) of float32"));
  }

  void unsupportedElementType() {
    OnnxModelBuilder b;
    b.input("x", {2}, onnx::TensorProto::STRING).output("x");
    QCOMPARE(importError(b.bytes()), std::string("model.onnx: graph input 'x': unsupported element type STRING"));
  }

  void outputNotProduced() {
    OnnxModelBuilder b = convModel();
    b.output("nope");
    QCOMPARE(importError(b.bytes()), std::string("model.onnx: graph output 'nope' is not produced by any node"));
  }

  void shapesThatDoNotBroadcast() {
    OnnxModelBuilder b;
    b.input("x", {2, 3}).input("z", {4}).output("y");
    b.node("Add", {"x", "z"}, {"y"}, "add");
    QCOMPARE(importError(b.bytes()),
             std::string("model.onnx: node 'add' (Add): add: shapes (2, 3) and (4) cannot be broadcast together"));
  }

  void dropoutMaskIsUnsupported() {
    OnnxModelBuilder b;
    b.input("x", {2}).output("y");
    b.node("Dropout", {"x"}, {"y", "mask"}, "drop");
    QCOMPARE(importError(b.bytes()),
             std::string("model.onnx: node 'drop' (Dropout): the mask output of Dropout is not supported (inference only)"));
  }

  void externalDataIsReadBesideTheModel() {
    float weights[6] = {0.0f, 0.0f, 1.0f, 2.0f, 3.0f, 4.0f};  // the tensor starts 8 bytes in
    std::string raw(reinterpret_cast<const char*>(weights), sizeof(weights));
    writeTemp(QStringLiteral("weights.bin"), raw);
    OnnxModelBuilder b;
    b.input("x", {4}).output("y");
    onnx::TensorProto* w = b.model().mutable_graph()->add_initializer();
    w->set_name("w");
    w->set_data_type(onnx::TensorProto::FLOAT);
    w->add_dims(4);
    w->set_data_location(onnx::TensorProto::EXTERNAL);
    for (auto [key, value] : {std::pair{"location", "weights.bin"}, {"offset", "8"}, {"length", "16"}}) {
      auto* entry = w->add_external_data();
      entry->set_key(key);
      entry->set_value(value);
    }
    b.node("Add", {"x", "w"}, {"y"});
    std::string path = writeTemp(QStringLiteral("external.onnx"), b.bytes());
    Result<Module> module = loadModuleFile(path);
    QVERIFY2(module.isOk(), module ? "" : module.error().str().c_str());
    const auto* constant = module->find("main")->body->as<CallNode>()->args[1]->as<ConstantNode>();
    QVERIFY(constant != nullptr);
    QCOMPARE(constant->name, std::string("w"));
    QCOMPARE(constant->data.elementAsDouble(0), 1.0);
    QCOMPARE(constant->data.elementAsDouble(3), 4.0);

    w->mutable_external_data(0)->set_value("missing.bin");
    path = writeTemp(QStringLiteral("external.onnx"), b.bytes());
    module = loadModuleFile(path);
    QVERIFY(!module.isOk());
    QCOMPARE(module.error().str(), path + ": initializer 'w': cannot open external data file '" +
                                       dir_.filePath(QStringLiteral("missing.bin")).toStdString() + "'");
  }

  void progressHearsEveryNodeAndMayCancel() {
    OnnxModelBuilder b;
    b.input("x", {2}).output("y");
    b.node("Relu", {"x"}, {"a"});
    b.node("Relu", {"a"}, {"b"});
    b.node("Relu", {"b"}, {"y"});
    std::vector<std::pair<std::size_t, std::size_t>> calls;
    Result<Module> module = importOnnxModel(b.bytes(), "model.onnx", "", [&](std::size_t done, std::size_t total) {
      calls.emplace_back(done, total);
      return true;
    });
    QVERIFY(module.isOk());
    QCOMPARE(calls, (std::vector<std::pair<std::size_t, std::size_t>>{{1, 3}, {2, 3}, {3, 3}}));
    Result<Module> cancelled =
        importOnnxModel(b.bytes(), "model.onnx", "", [](std::size_t done, std::size_t) { return done < 2; });
    QVERIFY(!cancelled.isOk());
    QCOMPARE(cancelled.error().str(), std::string("model.onnx: import cancelled after 2 of 3 nodes"));
  }

  void loaderChoosesOnnxByExtensionAndContent() {
    std::string bytes = convModel().bytes();
    Result<Module> byExtension = loadModuleFile(writeTemp(QStringLiteral("net.onnx"), bytes));
    QVERIFY2(byExtension.isOk(), byExtension ? "" : byExtension.error().str().c_str());
    Result<Module> byContent = loadModuleFile(writeTemp(QStringLiteral("net.model"), bytes));
    QVERIFY2(byContent.isOk(), byContent ? "" : byContent.error().str().c_str());
    QCOMPARE(printModule(*byContent), printModule(*byExtension));
    std::string text = writeTemp(QStringLiteral("notes.onnx"), "hello, world\n");
    Result<Module> notOnnx = loadModuleFile(text);
    QVERIFY(!notOnnx.isOk());
    QCOMPARE(notOnnx.error().str(), text + ": not an ONNX model: byte 0 starts field 13 of wire type 0, which an ONNX "
                                           "ModelProto does not have");
  }
};

QTEST_GUILESS_MAIN(TestOnnxErrors)
#include "test_onnx_errors.moc"
