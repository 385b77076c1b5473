#pragma once
/// \file
/// Small ONNX models with Loop and Scan, built in C++, shared by the import tests (golden IR,
/// errors) and the run tests. Each model's comment gives the values ONNX's semantics produce for
/// the inputs the run tests give it, worked out by hand.

#include <limits>
#include <string>
#include <vector>

#include "test_onnx_builder.h"

namespace byoc::testing {

/// Adds to a subgraph (a Loop or Scan body): typed inputs, outputs, nodes and initializers.
class SubgraphBuilder {
 public:
  explicit SubgraphBuilder(onnx::GraphProto* graph) : graph_(graph) {}

  /// A graph input of element type `elemType` and `shape`; no shape at all when `shape` is null.
  SubgraphBuilder& input(const std::string& name, int elemType, const std::vector<int64_t>* shape = nullptr) {
    onnx::ValueInfoProto* info = graph_->add_input();
    info->set_name(name);
    auto* tensor = info->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(elemType);
    if (shape)
      for (int64_t d : *shape) tensor->mutable_shape()->add_dim()->set_dim_value(d);
    return *this;
  }
  SubgraphBuilder& output(const std::string& name) {
    graph_->add_output()->set_name(name);
    return *this;
  }
  onnx::NodeProto& node(const std::string& opType, const std::vector<std::string>& inputs,
                        const std::vector<std::string>& outputs) {
    onnx::NodeProto* node = graph_->add_node();
    node->set_op_type(opType);
    node->set_name(outputs.empty() ? opType : outputs[0]);
    for (const auto& input : inputs) node->add_input(input);
    for (const auto& output : outputs) node->add_output(output);
    return *node;
  }
  SubgraphBuilder& floatInitializer(const std::string& name, const std::vector<int64_t>& shape,
                                    const std::vector<float>& values) {
    *graph_->add_initializer() = OnnxModelBuilder::floatTensor(name, shape, values);
    return *this;
  }
  SubgraphBuilder& intInitializer(const std::string& name, const std::vector<int64_t>& shape,
                                  const std::vector<int64_t>& values) {
    onnx::TensorProto* tensor = graph_->add_initializer();
    tensor->set_name(name);
    tensor->set_data_type(onnx::TensorProto::INT64);
    for (int64_t d : shape) tensor->add_dims(d);
    for (int64_t v : values) tensor->add_int64_data(v);
    return *this;
  }

