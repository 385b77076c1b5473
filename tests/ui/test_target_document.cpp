#include <QComboBox>
#include <QCompleter>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include "authoring/pattern_name_delegate.h"
#include "authoring/pattern_table_model.h"
#include "authoring/target_document.h"
#include "authoring/target_settings.h"
#include "window/partition_bar.h"
#include "runtime/runtime_module.h"
#include "support/file_io.h"
#include "target/target_library.h"

using namespace byoc;
using namespace byoc::ui;

/// The edited target: loading, editing, saving and the modified flag; its settings and their dialog.
class TestTargetDocument : public QObject {
  Q_OBJECT

 private slots:
  void loadingABuiltInTargetLeavesItUnmodified() {
    TargetDocument document;
    QSignalSpy changed(&document, &TargetDocument::changed);
    QVERIFY(document.load(QStringLiteral("byoc-target")));
    QCOMPARE(document.target().name, std::string("byoc-target"));
    QVERIFY(document.path().isEmpty());
    QVERIFY(!document.isModified());
    QCOMPARE(changed.count(), 1);
  }

  /// tvm-dnnl's target is named "dnnl", as TVM names its compiler; the chooser still shows tvm-dnnl.
  void theChooserShowsTheBuiltInLoadedNotItsName() {
    TargetDocument document;
    PartitionBar bar(&document, nullptr);
    auto* chooser = bar.findChild<QComboBox*>();
    QVERIFY(chooser != nullptr);
    QVERIFY(document.load(QStringLiteral("tvm-dnnl")));
    QCOMPARE(document.target().name, std::string("dnnl"));
    QCOMPARE(document.label(), QStringLiteral("tvm-dnnl"));
    QCOMPARE(chooser->currentText(), QStringLiteral("tvm-dnnl"));
    QVERIFY(document.load(QStringLiteral("dnnl")));
    QCOMPARE(chooser->currentText(), QStringLiteral("dnnl"));
  }

  void aFailedLoadChangesNothing() {
    TargetDocument document;
    QVERIFY(document.load(QStringLiteral("dnnl")));
    Status failed = document.load(QStringLiteral("no-such-target"));
    QVERIFY(!failed);
    QVERIFY2(QString::fromStdString(failed.error().str()).contains(QStringLiteral("unknown target 'no-such-target'")),
             failed.error().str().c_str());
    QCOMPARE(document.target().name, std::string("dnnl"));
  }

  void editsMarkItModifiedUntilSaved() {
    TargetDocument document;
    QVERIFY(document.load(QStringLiteral("byoc-target")));
    QSignalSpy modified(&document, &TargetDocument::modifiedChanged);
    Target edited = document.target();
    edited.patterns.pop_back();
    document.update(edited);
    QVERIFY(document.isModified());
    QCOMPARE(modified.count(), 1);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("edited.json"));
    QVERIFY(document.saveAs(path));
    QVERIFY(!document.isModified());
    QCOMPARE(document.path(), path);

