#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include "window/main_window.h"
#include "authoring/op_support_colouring.h"
#include "authoring/op_support_delegate.h"
#include "authoring/op_support_model.h"
#include "authoring/op_support_panel.h"
#include "authoring/target_document.h"
#include "authoring/target_files.h"
#include "export/tvm_python.h"
#include "graph/graph_page.h"
#include "graph/graph_scene.h"
#include "models/region_list_model.h"
#include "models/snapshot_list_model.h"
#include "panels/timeline_widget.h"
#include "support/file_io.h"
#include "target/rule_edit.h"

using namespace byoc;
using namespace byoc::ui;

namespace {

/// Opens the demo and waits until its graph is laid out and coloured by the edited target.
bool openDemo(MainWindow& window) {
  QSignalSpy opened(&window, &MainWindow::opened);
  QSignalSpy coloured(window.supportColourer(), &SupportColourer::coloured);
  window.openDemo();
  if (!opened.wait(10000)) return false;
  if (coloured.isEmpty() && !coloured.wait(10000)) return false;
  if (window.mainPage()->isLaidOut()) return true;
  QSignalSpy laidOut(window.mainPage(), &GraphPage::layoutReady);
  return laidOut.wait(20000);
}

/// `title:target` for every op node of the main graph the current overlay colours, in node order.
QStringList colouredNodes(const MainWindow& window) {
  QStringList nodes;
  const GraphModel& graph = window.mainPage()->model();
  for (const auto& [node, target] : window.mainPage()->scene()->overlay().nodeTargets)
    nodes << graph.nodes()[static_cast<std::size_t>(node)].title + QLatin1Char(':') + target;
  return nodes;
}

/// The rows of the region list as `name:nodes`.
QStringList regions(const MainWindow& window) {
  QStringList rows;
  for (int row = 0; row < window.regionModel()->rowCount(); ++row)
    rows << window.regionModel()->index(row, 0).data().toString() + QLatin1Char(':') +
                window.regionModel()->index(row, 3).data().toString();
  return rows;
}

/// Dialogs that answer from the test's script and record what was asked.
struct ScriptedDialogs {
  TargetFiles::Choice unsaved = TargetFiles::Choice::Cancel;
  QString savePath;
  QString pythonPath;
  QString openPath;
  std::optional<Target> newTarget;
  std::optional<Target> settings;
  bool restore = true;
  QStringList asked;

  TargetFiles::Dialogs dialogs() {
    TargetFiles::Dialogs result;
    result.unsaved = [this](const QString& text) {
      asked << text;
      return unsaved;
    };
    result.openPath = [this] { return openPath; };
    result.savePath = [this](const QString&) { return savePath; };
    result.pythonPath = [this](const QString& suggested) {
      asked << suggested;
      return pythonPath;
    };
    result.newTarget = [this] { return newTarget; };
    result.settings = [this](const Target&) { return settings; };
    result.restore = [this](const QString& text) {
      asked << text;
      return restore;
    };
    result.error = [this](const QString& message) { asked << message; };
    return result;
  }
};

QStringList ruleTexts(const Target& target) {
  QStringList texts;
  for (const OpRule& rule : target.opRules) texts << QString::fromStdString(rule.text);
  return texts;
}

QString recoveryCopy() { return TargetFiles::recoveryDir() + QStringLiteral("/target.json"); }

/// Edits byoc-target in a session that stops without saving, leaving its recovery copy: written
/// by the session's timer after a pause in editing (checked not to be there before), or at once.
/// Returns the edited target.
Target stopWithUnsavedEdits(bool byTheTimer) {
  TargetDocument document;
  QWidget window;
  TargetFiles files(&document, &window);
  if (!document.load(QStringLiteral("byoc-target"))) qFatal("byoc-target does not load");
  document.update(withOpSupport(document.target(), "nn.relu", {true, "rank(arg0) == 4"}).value());
  if (!byTheTimer) {
    files.writeRecovery();
  } else if (QFile::exists(recoveryCopy())) {
    qFatal("the recovery copy was written before a pause in editing");
  }
  if (!QTest::qWaitFor([] { return QFile::exists(recoveryCopy()); }, 5000)) qFatal("no recovery copy was written");
  return document.target();
}

}  // namespace