 private:
  onnx::GraphProto* graph_;
};

inline const std::vector<int64_t> kScalar;

/// Loop with M and cond given, one loop-carried value and one scan output; the body adds x, a
/// value of the enclosing graph, to y and passes the condition on. With M = 3, cond = true,
/// y = [1, 2], x = [0.5, -1]: y_final = [2.5, -1], sums = [[1.5, 1], [2, 0], [2.5, -1]].
inline OnnxModelBuilder loopSum() {
  OnnxModelBuilder b;
  b.input("M", {}, onnx::TensorProto::INT64).input("cond", {}, onnx::TensorProto::BOOL);
  b.input("y", {2}).input("x", {2}).output("y_final").output("sums");
  onnx::NodeProto& loop = b.node("Loop", {"M", "cond", "y"}, {"y_final", "sums"}, "loop");
  SubgraphBuilder body(graphAttr(loop, "body"));
  body.input("i", onnx::TensorProto::INT64, &kScalar).input("cond_in", onnx::TensorProto::BOOL, &kScalar);
  body.input("y_in", onnx::TensorProto::FLOAT).output("cond_out").output("y_out").output("sum");
  body.node("Identity", {"cond_in"}, {"cond_out"});
  body.node("Add", {"y_in", "x"}, {"y_out"});
  body.node("Identity", {"y_out"}, {"sum"});
  return b;
}

/// loopSum whose body runs loopSum's loop again on its sum: the inner loop reads M, cond and x of
/// the main graph, and the outer body's value. Each outer iteration adds x and then M times x,
/// (M + 1)·x in all: with M = 2, cond = true, y = [1, 2], x = [0.5, -1]: y_final = [4, -4],
/// sums = [[2.5, -1], [4, -4]].
inline OnnxModelBuilder loopNested() {
  OnnxModelBuilder b = loopSum();
  onnx::GraphProto* body = b.model().mutable_graph()->mutable_node(0)->mutable_attribute(0)->mutable_g();
  body->mutable_node(1)->set_output(0, "y_mid");
  onnx::NodeProto* inner = body->add_node();
  *inner = loopSum().model().graph().node(0);
  inner->set_name("inner");
  inner->set_input(2, "y_mid");
  inner->set_output(0, "y_out");
  inner->set_output(1, "inner_sums");
  body->mutable_node()->SwapElements(2, 3);  // the inner loop before the Identity reading its result
  return b;
}

/// Loop with an If in its body, whose branches read the body's values: y doubles while the
/// iteration number is below 2, then grows by 1. With M = 4 and y = [1]: 2, 4, 5, 6.
inline OnnxModelBuilder loopWithIf() {
  OnnxModelBuilder b;
  b.input("y", {1}).intInitializer("M", {}, {4}).output("y_final");
  onnx::NodeProto& loop = b.node("Loop", {"M", "", "y"}, {"y_final"}, "loop");
  SubgraphBuilder body(graphAttr(loop, "body"));
  body.input("i", onnx::TensorProto::INT64).input("cond_in", onnx::TensorProto::BOOL);
  body.input("y_in", onnx::TensorProto::FLOAT).output("cond_in").output("y_out");
  body.intInitializer("two", {}, {2});
  body.node("Less", {"i", "two"}, {"early"});
  onnx::NodeProto& branch = body.node("If", {"early"}, {"y_out"});
  SubgraphBuilder then(graphAttr(branch, "then_branch"));
  then.floatInitializer("factor", {}, {2.0f}).output("doubled");
  then.node("Mul", {"y_in", "factor"}, {"doubled"});
  SubgraphBuilder otherwise(graphAttr(branch, "else_branch"));
  otherwise.floatInitializer("one", {}, {1.0f}).output("incremented");
  otherwise.node("Add", {"y_in", "one"}, {"incremented"});
  return b;
}

/// Loop with a constant M = 3 and no cond; the body appends its iteration number to y, so y's
/// length changes every iteration and its variable has `?`. With y = [5]: y_final = [5, 0, 1, 2].
inline OnnxModelBuilder loopGrowing() {
  OnnxModelBuilder b;
  b.input("y", {1}).intInitializer("M", {}, {3}).output("y_final");
  onnx::NodeProto& loop = b.node("Loop", {"M", "", "y"}, {"y_final"}, "loop");
  SubgraphBuilder body(graphAttr(loop, "body"));
  body.input("i", onnx::TensorProto::INT64).input("cond_in", onnx::TensorProto::BOOL);
  body.input("y_in", onnx::TensorProto::FLOAT).output("cond_in").output("y_out");
  body.intInitializer("axes", {1}, {0});
  body.node("Unsqueeze", {"i", "axes"}, {"i1"});
  attr(body.node("Cast", {"i1"}, {"f"}), "to", int64_t{onnx::TensorProto::FLOAT});
  attr(body.node("Concat", {"y_in", "f"}, {"y_out"}), "axis", int64_t{0});
  return b;
}

/// A while loop as PyTorch exports one: M = INT64_MAX and a condition the body computes. y
/// doubles while it stays below 100: with y = 3 it goes 6, 12, 24, 48, 96, 192 and stops there.
inline OnnxModelBuilder loopWhile() {
  OnnxModelBuilder b;
  b.input("y", {}).intInitializer("M", {}, {std::numeric_limits<int64_t>::max()});
  b.model().mutable_graph()->add_initializer()->CopyFrom([] {
    onnx::TensorProto t;
    t.set_name("go");
    t.set_data_type(onnx::TensorProto::BOOL);
    t.add_int32_data(1);
    return t;
  }());
  b.output("y_final");
  onnx::NodeProto& loop = b.node("Loop", {"M", "go", "y"}, {"y_final"}, "loop");
  SubgraphBuilder body(graphAttr(loop, "body"));
  body.input("i", onnx::TensorProto::INT64).input("cond_in", onnx::TensorProto::BOOL);
  body.input("y_in", onnx::TensorProto::FLOAT).output("cond_out").output("y_out");
  body.floatInitializer("two", {}, {2.0f}).floatInitializer("limit", {}, {100.0f});
  body.node("Mul", {"y_in", "two"}, {"y_out"});
  body.node("Less", {"y_out", "limit"}, {"cond_out"});
  return b;
}

/// A loop whose body holds a convolution (1×1, two channels: out0 = in0 + in1, out1 = 2·in1)
/// and a Relu, run twice: the static body offloads. With x = [[[[1]], [[-2]]]]: after one
/// iteration (0, 0) (relu of -1 and -4), after two (0, 0); with x = [[[[3]], [[1]]]]: (4, 2), then
/// (6, 4).
inline OnnxModelBuilder loopConv() {
  OnnxModelBuilder b;
  b.input("x", {1, 2, 1, 1}).intInitializer("M", {}, {2});
  b.initializer("w", {2, 2, 1, 1}, {1.0f, 1.0f, 0.0f, 2.0f}).output("y");
  onnx::NodeProto& loop = b.node("Loop", {"M", "", "x"}, {"y"}, "loop");
  SubgraphBuilder body(graphAttr(loop, "body"));
  body.input("i", onnx::TensorProto::INT64).input("cond_in", onnx::TensorProto::BOOL);
  body.input("x_in", onnx::TensorProto::FLOAT).output("cond_in").output("x_out");
  body.node("Conv", {"x_in", "w"}, {"c"});
  body.node("Relu", {"c"}, {"x_out"});
  return b;
}

/// ONNX's Scan example: running sums of the rows of x (3×2) from [0, 0]. With x = [[1, 2],
/// [3, 4], [5, 6]]: sum = [9, 12], rows = [[1, 2], [4, 6], [9, 12]].
inline OnnxModelBuilder scanSum() {
  OnnxModelBuilder b;
  b.input("init", {2}).input("x", {3, 2}).output("sum").output("rows");
  onnx::NodeProto& scan = b.node("Scan", {"init", "x"}, {"sum", "rows"}, "scan");
  attr(scan, "num_scan_inputs", int64_t{1});
  SubgraphBuilder body(graphAttr(scan, "body"));
  body.input("sum_in", onnx::TensorProto::FLOAT).input("row", onnx::TensorProto::FLOAT);
  body.output("sum_out").output("row_out");
  body.node("Add", {"sum_in", "row"}, {"sum_out"});
  body.node("Identity", {"sum_out"}, {"row_out"});
  return b;
}

/// Scan along axis 1 in reverse, gathering along axis 1 in reverse too. With x = [[1, 2, 3],
/// [4, 5, 6]] the columns come [3, 6], [2, 5], [1, 4]; the sums are [3, 6], [5, 11], [6, 15];
/// prepended as columns they give [[6, 5, 3], [15, 11, 6]], and sum = [6, 15].
inline OnnxModelBuilder scanReverseColumns() {
  OnnxModelBuilder b;
  b.input("init", {2}).input("x", {2, 3}).output("sum").output("columns");
  onnx::NodeProto& scan = b.node("Scan", {"init", "x"}, {"sum", "columns"}, "scan");
  attr(scan, "num_scan_inputs", int64_t{1});
  attr(scan, "scan_input_axes", std::vector<int64_t>{1});
  attr(scan, "scan_input_directions", std::vector<int64_t>{1});
  attr(scan, "scan_output_axes", std::vector<int64_t>{-1});
  attr(scan, "scan_output_directions", std::vector<int64_t>{1});
  SubgraphBuilder body(graphAttr(scan, "body"));
  body.input("sum_in", onnx::TensorProto::FLOAT).input("column", onnx::TensorProto::FLOAT);
  body.output("sum_out").output("column_out");
  body.node("Add", {"sum_in", "column"}, {"sum_out"});
  body.node("Identity", {"sum_out"}, {"column_out"});
  return b;
}

/// A Loop body doubling its loop-carried value, which starts a loop of the same kind on a constant
/// of its own, `depth` levels down: every body is imported twice (its value's type changes once)
/// per import of the body around it.
inline void growingLoops(onnx::GraphProto* graph, int depth) {
  SubgraphBuilder body(graph);
  body.input("i", onnx::TensorProto::INT64).input("c", onnx::TensorProto::BOOL).input("v_in", onnx::TensorProto::FLOAT);
  body.output("c").output("v_out");
  attr(body.node("Concat", {"v_in", "v_in"}, {"v_out"}), "axis", int64_t{0});
  if (depth <= 1) return;
  const std::string start = "start" + std::to_string(depth);
  body.floatInitializer(start, {1}, {1.0f});
  growingLoops(graphAttr(body.node("Loop", {"M", "", start}, {"inner" + std::to_string(depth)}), "body"), depth - 1);
}

/// Loops nested `depth` deep as growingLoops builds them, under a Loop of the main graph.
inline OnnxModelBuilder nestedGrowingLoops(int depth) {
  OnnxModelBuilder b;
  b.input("x", {1}).intInitializer("M", {}, {1}).output("y");
  growingLoops(graphAttr(b.node("Loop", {"M", "", "x"}, {"y"}, "loop"), "body"), depth);
  return b;
}

}  // namespace byoc::testing
