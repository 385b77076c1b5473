/// \file
/// Export from the app: the partitioned module written as a loadable export directory (on a worker,
/// with a progress dialog), nothing written on a cancel or an error (shown in a message box and the
/// diagnostics), and the graph image entry of the File menu.

#include <QDir>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include "app/main_window.h"
#include "app/model_document.h"
#include "export/export_reader.h"
#include "export/module_export.h"
#include "graph/graph_page.h"
#include "models/diagnostics_model.h"
#include "run/run_inputs_model.h"
#include "runtime/reference_check.h"
#include "target/target_library.h"
#include "window_fixture.h"

using namespace byoc;
using namespace byoc::ui;
using namespace byoc::testing;

namespace {

QStringList fileMenuEntries(MainWindow& window) {
  QStringList entries;
  for (QAction* menu : window.menuBar()->actions()) {
    if (menu->text() != QStringLiteral("&File")) continue;
    for (QAction* action : menu->menu()->actions())
      if (!action->isSeparator()) entries << action->text();
  }
  return entries;
}

}  // namespace

class TestAppExport : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
  }

  void exportWritesALoadableDirectory_data() {
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("pipeline");
    QTest::addColumn<int>("regions");
    QTest::newRow("dnnl relay") << QStringLiteral("dnnl") << QStringLiteral("relay") << 2;
    QTest::newRow("byoc-target relay") << QStringLiteral("byoc-target") << QStringLiteral("relay") << 3;
  }

  void exportWritesALoadableDirectory() {
    QFETCH(QString, target);
    QFETCH(QString, pipeline);
    QFETCH(int, regions);
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("demo.byoc"));
    QStringList written;
    Status status = exportPartitionedModule(
        {demoModule(), {builtinTarget(target.toLatin1().constData())}, pipeline, out, QStringLiteral("byoc-studio test")},
        [&](const std::string& file) {
          written << QString::fromStdString(file);
          return Status::ok();
        });
    QVERIFY2(status, status ? "" : status.error().str().c_str());
    QVERIFY(written.contains(QStringLiteral("manifest.json")));
    QVERIFY(written.contains(QStringLiteral("host.json")));

    Result<LoadedExport> loaded = loadExport(out.toStdString());
    QVERIFY2(loaded, loaded ? "" : loaded.error().str().c_str());
    QCOMPARE(loaded->manifest.producer, std::string("byoc-studio test"));
    QCOMPARE(static_cast<int>(loaded->manifest.functions.size()), regions);
    Result<std::unique_ptr<Executor>> executor = createExportExecutor(*loaded);
    QVERIFY2(executor, executor ? "" : executor.error().str().c_str());
    QCOMPARE(static_cast<int>((*executor)->regions().size()), regions);

    // The export runs and agrees with the loaded model on the reference kernels.
    RunInputsModel inputs;
    inputs.setModule(demoModule());
    Result<std::vector<Value>> args = (*executor)->bindInputs(*inputs.tensors());
    QVERIFY(args);
    Result<Value> value = (*executor)->run(*args);
    QVERIFY(value);
    std::vector<NDArray> outputs;
    QVERIFY(value->flattenInto(outputs));
    Result<std::vector<NDArray>> expected = runOnReference(demoModule(), *args);
    QVERIFY(expected);
    QVERIFY(compareWithReference(outputs, *expected).agree());
  }

  void aStoppedExportWritesNothing() {
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("demo.byoc"));
    Status status = exportPartitionedModule({demoModule(), {builtinTarget("dnnl")}, QStringLiteral("relay"), out, {}},
                                            [](const std::string&) -> Status { return makeError("the export was cancelled"); });
    QVERIFY(!status);
    QCOMPARE(QString::fromStdString(status.error().message), QStringLiteral("the export was cancelled"));
    QVERIFY(!QFileInfo::exists(out));
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList());
  }

  void aBadFlowIsReported() {
    QTemporaryDir dir;
    Status status = exportPartitionedModule(
        {demoModule(), {builtinTarget("dnnl")}, QStringLiteral("tflite"), dir.filePath(QStringLiteral("x")), {}}, {});
    QVERIFY(!status);
    QVERIFY2(QString::fromStdString(status.error().message).contains(QStringLiteral("tflite")), status.error().str().c_str());
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("x"))));
  }

  void exportFromTheWindow() {
    MainWindow window;
    window.show();
    QVERIFY(openAndLayOut(window));
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("demo.byoc"));
    ModuleExportJob* job = window.exportPartitionedModule(out);
    QVERIFY(job);
    QVERIFY(job->dialog());
    QVERIFY(job->dialog()->isVisible());
    QSignalSpy finished(job, &ModuleExportJob::finished);
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.front().front().toBool(), true);
    QVERIFY(isExportDirectory(out.toStdString()));
    Result<LoadedExport> loaded = loadExport(out.toStdString());
    QVERIFY2(loaded, loaded ? "" : loaded.error().str().c_str());
    QCOMPARE(loaded->manifest.producer, ("byoc-studio " + QCoreApplication::applicationVersion()).toStdString());
    QCOMPARE(window.diagnosticsModel()->rowCount(), 0);
  }

  void aFailedExportFromTheWindowIsShown() {
    MainWindow window;
    window.show();
    QVERIFY(openAndLayOut(window));
    QTemporaryDir dir;
    // A directory holding other files is never replaced.
    const QString out = dir.filePath(QStringLiteral("notes"));
    QVERIFY(QDir().mkpath(out));
    QFile keep(out + QStringLiteral("/keep.txt"));
    QVERIFY(keep.open(QIODevice::WriteOnly));
    keep.write("mine");
    keep.close();
    ModuleExportJob* job = window.exportPartitionedModule(out);
    QSignalSpy finished(job, &ModuleExportJob::finished);
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.front().front().toBool(), false);
    const QString expected = out + QStringLiteral(": exists and is not an export directory (no manifest.json); not replacing it");
    QCOMPARE(QString::fromStdString(finished.front().at(1).value<Diagnostic>().str()), expected);
    QCOMPARE(window.diagnosticsModel()->rowCount(), 1);
    QMessageBox* box = window.findChild<QMessageBox*>();
    QVERIFY(box);
    QVERIFY(box->text().contains(expected));
    QCOMPARE(QDir(out).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList{QStringLiteral("keep.txt")});
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList{QStringLiteral("notes")});
  }

  void cancellingTheDialogWritesNothing() {
    MainWindow window;
    window.show();
    QVERIFY(openAndLayOut(window));
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("demo.byoc"));
    ModuleExportJob* job = window.exportPartitionedModule(out);
    QSignalSpy finished(job, &ModuleExportJob::finished);
    auto* cancel = job->dialog()->findChild<QPushButton*>();
    QVERIFY(cancel);
    QCOMPARE(cancel->text(), QStringLiteral("Cancel"));
    QTest::mouseClick(cancel, Qt::LeftButton);
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.front().front().toBool(), false);
    QCOMPARE(QString::fromStdString(finished.front().at(1).value<Diagnostic>().message), QStringLiteral("the export was cancelled"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList());
  }

  void fileMenuHasTheExportEntries() {
    MainWindow window;
    const QStringList entries = fileMenuEntries(window);
    QVERIFY2(entries.contains(QStringLiteral("Export &Graph Image…")), qPrintable(entries.join(u'|')));
    QVERIFY(entries.contains(QStringLiteral("Export &Partitioned Module…")));
    QVERIFY(!entries.contains(QStringLiteral("Export as &SVG…")));
  }
};

QTEST_MAIN(TestAppExport)
#include "test_app_export.moc"
