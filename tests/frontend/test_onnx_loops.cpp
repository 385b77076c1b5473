#include <QtTest>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "frontend/onnx/onnx_import.h"
#include "ir/traversal.h"
#include "onnx_golden.h"
#include "onnx_import_errors.h"
#include "onnx_loop_models.h"
#include "test_files.h"

using namespace byoc;
using byoc::testing::attr;
using byoc::testing::BadModel;
using byoc::testing::graphAttr;
using byoc::testing::OnnxModelBuilder;

namespace {

using Build = std::function<OnnxModelBuilder()>;

const std::map<QString, Build>& goldenCases() {
  static const std::map<QString, Build> table = {
      {QStringLiteral("loop_sum"), testing::loopSum},
      {QStringLiteral("loop_growing"), testing::loopGrowing},
      {QStringLiteral("loop_while"), testing::loopWhile},
      {QStringLiteral("loop_conv"), testing::loopConv},
      {QStringLiteral("scan_sum"), testing::scanSum},
      {QStringLiteral("scan_reverse_columns"), testing::scanReverseColumns},
  };
  return table;
}

/// `build()` changed by `change`, which gets the Loop or Scan node (the model's last node).
Build changed(const Build& build, std::function<void(OnnxModelBuilder&, onnx::NodeProto&)> change) {
  return [build, change] {
    OnnxModelBuilder b = build();
    change(b, *b.model().mutable_graph()->mutable_node()->rbegin());
    return b;
  };
}

/// The body of a Loop or Scan node.
onnx::GraphProto& bodyOf(onnx::NodeProto& node) {
  auto& attributes = *node.mutable_attribute();
  auto body = std::find_if(attributes.begin(), attributes.end(), [](const auto& a) { return a.name() == "body"; });
  if (body == attributes.end()) qFatal("the node has no body");
  return *body->mutable_g();
}

/// Sets graph input `name` of the main graph to `shape` and `elemType`.
void retype(OnnxModelBuilder& b, const std::string& name, const std::vector<int64_t>& shape, int elemType) {
  for (auto& input : *b.model().mutable_graph()->mutable_input()) {
    if (input.name() != name) continue;
    auto* tensor = input.mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(elemType);
    tensor->mutable_shape()->clear_dim();
    for (int64_t d : shape) tensor->mutable_shape()->add_dim()->set_dim_value(d);
  }
}

const std::vector<BadModel>& badModels() {
  using testing::loopSum;
  using testing::scanSum;
  static const std::vector<BadModel> cases = {
      {"loop without a body", changed(loopSum, [](auto&, auto& node) { node.clear_attribute(); }),
       "model.onnx: node 'loop' (Loop): missing the graph attribute body"},
      {"loop without M and cond", changed(loopSum, [](auto&, auto& node) {
         node.set_input(0, "");
         node.set_input(1, "");
       }),
       "model.onnx: node 'loop' (Loop): has neither M nor cond, so it would never end; expected at least one of them"},
      {"loop body with an input too few", changed(loopSum, [](auto&, auto& node) { bodyOf(node).mutable_input()->RemoveLast(); }),
       "model.onnx: node 'loop' (Loop): body has 2 inputs; expected 3: the iteration number, the condition and the 1 "
       "loop-carried value"},
      {"loop body without the condition", changed(loopSum, [](auto&, auto& node) { bodyOf(node).clear_output(); }),
       "model.onnx: node 'loop' (Loop): body has 0 outputs; expected at least 2: the condition and the 1 loop-carried "
       "value, then the scan outputs"},
      {"loop with an output too many", changed(loopSum, [](auto&, auto& node) { node.add_output("extra"); }),
       "model.onnx: node 'loop' (Loop): has 3 outputs; expected 2: the 1 final loop-carried value and the 1 scan output "
       "of its body"},
      {"loop M of two elements", changed(loopSum, [](auto& b, auto&) { retype(b, "M", {2}, onnx::TensorProto::INT64); }),
       "model.onnx: node 'loop' (Loop): M (the trip count) must be a tensor of one int64 element, found "
       "Tensor[(2), int64]"},
      {"loop M of float", changed(loopSum, [](auto& b, auto&) { retype(b, "M", {}, onnx::TensorProto::FLOAT); }),
       "model.onnx: node 'loop' (Loop): M (the trip count) must be a tensor of one int64 element, found float32"},
      {"loop cond of int32", changed(loopSum, [](auto& b, auto&) { retype(b, "cond", {1}, onnx::TensorProto::INT32); }),
       "model.onnx: node 'loop' (Loop): cond must be a tensor of one bool element, found Tensor[(1), int32]"},
      {"loop body condition of float", changed(loopSum, [](auto&, auto& node) { bodyOf(node).mutable_output(0)->set_name("y_out"); }),
       "model.onnx: node 'loop' (Loop): body output 0 ('y_out') must be a tensor of one bool element, found "
       "Tensor[(2), float32]"},
      {"loop body iteration number declared float", changed(loopSum, [](auto&, auto& node) {
         bodyOf(node).mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
       }),
       "model.onnx: node 'loop' (Loop): body: graph input #0 ('i') is declared as float32; expected int64, the element "
       "type of the value it takes"},
      {"loop carried value changing dtype", changed(loopSum, [](auto&, auto& node) {
         onnx::GraphProto& body = bodyOf(node);
         body.mutable_node(1)->set_output(0, "y_sum");
         onnx::NodeProto* cast = body.add_node();
         cast->set_op_type("Cast");
         cast->set_name("cast");
         cast->add_input("y_sum");
         cast->add_output("y_out");
         attr(*cast, "to", int64_t{onnx::TensorProto::INT64});
         body.mutable_node(2)->set_input(0, "y_sum");
       }),
       "model.onnx: node 'loop' (Loop): body output 1 ('y_out') gives Tensor[(2), int64] to 'y_in', which is "
       "Tensor[(2), float32] before; expected the same dtype and rank in every iteration"},
      {"loop body reading an unknown value", changed(loopSum, [](auto&, auto& node) { bodyOf(node).mutable_node(1)->set_input(1, "z"); }),
       "model.onnx: node 'loop' (Loop): body: node 'y_out' (Add): input 'z' is not a graph input, an initializer or the "
       "output of an earlier node"},
      {"scan without num_scan_inputs", changed(scanSum, [](auto&, auto& node) { node.mutable_attribute()->DeleteSubrange(0, 1); }),
       "model.onnx: node 'scan' (Scan): missing attribute 'num_scan_inputs'"},
      {"scan with more scan inputs than inputs", changed(scanSum, [](auto&, auto& node) { node.mutable_attribute(0)->set_i(3); }),
       "model.onnx: node 'scan' (Scan): num_scan_inputs is 3; expected 1 to 2, the number of inputs"},
      {"scan body with an input too many", changed(scanSum, [](auto&, auto& node) {
         bodyOf(node).add_input()->CopyFrom(bodyOf(node).input(1));
       }),
       "model.onnx: node 'scan' (Scan): body has 3 inputs; expected 2: the 1 state variable and a slice of each of the 1 "
       "scan input"},
      {"scan input axis out of range", changed(scanSum, [](auto&, auto& node) {
         attr(node, "scan_input_axes", std::vector<int64_t>{2});
       }),
       "model.onnx: node 'scan' (Scan): scan_input_axes[0] for scan input 0 ('x'): axis 2 is out of range for rank 2; "
       "expected -2 to 1"},
      {"scan input axes of the wrong count", changed(scanSum, [](auto&, auto& node) {
         attr(node, "scan_input_axes", std::vector<int64_t>{0, 1});
       }),
       "model.onnx: node 'scan' (Scan): scan_input_axes has 2 values; expected 1, one per scan input"},
      {"scan direction of 2", changed(scanSum, [](auto&, auto& node) {
         attr(node, "scan_output_directions", std::vector<int64_t>{2});
       }),
       "model.onnx: node 'scan' (Scan): scan_output_directions[0] is 2; expected 0 (forward) or 1 (reverse)"},
      {"scan output axis out of range", changed(scanSum, [](auto&, auto& node) {
         attr(node, "scan_output_axes", std::vector<int64_t>{2});
       }),
       "model.onnx: node 'scan' (Scan): scan output 'row_out' has the axis 2; expected -2 to 1 for slices of "
       "Tensor[(2), float32]"},
      {"scan inputs of different lengths", [] {
         OnnxModelBuilder b = scanSum();
         b.input("z", {4, 2});
         onnx::NodeProto& node = *b.model().mutable_graph()->mutable_node(0);
         node.add_input("z");
         node.mutable_attribute(0)->set_i(2);
         bodyOf(node).add_input()->CopyFrom(bodyOf(node).input(1));
         bodyOf(node).mutable_input(2)->set_name("other_row");
         return b;
       },
       "model.onnx: node 'scan' (Scan): scan input 1 ('z') has 4 slices along axis 0 where scan input 0 ('x') has 3; "
       "expected the same length"},
      {"scan input of unknown length", changed(scanSum, [](auto& b, auto&) {
         b.model().mutable_graph()->mutable_input(1)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_param("n");
       }),
       "model.onnx: node 'scan' (Scan): scan input 0 ('x') has a length known only at run time along axis 0; expected a "
       "static length"},
  };
  return cases;
}

}  // namespace