    TargetDocument reloaded;
    QVERIFY(reloaded.load(path));
    QCOMPARE(serializeTarget(reloaded.target()), serializeTarget(edited));
    QCOMPARE(reloaded.path(), path);
  }

  void savingToAnUnwritablePlaceKeepsTheEdits() {
    TargetDocument document;
    Target mine;
    mine.name = "mine";
    document.reset(mine, {});
    Target edited = document.target();
    edited.description = "draft";
    document.update(edited);
    Status saved = document.saveAs(QStringLiteral("/nonexistent/dir/mine.json"));
    QVERIFY(!saved);
    QVERIFY(document.isModified());
    QVERIFY(document.path().isEmpty());
  }

  void settingsApplyOrNameTheFieldInError_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("error");
    QTest::newRow("valid") << QString() << QString() << QString();
    QTest::newRow("name") << QStringLiteral("name") << QStringLiteral("  ") << QStringLiteral("name: a target needs a name");
    QTest::newRow("codegen") << QStringLiteral("codegen") << QStringLiteral("tpu")
                             << QStringLiteral("codegen: unknown codegen 'tpu'; expected one of: dnnl, reference");
    QTest::newRow("pipeline") << QStringLiteral("prepare") << QStringLiteral("FoldConstant, NoSuchPass")
                              << QStringLiteral("prepare pipeline: 1:15: unknown pass 'NoSuchPass'");
    QTest::newRow("prune") << QStringLiteral("prune") << QStringLiteral("nn.conv2d, nn.relux")
                           << QStringLiteral("prune ops: unknown op 'nn.relux'");
  }

  void settingsApplyOrNameTheFieldInError() {
    QFETCH(QString, field);
    QFETCH(QString, text);
    QFETCH(QString, error);
    TargetSettings settings{QStringLiteral("mine"), QStringLiteral("mine, for tests"), QStringLiteral("dnnl"),
                            QStringLiteral("SimplifyInference, FoldConstant"), QStringLiteral("nn.conv2d nn.dense")};
    if (field == QStringLiteral("name")) settings.name = text;
    if (field == QStringLiteral("codegen")) settings.codegen = text;
    if (field == QStringLiteral("prepare")) settings.preparePipeline = text;
    if (field == QStringLiteral("prune")) settings.pruneKeepOps = text;
    Result<Target> edited = withSettings(Target{}, settings);
    if (error.isEmpty()) {
      QVERIFY2(edited, edited ? "" : edited.error().str().c_str());
      QCOMPARE(edited->codegen, std::string("dnnl"));
      QCOMPARE(edited->preparePipeline, std::string("SimplifyInference, FoldConstant"));
      QCOMPARE(edited->pruneKeepOps, (std::vector<std::string>{"nn.conv2d", "nn.dense"}));
      QCOMPARE(settingsOf(*edited).pruneKeepOps, QStringLiteral("nn.conv2d, nn.dense"));
      return;
    }
    QVERIFY(!edited);
    QVERIFY2(QString::fromStdString(edited.error().str()).startsWith(error), edited.error().str().c_str());
  }

  // A target's composites are named after it: renaming it renames their prefix (undoable as
  // one edit), or AnnotateTarget would no longer give it the patterns' composites.
  void renamingATargetRenamesItsPatterns() {
    TargetDocument document;
    QVERIFY(document.load(QStringLiteral("byoc-target")));
    const std::size_t rows = document.target().patterns.size();
    QVERIFY(rows >= 2);
    TargetSettings settings = settingsOf(document.target());
    settings.name = QStringLiteral("myaccel");
    Result<Target> renamed = withSettings(document.target(), settings);
    QVERIFY(renamed.isOk());
    QCOMPARE(renamed->patterns.size(), rows);
    for (const PatternEntry& row : renamed->patterns)
      QVERIFY2(row.name.starts_with("myaccel."), row.name.c_str());
    QCOMPARE(renamed->patterns[0].name, std::string("myaccel.conv2d_relu_with_bias"));
    document.update(std::move(*renamed), QStringLiteral("Edit Target Settings"));
    QCOMPARE(document.target().patterns[0].name, std::string("myaccel.conv2d_relu_with_bias"));
    document.undoStack()->undo();
    QCOMPARE(document.target().name, std::string("byoc-target"));
    QCOMPARE(document.target().patterns[0].name, std::string("byoc-target.conv2d_relu_with_bias"));
  }

  void theDialogEditsTheCodegenAndRefusesWhatDoesNotParse() {
    TargetDocument document;
    QVERIFY(document.load(QStringLiteral("byoc-target")));
    TargetSettingsDialog dialog(document.target(), QStringLiteral("Target Settings"));
    QVERIFY(dialog.canAccept());
    QCOMPARE(dialog.codegenBox()->currentData().toString(), QString::fromStdString(document.target().codegen));
    dialog.codegenBox()->setCurrentIndex(dialog.codegenBox()->findData(QStringLiteral("dnnl")));
    QVERIFY(dialog.edited());
    QCOMPARE(dialog.edited()->codegen, std::string("dnnl"));
    // Rules and patterns are kept.
    QCOMPARE(dialog.edited()->patterns.size(), document.target().patterns.size());
    dialog.prepareEdit()->setText(QStringLiteral("FoldConstant("));
    QVERIFY(!dialog.canAccept());
    QVERIFY2(dialog.error().startsWith(QStringLiteral("prepare pipeline: 1:14: ")), qPrintable(dialog.error()));
    dialog.prepareEdit()->setText(QStringLiteral("FoldConstant"));
    QVERIFY(dialog.canAccept());
    QVERIFY(dialog.error().isEmpty());
    QCOMPARE(dialog.edited()->preparePipeline, std::string("FoldConstant"));
  }

  // A new target gets a name no built-in target has, and its codegen's composites are offered as
  // the names of its patterns: the one an op anchors when a pattern is added from that op, all of
  // them in the name's editor.
  void aNewTargetIsOfferedItsCodegensComposites() {
    QCOMPARE(unusedTargetName({"dnnl", "byoc-target"}), QStringLiteral("my_target"));
    QCOMPARE(unusedTargetName({"my_target", "my_target_2"}), QStringLiteral("my_target_3"));
    std::vector<std::string> builtin = builtinTargetNames();
    QVERIFY(std::find(builtin.begin(), builtin.end(), unusedTargetName(builtin).toStdString()) == builtin.end());

    Target fresh;
    fresh.name = "mine";
    TargetSettingsDialog dialog(fresh, QStringLiteral("New Target"));
    QVERIFY(dialog.compositeHint().isEmpty());  // no codegen chosen yet
    dialog.codegenBox()->setCurrentIndex(dialog.codegenBox()->findData(QStringLiteral("dnnl")));
    QVERIFY2(dialog.compositeHint().contains(QStringLiteral("mine.conv2d, ")), qPrintable(dialog.compositeHint()));
    dialog.codegenBox()->setCurrentIndex(dialog.codegenBox()->findData(QStringLiteral("reference")));
    QVERIFY(dialog.compositeHint().isEmpty());  // it builds any composite

    TargetDocument document;
    fresh.codegen = "dnnl";
    document.reset(fresh, {});
    PatternTableModel table(&document);
    const QStringList offered = table.codegenCompositeNames();
    QVERIFY(offered.contains(QStringLiteral("mine.conv2d_bias_relu")));
    QVERIFY(offered.contains(QStringLiteral("mine.layer_norm")));
    for (const QString& name : offered) {
      QVERIFY2(name.startsWith(QStringLiteral("mine.")), qPrintable(name));
      QVERIFY2(findCodegen("dnnl")->checkComposite(name.toStdString()), qPrintable(name));
    }
    QCOMPARE(table.freshName(QStringLiteral("nn.conv2d")), QStringLiteral("mine.conv2d"));
    QVERIFY(table.addPattern(table.freshName(QStringLiteral("nn.conv2d")), QStringLiteral("nn.conv2d(*, *)")));
    QCOMPARE(table.freshName(QStringLiteral("nn.conv2d")), QStringLiteral("mine.pattern_1"));  // taken now
    QCOMPARE(table.freshName(QStringLiteral("nn.softmax")), QStringLiteral("mine.pattern_1"));  // dnnl has no such composite

    QTableView view;
    view.setModel(&table);
    PatternNameDelegate delegate(&table);
    view.setItemDelegateForColumn(PatternTableModel::NameColumn, &delegate);
    QWidget* editor = delegate.createEditor(view.viewport(), QStyleOptionViewItem(), table.index(0, PatternTableModel::NameColumn));
    auto* line = qobject_cast<QLineEdit*>(editor);
    QVERIFY(line && line->completer());
    line->completer()->setCompletionPrefix(QStringLiteral("bias_relu"));
    QStringList completions;
    for (int row = 0; line->completer()->setCurrentRow(row); ++row) completions << line->completer()->currentCompletion();
    QVERIFY2(completions.contains(QStringLiteral("mine.conv2d_bias_relu")) && completions.contains(QStringLiteral("mine.dense_bias_relu")),
             qPrintable(completions.join(u' ')));
    delete editor;
  }
};

QTEST_MAIN(TestTargetDocument)
#include "test_target_document.moc"
