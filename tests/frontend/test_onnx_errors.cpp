#include <QTemporaryDir>
#include <QtTest>

#include <cstring>

#include "frontend/loader.h"
#include "frontend/onnx/onnx_import.h"
#include "ir/op.h"
#include "support/file_io.h"
#include "test_onnx_builder.h"
#include "text/printer.h"

using namespace byoc;
using byoc::testing::attr;
using byoc::testing::OnnxModelBuilder;

namespace {

/// x → Conv(w) → y, the model most error cases start from.
OnnxModelBuilder convModel(int64_t opset = 13) {
  OnnxModelBuilder b(opset);
  b.input("x", {1, 3, 8, 8}).rampInitializer("w", {4, 3, 3, 3}).output("y");
  b.node("Conv", {"x", "w"}, {"y"}, "conv");
  return b;
}

std::string importError(const std::string& bytes) {
  Result<Module> module = importOnnxModel(bytes, "model.onnx", "");
  if (module) return "(imported without error)";
  return module.error().str();
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
    b.node("TopK", {"x"}, {"t1"});
    b.node("TopK", {"t1"}, {"t2"});
    b.node("NonMaxSuppression", {"t2"}, {"n"});
    b.node("FusedConv", {"n"}, {"f"}).set_domain("com.microsoft");
    b.node("Relu", {"f"}, {"r"});
    QCOMPARE(importError(b.bytes()),
             std::string("model.onnx: unsupported ONNX ops in 4 nodes: TopK (2), NonMaxSuppression (1), "
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
    QCOMPARE(importError(convModel(9).bytes()), std::string("model.onnx: opset 9 is not supported; expected 11 to 17"));
  }

  void nonConstantShapeInput() {
    OnnxModelBuilder b;
    b.input("x", {2, 3}).input("shape", {2}, onnx::TensorProto::INT64).output("y");
    b.node("Reshape", {"x", "shape"}, {"y"}, "reshape");
    QCOMPARE(importError(b.bytes()),
             std::string("model.onnx: node 'reshape' (Reshape): input 1 ('shape') must be a constant (an initializer or "
                         "a value computable at import)"));
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