/// ONNX Loop and Scan: the imported loops, type-checked and printed with types, equal their golden
/// files tests/data/frontend/onnx/<case>.expected (written from the form TVM's ONNX frontend
/// gives); bad nodes get one precise error each.
class TestOnnxLoops : public QObject {
  Q_OBJECT

 private slots:
  void importsAsGolden_data() { testing::addGoldenRows(goldenCases()); }
  void importsAsGolden() { testing::checkGoldenRow(goldenCases()); }

  void badModelsGiveTheirError_data() { addBadModelRows(badModels()); }
  void badModelsGiveTheirError() { checkBadModelRow(badModels()); }

  /// The trial imports that type a loop's variables leave no origins behind: every id the
  /// provenance table records is the origin of a node of the module (each IR node built for an
  /// ONNX node has an id of its own, recorded with that node's op type).
  void bodyNodesAreRecordedOnce() {
    Result<Module> module = importOnnxModel(testing::loopGrowing().bytes(), "model.onnx", "");
    QVERIFY(module.isOk());
    std::set<NodeId> used;
    postOrderVisit(*module, [&](const Expr& node) { used.insert(node->origin().ids().begin(), node->origin().ids().end()); });
    std::set<std::string> opTypes;
    for (const auto& [id, opType] : module->provenance()->sourceOps) {
      QVERIFY2(used.count(id), qPrintable(QStringLiteral("id %1 (%2) names no node").arg(id).arg(QString::fromStdString(opType))));
      opTypes.insert(opType);
    }
    QCOMPARE(opTypes, (std::set<std::string>{"Cast", "Concat", "Loop", "Unsqueeze"}));
  }

