#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "authoring/target_document.h"
#include "support/file_io.h"

using namespace byoc;
using namespace byoc::ui;

/// The edited target: loading, editing, saving and the modified flag.
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
    document.createNew(QStringLiteral("mine"));
    Target edited = document.target();
    edited.description = "draft";
    document.update(edited);
    Status saved = document.saveAs(QStringLiteral("/nonexistent/dir/mine.json"));
    QVERIFY(!saved);
    QVERIFY(document.isModified());
    QVERIFY(document.path().isEmpty());
  }
};

QTEST_GUILESS_MAIN(TestTargetDocument)
#include "test_target_document.moc"