/// The Op Support dock, the target's colours on the graph, and target files.
class TestOpSupport : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    QDir(TargetFiles::recoveryDir()).removeRecursively();
  }

  void cleanup() { QDir(TargetFiles::recoveryDir()).removeRecursively(); }

  void tableListsTheModelsOpsWithTheirSupport() {
    MainWindow window;
    OpSupportModel* model = window.opSupportModel();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(openDemo(window));
    QStringList rows;
    for (int row = 0; row < model->rowCount(); ++row) {
      rows << model->index(row, OpSupportModel::OpColumn).data().toString() + QLatin1Char(' ') +
                  model->index(row, OpSupportModel::CallsColumn).data().toString() + QLatin1Char(' ') +
                  (model->index(row, OpSupportModel::SupportedColumn).data(Qt::CheckStateRole).value<Qt::CheckState>() == Qt::Checked
                       ? QStringLiteral("yes")
                       : QStringLiteral("no"));
    }
    QCOMPARE(rows, (QStringList{QStringLiteral("add 1 yes"), QStringLiteral("less 1 no"), QStringLiteral("nn.bias_add 2 no"),
                                QStringLiteral("nn.conv2d 2 no"), QStringLiteral("nn.relu 2 no"), QStringLiteral("reshape 1 yes")}));
    auto* panel = window.findChild<OpSupportPanel*>();
    QVERIFY(panel);
    QCOMPARE(panel->summary(), QStringLiteral("byoc-target: 2 of 6 op types, 2 of 9 calls supported"));
    QCOMPARE(window.windowTitle(), QStringLiteral("Demo — byoc-target — BYOC Studio"));
  }

  void togglingSupportRecoloursTheGraphAndChangesThePartition() {
    MainWindow window;
    window.show();
    QVERIFY(openDemo(window));
    QCOMPARE(colouredNodes(window).filter(QStringLiteral(":byoc-target")),
             (QStringList{QStringLiteral("add:byoc-target"), QStringLiteral("reshape:byoc-target")}));
    QVERIFY(colouredNodes(window).contains(QStringLiteral("less:default")));

    // Passes run: the partition of seed 000.
    QSignalSpy stepsOpened(&window, &MainWindow::stepsOpened);
    window.runPartition(QStringLiteral("relay"));
    QVERIFY(stepsOpened.wait(20000));
    window.timeline()->setCurrentStep(4);
    const QStringList before = regions(window);
    QCOMPARE(before.filter(QStringLiteral("tvmgen_")),
             (QStringList{QStringLiteral("tvmgen_default_byoc_target_main_0:1"), QStringLiteral("tvmgen_default_byoc_target_main_2:3"),
                          QStringLiteral("tvmgen_default_byoc_target_main_5:4")}));

    // Supporting `less` marks the target modified, colours it on the loaded graph, and re-runs the
    // passes (staying on the step shown), which now offload it too.
    OpSupportModel* model = window.opSupportModel();
    QSignalSpy coloured(window.supportColourer(), &SupportColourer::coloured);
    QVERIFY(model->setData(model->index(model->rowOf(QStringLiteral("less")), OpSupportModel::SupportedColumn), Qt::Checked,
                           Qt::CheckStateRole));
    QVERIFY(window.targetDocument()->isModified());
    QCOMPARE(ruleTexts(window.targetDocument()->target()), (QStringList{QStringLiteral("reshape, add"), QStringLiteral("less")}));
    QCOMPARE(window.windowTitle(), QStringLiteral("Demo — byoc-target* — BYOC Studio"));
    // Until the passes have run again, the steps shown say they are out of date.
    QCOMPARE(window.timeline()->staleReason(), QStringLiteral("the target was edited"));
    QVERIFY(coloured.wait(10000));
    QCOMPARE(window.supportColourer()->colours().supported, 3);
    QVERIFY(stepsOpened.wait(20000));
    QVERIFY(window.timeline()->staleReason().isEmpty());
    QCOMPARE(window.timeline()->currentStep(), 4);
    const QStringList after = regions(window);
    QCOMPARE(after.filter(QStringLiteral("tvmgen_")).size(), before.filter(QStringLiteral("tvmgen_")).size() + 1);

    // Back at the loaded model the overlay is the target's support.
    window.timeline()->setCurrentStep(0);
    QVERIFY(colouredNodes(window).contains(QStringLiteral("less:byoc-target")));

    // Unsupporting `add` splits it out of "reshape, add" and leaves it uncoloured.
    QVERIFY(model->setData(model->index(model->rowOf(QStringLiteral("add")), OpSupportModel::SupportedColumn), Qt::Unchecked,
                           Qt::CheckStateRole));
    QCOMPARE(ruleTexts(window.targetDocument()->target()), (QStringList{QStringLiteral("reshape"), QStringLiteral("less")}));
    QVERIFY(coloured.wait(10000));
    QVERIFY(colouredNodes(window).contains(QStringLiteral("add:default")));
  }

  void reTickingRestoresTheConditionAndEveryEditUndoes() {
    MainWindow window;
    window.show();
    QVERIFY(openDemo(window));
    OpSupportModel* model = window.opSupportModel();
    TargetDocument* document = window.targetDocument();
    QUndoStack* stack = document->undoStack();
    QCOMPARE(stack->count(), 0);
    const int row = model->rowOf(QStringLiteral("nn.relu"));
    const QModelIndex supported = model->index(row, OpSupportModel::SupportedColumn);
    const QModelIndex condition = model->index(row, OpSupportModel::ConditionColumn);
    const OpSupport conditional{true, "rank(arg0) == 4"};

    QVERIFY(model->setData(condition, QStringLiteral("rank(arg0) == 4")));
    QCOMPARE(opSupport(document->target(), "nn.relu"), conditional);
    QCOMPARE(stack->undoText(), QStringLiteral("Support nn.relu When…"));
    // Unticking drops the rule; ticking again brings its condition back.
    QVERIFY(model->setData(supported, Qt::Unchecked, Qt::CheckStateRole));
    QCOMPARE(opSupport(document->target(), "nn.relu"), OpSupport{});
    QCOMPARE(stack->undoText(), QStringLiteral("Stop Supporting nn.relu"));
    QVERIFY(model->setData(supported, Qt::Checked, Qt::CheckStateRole));
    QCOMPARE(opSupport(document->target(), "nn.relu"), conditional);
    QCOMPARE(condition.data().toString(), QStringLiteral("rank(arg0) == 4"));
    QCOMPARE(stack->count(), 3);

    // Edit → Undo and Redo walk through the edits; back at the start the target is unmodified.
    auto* undo = window.findChild<QAction*>(QStringLiteral("undoAction"));
    auto* redo = window.findChild<QAction*>(QStringLiteral("redoAction"));
    QVERIFY(undo && redo);
    QCOMPARE(undo->shortcut(), QKeySequence(QKeySequence::Undo));
    QCOMPARE(redo->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
    QCOMPARE(undo->text(), QStringLiteral("&Undo Support nn.relu When…"));
    undo->trigger();
    QCOMPARE(opSupport(document->target(), "nn.relu"), OpSupport{});
    undo->trigger();
    QCOMPARE(opSupport(document->target(), "nn.relu"), conditional);
    QCOMPARE(supported.data(Qt::CheckStateRole).value<Qt::CheckState>(), Qt::Checked);
    undo->trigger();
    QCOMPARE(opSupport(document->target(), "nn.relu"), OpSupport{});
    QVERIFY(!document->isModified());
    QVERIFY(!undo->isEnabled());
    QCOMPARE(window.windowTitle(), QStringLiteral("Demo — byoc-target — BYOC Studio"));
    redo->trigger();
    QCOMPARE(opSupport(document->target(), "nn.relu"), conditional);
    QVERIFY(document->isModified());
    QCOMPARE(window.windowTitle(), QStringLiteral("Demo — byoc-target* — BYOC Studio"));

    // Loading another target starts a new history.
    QVERIFY(document->load(QStringLiteral("dnnl")));
    QCOMPARE(stack->count(), 0);
  }

  void aConditionThatFailsOnTheModelIsReported() {
    MainWindow window;
    QVERIFY(openDemo(window));
    OpSupportModel* model = window.opSupportModel();
    QSignalSpy coloured(window.supportColourer(), &SupportColourer::coloured);
    QVERIFY(model->setData(model->index(model->rowOf(QStringLiteral("add")), OpSupportModel::ConditionColumn),
                           QStringLiteral("dtype(arg2) == \"int32\"")));
    QVERIFY(coloured.wait(10000));
    auto* panel = window.findChild<OpSupportPanel*>();
    QCOMPARE(panel->error(), window.supportColourer()->colours().error);
    QCOMPARE(panel->error(), QStringLiteral("target byoc-target, rule 'add when dtype(arg2) == \"int32\"': 1:16: 'arg2' does not exist here"));
    QVERIFY(colouredNodes(window).contains(QStringLiteral("add:default")));
  }

  void conditionsAreCheckedAndInvalidOnesNeverReachTheTarget() {
    TargetDocument document;
    QVERIFY(document.load(QStringLiteral("byoc-target")));
    OpSupportModel model(&document);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Module demo;
    {
      MainWindow window;
      QVERIFY(openDemo(window));
      demo = window.document()->module;
    }
    model.setModule(demo);
    const QModelIndex relu = model.index(model.rowOf(QStringLiteral("nn.relu")), OpSupportModel::ConditionColumn);

    QVERIFY(!model.setData(relu, QStringLiteral("rank(arg0) == 4 andd True")));
    QVERIFY(!document.isModified());
    QCOMPARE(relu.data(OpSupportModel::ErrorRole).toString(),
             QStringLiteral("1:17: found 'andd', expected the end of the condition or an operator"));
    QCOMPARE(relu.data(Qt::ToolTipRole).toString(), relu.data(OpSupportModel::ErrorRole).toString());
    QCOMPARE(relu.data().toString(), QStringLiteral("rank(arg0) == 4 andd True"));
    QVERIFY(relu.data(Qt::BackgroundRole).isValid());
    QCOMPARE(opSupport(document.target(), "nn.relu"), OpSupport{});

    // Corrected, it supports the op under the condition and the draft is gone.
    QVERIFY(model.setData(relu, QStringLiteral(" rank(arg0) == 4 ")));
    QVERIFY(document.isModified());
    QCOMPARE(relu.data(OpSupportModel::ErrorRole).toString(), QString());
    QCOMPARE(relu.data().toString(), QStringLiteral("rank(arg0) == 4"));
    QCOMPARE(opSupport(document.target(), "nn.relu"), (OpSupport{true, "rank(arg0) == 4"}));
    QCOMPARE(model.index(relu.row(), OpSupportModel::SupportedColumn).data(Qt::CheckStateRole).value<Qt::CheckState>(), Qt::Checked);

    // A draft is dropped when another target is loaded.
    QVERIFY(!model.setData(relu, QStringLiteral("rank(")));
    QVERIFY(document.load(QStringLiteral("dnnl")));
    QCOMPARE(relu.data(OpSupportModel::ErrorRole).toString(), QString());
  }

  void conditionErrorsAreShownAsTyped_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("error");
    QTest::newRow("empty means always") << "" << "";
    QTest::newRow("valid") << "dtype(arg0) == \"float32\"" << "";
    QTest::newRow("misspelt operator") << "groups == 1 andd True" << "1:13: found 'andd', expected the end of the condition or an operator";
    QTest::newRow("unclosed call") << "rank(arg0" << "1:10: found the end of the condition, expected ','";
    QTest::newRow("unknown function") << "size(arg0) > 1"
                                      << "1:1: unknown function 'size'; expected op, dtype, shape, rank, numel, attr, is_constant, num_args, arg_dtypes or static_shape";
  }

  void conditionErrorsAreShownAsTyped() {
    QFETCH(QString, text);
    QFETCH(QString, error);
    QCOMPARE(conditionError(text), error);

    TargetDocument document;
    OpSupportModel model(&document);
    QTableView view;
    view.setModel(&model);
    ConditionDelegate delegate;
    QWidget* editor = delegate.createEditor(&view, {}, {});
    auto* line = qobject_cast<QLineEdit*>(editor);
    QVERIFY(line);
    QTest::keyClicks(line, text);
    QCOMPARE(line->toolTip(), error);
    QCOMPARE(line->styleSheet().isEmpty(), error.isEmpty());
    delete editor;
  }

  void aSavedTargetReloadsIdentically() {
    QTemporaryDir dir;
    TargetDocument document;
    QWidget window;
    TargetFiles files(&document, &window);
    ScriptedDialogs script;
    script.savePath = dir.filePath(QStringLiteral("mine.json"));
    files.setDialogs(script.dialogs());
    QVERIFY(document.load(QStringLiteral("byoc-target")));
    Target edited = withOpSupport(document.target(), "nn.conv2d", {true, "groups == 1 and dtype(arg0) == \"float32\""}).value();
    edited = withOpSupport(edited, "add", {false, ""}).value();
    document.update(edited);
    QCOMPARE(files.displayName(), QStringLiteral("byoc-target*"));

    QVERIFY(files.save());  // a built-in target has no file: Save asks where
    QCOMPARE(document.path(), script.savePath);
    QCOMPARE(files.displayName(), QStringLiteral("byoc-target"));
    TargetDocument reloaded;
    QVERIFY(reloaded.load(script.savePath));
    QCOMPARE(serializeTarget(reloaded.target()), serializeTarget(edited));
    QCOMPARE(ruleTexts(reloaded.target()),
             (QStringList{QStringLiteral("reshape"), QStringLiteral("nn.conv2d when groups == 1 and dtype(arg0) == \"float32\"")}));

    // Save writes to the target's own file from then on, without asking.
    document.update(withOpSupport(document.target(), "nn.relu", {true, ""}).value());
    script.savePath.clear();
    files.setDialogs(script.dialogs());
    QVERIFY(files.save());
    QVERIFY(reloaded.load(dir.filePath(QStringLiteral("mine.json"))));
    QCOMPARE(opSupport(reloaded.target(), "nn.relu"), (OpSupport{true, ""}));

    // A failed save keeps the edits and says why.
    document.update(withOpSupport(document.target(), "nn.relu", {false, ""}).value());
    script.savePath = QStringLiteral("/nonexistent/dir/mine.json");
    files.setDialogs(script.dialogs());
    QVERIFY(!files.saveAs());
    QVERIFY(document.isModified());
    QVERIFY2(script.asked.last().startsWith(QStringLiteral("Could not save the target: /nonexistent/dir/mine.json")),
             qPrintable(script.asked.last()));
  }

  void theTargetExportsAsTvmPython() {
    QTemporaryDir dir;
    TargetDocument document;
    QWidget window;
    TargetFiles files(&document, &window);
    ScriptedDialogs script;
    script.pythonPath = dir.filePath(QStringLiteral("mine.py"));
    files.setDialogs(script.dialogs());
    QVERIFY(document.load(QStringLiteral("byoc-target")));
    document.update(withOpSupport(document.target(), "nn.relu", {true, "dtype() == \"float32\""}).value());
    QVERIFY(files.exportTvmPython());
    QCOMPARE(script.asked, QStringList{QStringLiteral("byoc_target.py")});
    Result<std::string> written = readFile(script.pythonPath.toStdString());
    QVERIFY(written);
    QCOMPARE(*written, targetAsTvmPython(document.target()).value());
    QVERIFY(written->find("@tvm.ir.register_op_attr(\"nn.relu\", \"target.byoc-target\")") != std::string::npos);

    // A place that cannot be written: the error is shown and nothing is left behind.
    script.pythonPath = dir.filePath(QStringLiteral("missing/mine.py"));
    files.setDialogs(script.dialogs());
    QVERIFY(!files.exportTvmPython());
    QVERIFY2(script.asked.last().startsWith(QStringLiteral("Could not export the target: ") + script.pythonPath),
             qPrintable(script.asked.last()));
    QVERIFY(!QFileInfo::exists(script.pythonPath));
  }

  void unsavedChangesAreNeverDroppedSilently() {
    QTemporaryDir dir;
    const QString other = dir.filePath(QStringLiteral("other.json"));
    Target otherTarget;
    otherTarget.name = "other";
    QVERIFY(writeFileAtomic(other.toStdString(), serializeTarget(otherTarget)));
    TargetDocument document;
    QWidget window;
    TargetFiles files(&document, &window);
    ScriptedDialogs script;
    script.openPath = other;
    script.newTarget = Target{};
    script.newTarget->name = "fresh";
    script.newTarget->codegen = "dnnl";
    QVERIFY(document.load(QStringLiteral("byoc-target")));
    document.update(withOpSupport(document.target(), "nn.relu", {true, ""}).value());

    // Cancel: nothing is replaced.
    files.setDialogs(script.dialogs());
    QVERIFY(!files.open());
    QVERIFY(!files.newTarget());
    QCOMPARE(document.target().name, std::string("byoc-target"));
    QCOMPARE(script.asked, (QStringList(2, QStringLiteral("The target 'byoc-target' has unsaved changes. Save them?"))));

    // Save, but the save is cancelled: still nothing is replaced.
    script.unsaved = TargetFiles::Choice::Save;
    files.setDialogs(script.dialogs());
    QVERIFY(!files.openPath(other));
    QCOMPARE(document.target().name, std::string("byoc-target"));

    // Discard: the other target is opened.
    script.unsaved = TargetFiles::Choice::Discard;
    files.setDialogs(script.dialogs());
    QVERIFY(files.open());
    QCOMPARE(document.target().name, std::string("other"));
    QCOMPARE(document.path(), other);
    QVERIFY(!document.isModified());

    // Unmodified: no question.
    script.asked.clear();
    files.setDialogs(script.dialogs());
    QVERIFY(files.newTarget());
    QCOMPARE(document.target().name, std::string("fresh"));
    QCOMPARE(document.target().codegen, std::string("dnnl"));
    QVERIFY(!document.isModified());
    QVERIFY(script.asked.isEmpty());

    // A file that does not load: the error is shown.
    QVERIFY(!files.openPath(dir.filePath(QStringLiteral("missing.json"))));
    QVERIFY2(script.asked.last().startsWith(QStringLiteral("Could not open the target: ")), qPrintable(script.asked.last()));
    QVERIFY2(script.asked.last().contains(QStringLiteral("missing.json: cannot open")), qPrintable(script.asked.last()));
  }

  void closingTheWindowAsksFirst() {
    MainWindow window;
    window.show();
    ScriptedDialogs script;
    window.targetFiles()->setDialogs(script.dialogs());
    TargetDocument* document = window.targetDocument();
    document->update(withOpSupport(document->target(), "nn.relu", {true, ""}).value());
    QVERIFY(!window.close());
    QVERIFY(window.isVisible());
    QCOMPARE(script.asked.size(), 1);
    script.unsaved = TargetFiles::Choice::Discard;
    window.targetFiles()->setDialogs(script.dialogs());
    QVERIFY(window.close());
  }

  // The window loads its first target before the recovery copy is offered: that must not remove it.
  void theWindowOffersTheRecoveryCopyItStartsWith() {
    const QString copy = recoveryCopy();
    const Target edited = stopWithUnsavedEdits(false);
    MainWindow window;
    QVERIFY(QFile::exists(copy));
    QTest::qWait(100);
    QVERIFY(QFile::exists(copy));
    ScriptedDialogs script;
    window.targetFiles()->setDialogs(script.dialogs());
    QVERIFY(window.targetFiles()->offerRecovery());
    QCOMPARE(script.asked.size(), 1);
    QCOMPARE(serializeTarget(window.targetDocument()->target()), serializeTarget(edited));
    QVERIFY(window.targetDocument()->isModified());
    // Once offered, loading another target removes it, as before.
    QVERIFY(window.targetDocument()->load(QStringLiteral("dnnl")));
    QVERIFY(!QFile::exists(copy));
  }

  void aRecoveryCopyIsKeptAndOfferedOnTheNextStart() {
    const QString copy = recoveryCopy();
    const Target edited = stopWithUnsavedEdits(true);

    TargetDocument document;
    QWidget window;
    TargetFiles files(&document, &window);
    ScriptedDialogs script;
    files.setDialogs(script.dialogs());
    QVERIFY(files.offerRecovery());
    QCOMPARE(script.asked,
             (QStringList{QStringLiteral("The target 'byoc-target' had unsaved changes when BYOC Studio last stopped. Restore them?")}));
    QCOMPARE(serializeTarget(document.target()), serializeTarget(edited));
    QVERIFY(document.isModified());
    QVERIFY(QFile::exists(copy));

    // Saving removes the copy.
    QTemporaryDir dir;
    script.savePath = dir.filePath(QStringLiteral("saved.json"));
    files.setDialogs(script.dialogs());
    QVERIFY(files.save());
    QVERIFY(!QFile::exists(copy));
    QVERIFY(!files.offerRecovery());

    // Declined, the copy is removed too; one that does not read is reported and removed.
    document.update(withOpSupport(document.target(), "nn.relu", {false, ""}).value());
    files.writeRecovery();
    script.restore = false;
    files.setDialogs(script.dialogs());
    QVERIFY(!files.offerRecovery());
    QVERIFY(!QFile::exists(copy));
    QVERIFY(writeFileAtomic(copy.toStdString(), "{"));
    QVERIFY(!files.offerRecovery());
    QVERIFY2(script.asked.last().startsWith(QStringLiteral("The recovered target could not be read: ")), qPrintable(script.asked.last()));
    QVERIFY2(script.asked.last().endsWith(QStringLiteral("not valid JSON")), qPrintable(script.asked.last()));
    QVERIFY(!QFile::exists(copy));
  }
};

QTEST_MAIN(TestOpSupport)
#include "test_op_support.moc"
