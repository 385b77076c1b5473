#include <QtTest>

#include "pass/infer_type.h"
#include "pass/pass.h"
#include "pass/registry.h"
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

  void requiredPassesRunFirstWhateverTheirLevel() {
    std::vector<std::string> log;
    PassRegistry registry;
    QVERIFY(registry.add({{"Prepare", "runs first", 3, {}}, [&log](const Attrs&) {
                            return Result<PassPtr>(recordingPass("Prepare", 3, &log));
                          }}).isOk());
    PassPtr needy = makeModulePass({"Needy", "needs Prepare", 1, {"Prepare"}}, [&log](const Module& module, PassContext&) {
      log.push_back("Needy");
      return Result<PassResult>(PassResult{module, false});
    });
    PassPtr gated = makeModulePass({"Gated", "above the level", 2, {"Prepare"}}, [&log](const Module& module, PassContext&) {
      log.push_back("Gated");
      return Result<PassResult>(PassResult{module, false});
    });
    PassContext context;
    context.optLevel = 1;
    context.registry = &registry;
    QVERIFY(makeSequential({needy, gated, needy})->run(Module(), context).isOk());
    QCOMPARE(log, (std::vector<std::string>{"Prepare", "Needy", "Prepare", "Needy"}));
  }

  void anUnknownRequiredPassIsAnError() {
    PassPtr needy = makeModulePass({"Needy", "needs Missing", 0, {"Missing"}}, [](const Module& module, PassContext&) {
      return Result<PassResult>(PassResult{module, false});
    });
    PassContext context;
    Result<PassResult> result = makeSequential({needy})->run(Module(), context);
    QVERIFY(!result.isOk());
    QCOMPARE(result.error().message, std::string("Needy requires unknown pass 'Missing'"));
  }

  void disabledWinsOverRequired() {
    std::vector<std::string> log;
    PassContext context;
    context.disabledPasses.insert("A");
    context.requiredPasses.insert("A");
    QVERIFY(makeSequential({recordingPass("A", 0, &log)})->run(Module(), context).isOk());
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
