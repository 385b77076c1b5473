#include <QTemporaryDir>
#include <QtTest>

#include "frontend/json_format.h"
#include "frontend/loader.h"
#include "support/file_io.h"
#include "test_files.h"
#include "text/parser.h"
#include "text/printer.h"

using namespace byoc;

/// Choosing the format of a model file by extension, then by content.
class TestLoader : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

  std::string writeTemp(const QString& name, const std::string& content) {
    std::string path = dir_.filePath(name).toStdString();
    Status written = writeFileAtomic(path, content);
    if (!written) qFatal("cannot write %s", path.c_str());
    return path;
  }

  std::string demoText() { return testing::readTestData(QStringLiteral("text/demo.relay")); }

 private slots:
  void relayTextByExtension() {
    Result<Module> module = loadModuleFile(testing::testDataPath(QStringLiteral("text/demo.relay")));
    QVERIFY2(module.isOk(), module ? "" : module.error().str().c_str());
    QCOMPARE(printModule(*module), printModule(*parseModule(demoText(), "demo.relay")));
  }

  void jsonByExtension() {
    Result<Module> module = loadModuleFile(testing::testDataPath(QStringLiteral("frontend/small.json")));
    QVERIFY2(module.isOk(), module ? "" : module.error().str().c_str());
    QVERIFY(module->find("main") != nullptr);
  }

  void unknownExtensionIsSniffed() {
    Module demo = *parseModule(demoText(), "demo.relay");
    Result<Module> fromText = loadModuleFile(writeTemp(QStringLiteral("demo.model"), demoText()));
    QVERIFY(fromText.isOk());
    QCOMPARE(printModule(*fromText), printModule(demo));
    Result<Module> fromJson = loadModuleFile(writeTemp(QStringLiteral("demo.bin"), "\n  " + saveModuleJson(demo)));
    QVERIFY(fromJson.isOk());
    QCOMPARE(printModule(*fromJson), printModule(demo));
  }

  void unknownContentIsRejected() {
    std::string path = writeTemp(QStringLiteral("notes.dat"), "hello, world\n");
    Result<Module> module = loadModuleFile(path);
    QVERIFY(!module.isOk());
    QCOMPARE(module.error().str(), path + ": unknown model format; expected Relay text (.relay, .txt), BYOC Studio JSON (.json) or ONNX (.onnx)");
  }

  void missingFileNamesIt() {
    std::string path = dir_.filePath(QStringLiteral("absent.relay")).toStdString();
    Result<Module> module = loadModuleFile(path);
    QVERIFY(!module.isOk());
    QCOMPARE(module.error().str(), path + ": cannot open: No such file or directory");
  }

  void parseErrorsKeepTheFileName() {
    std::string path = writeTemp(QStringLiteral("broken.relay"), "def @main(%x: Tensor[(1), float32]) {\n  nn.relu(%x\n}\n");
    Result<Module> module = loadModuleFile(path);
    QVERIFY(!module.isOk());
    QCOMPARE(module.error().location.file, path);
    QCOMPARE(module.error().location.line, 3);
  }
};

QTEST_GUILESS_MAIN(TestLoader)
#include "test_loader.moc"