  /// Loops nested 20 deep whose bodies are each imported twice per import of the body around them
  /// would convert 2^20 bodies at the bottom: the import stops at the limit of conversions instead,
  /// within seconds, naming the path down to the node where it stopped.
  void nestedReimportsStopAtTheLimit() {
    Result<Module> module = importOnnxModel(testing::nestedGrowingLoops(20).bytes(), "model.onnx", "");
    QVERIFY(!module.isOk());
    const std::string message = module.error().str();
    QVERIFY2(message.starts_with("model.onnx: node 'loop' (Loop): body: node 'inner20' (Loop): body: node 'inner19' (Loop): "),
             message.c_str());
    QVERIFY2(message.ends_with(": the import converts more than 1048576 nodes (a loop body counts once per import of it), "
                               "the limit of one import"),
             message.c_str());
    // Ten levels convert 2 + 4 + … + 2^10 bodies of two nodes: far below the limit.
    QVERIFY(importOnnxModel(testing::nestedGrowingLoops(10).bytes(), "model.onnx", "").isOk());
  }

  /// A Loop inside a Loop's body: the inner loop reads the outer body's values and the main graph's.
  void nestedLoopsImport() {
    const std::string printed = testing::importedText(testing::loopNested().bytes(), "nested.onnx");
    QVERIFY2(printed.find("%while_loop1") != std::string::npos, printed.c_str());
  }
};

QTEST_GUILESS_MAIN(TestOnnxLoops)
#include "test_onnx_loops.moc"
