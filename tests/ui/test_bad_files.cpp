/// \file
/// The app on the bad-input corpus (see tests/support/bad_input_cases.h): opening each bad model
/// file keeps the window up, shows no graph, and lists the same error as `byoc` in Diagnostics.

#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>

#include "window/main_window.h"
#include "bad_input_cases.h"
#include "models/diagnostics_model.h"

using namespace byoc;
using namespace byoc::testing;

class TestBadFiles : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
  }

  void openingShowsTheErrorInDiagnostics_data() { addBadInputRows(); }

  void openingShowsTheErrorInDiagnostics() {
    QFETCH(QString, casePath);
    const BadInputCase badCase = readBadInputCase(casePath);
    if (badCase.modelFile().isEmpty()) QSKIP("the case does not open a model file");
    ui::MainWindow window;
    QSignalSpy failed(&window, &ui::MainWindow::openFailed);
    QSignalSpy opened(&window, &ui::MainWindow::opened);
    window.openFile(badCase.modelFile());
    QVERIFY2(failed.wait(30000), "no error reported within 30 s");
    QCOMPARE(opened.count(), 0);
    const std::vector<Diagnostic>& diagnostics = window.diagnosticsModel()->diagnostics();
    QCOMPARE(diagnostics.size(), std::size_t{1});
    QCOMPARE(QString::fromStdString(diagnostics.front().str()).section(QLatin1Char('\n'), 0, 0), badCase.error);
  }
};

QTEST_MAIN(TestBadFiles)
#include "test_bad_files.moc"
