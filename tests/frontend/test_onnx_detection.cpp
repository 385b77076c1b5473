#include <QtTest>

#include "frontend/onnx/onnx_import.h"
#include "pass/infer_type.h"
#include "runtime/interpreter.h"
#include "onnx_golden.h"
#include "test_files.h"
#include "test_onnx_builder.h"

using namespace byoc;
using byoc::testing::attr;
using byoc::testing::OnnxModelBuilder;

namespace {

/// ONNX's backend test nonmaxsuppression_center_point_box_format: six unit boxes given as
/// (x_center, y_center, width, height), three of them near y = 0.5, two near 10.5, one at 100.5.
OnnxModelBuilder centerBoxNms() {
  OnnxModelBuilder b;
  b.input("boxes", {1, 6, 4}).input("scores", {1, 1, 6}).output("selected");
  b.intInitializer("max_out", {1}, {3}).initializer("iou", {1}, {0.5f}).initializer("score", {1}, {0.0f});
  attr(b.node("NonMaxSuppression", {"boxes", "scores", "max_out", "iou", "score"}, {"selected"}, "nms"),
       "center_point_box", int64_t{1});
  return b;
}

}  // namespace

/// NonMaxSuppression of center boxes: the boxes become corners (y1, x1, y2, x2) as in TVM's
/// importer, and the selection is the one ONNX's backend test expects.
class TestOnnxDetection : public QObject {
  Q_OBJECT

 private slots:
  void centerBoxesImportAsCorners() {
    testing::compareWithOnnxGolden(centerBoxNms().bytes(), QStringLiteral("nms_center_boxes"));
  }

  void centerBoxesSelectAsOnnxDoes() {
    Result<Module> imported = importOnnxModel(centerBoxNms().bytes(), "nms_center_boxes.onnx", "");
    QVERIFY2(imported.isOk(), imported ? "" : imported.error().str().c_str());
    Result<Module> module = inferTypes(*imported);
    QVERIFY(module.isOk());
    const NDArray boxes = NDArray::fromFloats(
        {1, 6, 4}, std::vector<float>{0.5f, 0.5f, 1, 1, 0.5f, 0.6f, 1, 1, 0.5f, 0.4f, 1, 1, 0.5f, 10.5f, 1, 1,
                                      0.5f, 10.6f, 1, 1, 0.5f, 100.5f, 1, 1});
    const NDArray scores = NDArray::fromFloats({1, 1, 6}, std::vector<float>{0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f});
    const std::vector<Value> inputs = {boxes, scores};
    Result<Value> out = Interpreter(*module).call("main", inputs);
    QVERIFY2(out.isOk(), out ? "" : out.error().str().c_str());
    const NDArray& selected = out->tensor();
    QCOMPARE(selected.shape(), (Shape{3, 3}));
    std::vector<int64_t> rows(selected.data<int64_t>(), selected.data<int64_t>() + selected.numElements());
    QCOMPARE(rows, (std::vector<int64_t>{0, 0, 3, 0, 0, 0, 0, 0, 5}));
  }
};

QTEST_GUILESS_MAIN(TestOnnxDetection)
#include "test_onnx_detection.moc"
