#include <QtTest>

#include "pass/infer_type.h"
#include "pass/pass.h"
#include "text/parser.h"

using namespace byoc;

namespace {

/// A pass that records that it ran, changes nothing, and reports so.
PassPtr recordingPass(const std::string& name, int optLevel, std::vector<std::string>* log) {
  return makeModulePass({name, "records that it ran", optLevel, {}}, [name, log](const Module& module, PassContext&) {
    log->push_back(name);
    return Result<PassResult>(PassResult{module, false});
  });
}

}  // namespace

/// Sequential: order, opt-level gating, disabled and required passes, failure.
class TestSequential : public QObject {
  Q_OBJECT

 private slots:
  void runsInOrderAndSkipsByOptLevel() {
    std::vector<std::string> log;
    PassPtr pipeline = makeSequential({recordingPass("A", 0, &log), recordingPass("B", 3, &log), recordingPass("C", 2, &log)});
    PassContext context;
    context.optLevel = 2;
    Result<PassResult> result = pipeline->run(Module(), context);
    QVERIFY(result.isOk());
    QCOMPARE(log, (std::vector<std::string>{"A", "C"}));
    QVERIFY(!result->changed);
  }

  void disabledAndRequiredPassesOverrideTheLevel() {
    std::vector<std::string> log;
    PassPtr pipeline = makeSequential({recordingPass("A", 0, &log), recordingPass("B", 3, &log)});
    PassContext context;
    context.optLevel = 1;
    context.disabledPasses.insert("A");
    context.requiredPasses.insert("B");
    QVERIFY(pipeline->run(Module(), context).isOk());
    QCOMPARE(log, (std::vector<std::string>{"B"}));
  }

  void aFailingPassStopsThePipeline() {
    std::vector<std::string> log;
    PassPtr failing = makeModulePass({"Fail", "always fails", 0, {}}, [](const Module&, PassContext&) {
      return Result<PassResult>(makeError("Fail: nothing to do"));
    });
    PassPtr pipeline = makeSequential({failing, recordingPass("After", 0, &log)});
    PassContext context;
    Result<PassResult> result = pipeline->run(Module(), context);
    QVERIFY(!result.isOk());
    QCOMPARE(result.error().message, std::string("Fail: nothing to do"));
    QVERIFY(log.empty());
  }

  void changedIsTheOrOfThePasses() {
    Result<Module> module = parseModule("def @main(%x: int32) { add(%x, 1) }", "m.relay");
    QVERIFY(module.isOk());
    std::vector<std::string> log;
    PassPtr pipeline = makeSequential({recordingPass("A", 0, &log), createInferTypePass(), recordingPass("B", 0, &log)});
    PassContext context;
    Result<PassResult> result = pipeline->run(*module, context);
    QVERIFY(result.isOk());
    QVERIFY(result->changed);
    QVERIFY(result->module.find("main")->body->type());
  }
};

QTEST_GUILESS_MAIN(TestSequential)
#include "test_sequential.moc"
