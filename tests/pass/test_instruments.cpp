/// \file
/// Pass instruments: the documented call order, skipping, failures, and the built-in instruments.

#include <QtTest>
#include <sstream>

#include "pass/instruments/pass_timing.h"
#include "pass/instruments/print_ir.h"
#include "pass/instruments/progress.h"
#include "pass/instruments/snapshot_recorder.h"
#include "pass/pass.h"
#include "text/parser.h"

using namespace byoc;

namespace {

/// Logs every hook as `tag:hook[:pass]`; refuses to run `skip`; fails `afterPass` of `reject`.
class LoggingInstrument final : public PassInstrument {
 public:
  LoggingInstrument(std::string tag, std::vector<std::string>* log, std::string skip = {}, std::string reject = {})
      : tag_(std::move(tag)), log_(log), skip_(std::move(skip)), reject_(std::move(reject)) {}
  std::string name() const override { return tag_; }
  void enterContext() override { log_->push_back(tag_ + ":enter"); }
  void exitContext() override { log_->push_back(tag_ + ":exit"); }
  bool shouldRun(const Module&, const PassInfo& info) override {
    log_->push_back(tag_ + ":shouldRun:" + info.name);
    return info.name != skip_;
  }
  void beforePass(const Module&, const PassInfo& info) override { log_->push_back(tag_ + ":before:" + info.name); }
  Status afterPass(const PassResult&, const PassInfo& info) override {
    log_->push_back(tag_ + ":after:" + info.name);
    if (info.name == reject_) return makeError(tag_ + " rejects " + info.name);
    return Status::ok();
  }
  void afterPassFailed(const Module&, const PassInfo& info, const Diagnostic& error) override {
    log_->push_back(tag_ + ":failed:" + info.name + ":" + error.message);
  }

 private:
  std::string tag_;
  std::vector<std::string>* log_;
  std::string skip_;
  std::string reject_;
};

PassPtr namedPass(const std::string& name, std::vector<std::string>* log, bool fail = false) {
  return makeModulePass({name, "test pass", 0, {}}, [name, log, fail](const Module& module, PassContext&) {
    log->push_back("run:" + name);
    if (fail) return Result<PassResult>(makeError(name + " broke"));
    return Result<PassResult>(PassResult{module, false});
  });
}

}  // namespace

class TestInstruments : public QObject {
  Q_OBJECT

 private slots:
  void callOrderOfTwoInstruments() {
    std::vector<std::string> log;
    PassContext context;
    context.instruments = {std::make_shared<LoggingInstrument>("A", &log),
                           std::make_shared<LoggingInstrument>("B", &log)};
    PassPtr pipeline = makeSequential({namedPass("P", &log)}, "Seq");
    QVERIFY(runPipeline(*pipeline, Module(), context).isOk());
    QCOMPARE(log, (std::vector<std::string>{
                      "A:enter", "B:enter",                                            //
                      "A:shouldRun:Seq", "B:shouldRun:Seq", "A:before:Seq", "B:before:Seq",  //
                      "A:shouldRun:P", "B:shouldRun:P", "A:before:P", "B:before:P", "run:P", "A:after:P", "B:after:P",
                      "A:after:Seq", "B:after:Seq",  //
                      "A:exit", "B:exit"}));
  }

  void shouldRunFalseSkipsThePassAndItsHooks() {
    std::vector<std::string> log;
    PassContext context;
    context.instruments = {std::make_shared<LoggingInstrument>("A", &log, "P"),
                           std::make_shared<LoggingInstrument>("B", &log)};
    PassPtr pipeline = makeSequential({namedPass("P", &log), namedPass("Q", &log)}, "Seq");
    QVERIFY((*pipeline)(Module(), context).isOk());
    QCOMPARE(log, (std::vector<std::string>{"A:shouldRun:Seq", "B:shouldRun:Seq", "A:before:Seq", "B:before:Seq",
                                            "A:shouldRun:P",                                      //
                                            "A:shouldRun:Q", "B:shouldRun:Q", "A:before:Q", "B:before:Q", "run:Q",
                                            "A:after:Q", "B:after:Q", "A:after:Seq", "B:after:Seq"}));
  }

  void aFailingPassCallsAfterPassFailedThenExit() {
    std::vector<std::string> log;
    PassContext context;
    context.instruments = {std::make_shared<LoggingInstrument>("A", &log)};
    PassPtr pipeline = makeSequential({namedPass("P", &log, true), namedPass("Q", &log)}, "Seq");
    Result<PassResult> result = runPipeline(*pipeline, Module(), context);
    QVERIFY(!result.isOk());
    QCOMPARE(result.error().message, std::string("P broke"));
    QCOMPARE(log, (std::vector<std::string>{"A:enter", "A:shouldRun:Seq", "A:before:Seq", "A:shouldRun:P",
                                            "A:before:P", "run:P", "A:failed:P:P broke", "A:failed:Seq:P broke",
                                            "A:exit"}));
  }

  void anAfterPassErrorFailsThePass() {
    std::vector<std::string> log;
    PassContext context;
    context.instruments = {std::make_shared<LoggingInstrument>("A", &log, "", "P"),
                           std::make_shared<LoggingInstrument>("B", &log)};
    Result<PassResult> result = (*namedPass("P", &log))(Module(), context);
    QVERIFY(!result.isOk());
    QCOMPARE(result.error().message, std::string("A rejects P"));
    QCOMPARE(log, (std::vector<std::string>{"A:shouldRun:P", "B:shouldRun:P", "A:before:P", "B:before:P", "run:P",
                                            "A:after:P", "B:failed:P:A rejects P"}));
  }

  void timingHasOneRowPerInvocation() {
    std::vector<std::string> log;
    auto timing = std::make_shared<PassTimingInstrument>();
    PassContext context;
    context.instruments = {timing};
    PassPtr pipeline = makeSequential({namedPass("P", &log), namedPass("Q", &log)}, "Seq");
    QVERIFY(runPipeline(*pipeline, Module(), context).isOk());
    QCOMPARE(timing->rows().size(), std::size_t{3});
    QCOMPARE(timing->rows()[0].pass, std::string("Seq"));
    QCOMPARE(timing->rows()[0].depth, 0);
    QCOMPARE(timing->rows()[2].pass, std::string("Q"));
    QCOMPARE(timing->rows()[2].depth, 1);
    QVERIFY(timing->rows()[0].elapsed >= timing->rows()[1].elapsed + timing->rows()[2].elapsed);
    QStringList lines = QString::fromStdString(timing->render()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 5);
    QVERIFY(lines[0].startsWith(QLatin1String("pass")));
    QVERIFY(lines[1].startsWith(QLatin1String("Seq ")));
    QVERIFY(lines[1].endsWith(QLatin1String("100.0%")));
    QVERIFY(lines[3].startsWith(QLatin1String("  Q ")));
    QVERIFY(lines[4].startsWith(QLatin1String("total")));
  }

  void printIrWritesTheModuleBeforeEachPass() {
    Result<Module> module = parseModule("def @main(%x: int32) { add(%x, 1) }", "m.relay");
    QVERIFY(module.isOk());
    std::vector<std::string> log;
    std::ostringstream out;
    PassContext context;
    context.instruments = {makePrintIrInstrument(out)};
    QVERIFY((*namedPass("P", &log))(*module, context).isOk());
    QCOMPARE(QString::fromStdString(out.str()), QStringLiteral("Running pass: P (opt_level: 0, required passes: [])\n"
                                    "def @main(%x: int32 /* ty=int32 */) {\n  add(%x, 1 /* ty=int32 */)\n}\n\n"));
  }

  void irDumpWritesTheModuleAfterTheChosenPasses() {
    Result<Module> module = parseModule("def @main(%x: int32) { add(%x, 1) }", "m.relay");
    QVERIFY(module.isOk());
    std::vector<std::string> log;
    std::ostringstream out;
    PassContext context;
    PrintOptions options;
    options.showMetadata = false;
    context.instruments = {makeIrDumpInstrument(out, [](const std::string& pass) { return pass == "Q"; }, options)};
    PassPtr pipeline = makeSequential({namedPass("P", &log), namedPass("Q", &log)}, "Seq");
    QVERIFY(runPipeline(*pipeline, *module, context).isOk());
    QCOMPARE(QString::fromStdString(out.str()), QStringLiteral("// -----// IR Dump After Q //----- //\n"
                                                               "#[version = \"0.0.5\"]\n"
                                                               "def @main(%x: int32) {\n  add(%x, 1)\n}\n\n"));
  }

  void progressReportsEachPassWithItsDepth() {
    std::vector<std::string> log;
    PassContext context;
    std::vector<std::string> progress;
    context.instruments = {makeProgressInstrument([&progress](const std::string& pass, int depth) {
      progress.push_back(std::to_string(depth) + ":" + pass);
    })};
    PassPtr pipeline = makeSequential({namedPass("P", &log), namedPass("Q", &log)}, "Seq");
    QVERIFY(runPipeline(*pipeline, Module(), context).isOk());
    QVERIFY(runPipeline(*pipeline, Module(), context).isOk());
    QCOMPARE(progress, (std::vector<std::string>{"0:Seq", "1:P", "1:Q", "0:Seq", "1:P", "1:Q"}));
  }

  void cancellingTheContextStopsAtTheNextInvocation() {
    std::vector<std::string> log;
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    PassPtr cancelling = makeModulePass({"Cancel", "asks to stop", 0, {}}, [cancel](const Module& module, PassContext&) {
      cancel->store(true);
      return Result<PassResult>(PassResult{module, false});
    });
    auto recorder = std::make_shared<SnapshotRecorder>();
    PassContext context;
    context.cancel = cancel;
    context.instruments = {recorder};
    PassPtr pipeline = makeSequential({namedPass("P", &log), cancelling, namedPass("Q", &log)}, "Seq");
    Result<PassResult> result = runPipeline(*pipeline, Module(), context);
    QVERIFY(!result.isOk());
    QCOMPARE(result.error().message, std::string("cancelled"));
    QCOMPARE(log, std::vector<std::string>{"run:P"});
    QCOMPARE(recorder->snapshots().size(), std::size_t{2});  // P and Cancel finished before the stop
    QVERIFY(!(*namedPass("P", &log))(Module(), context).isOk());  // nothing starts once cancelled
    QCOMPARE(log.size(), std::size_t{1});
  }

  void recorderKeepsEveryInvocationWithItsDepth() {
    std::vector<std::string> log;
    auto recorder = std::make_shared<SnapshotRecorder>();
    PassContext context;
    context.instruments = {recorder};
    PassPtr pipeline = makeSequential({namedPass("P", &log), namedPass("Q", &log)}, "Seq");
    QVERIFY(runPipeline(*pipeline, Module(), context).isOk());
    QCOMPARE(recorder->snapshots().size(), std::size_t{3});
    QCOMPARE(recorder->snapshots()[0].pass, std::string("P"));
    QCOMPARE(recorder->snapshots()[0].depth, 1);
    QCOMPARE(recorder->snapshots()[2].pass, std::string("Seq"));
    QCOMPARE(recorder->snapshots()[2].depth, 0);
    QCOMPARE(recorder->snapshotsAt(1).size(), std::size_t{2});
    QVERIFY(runPipeline(*pipeline, Module(), context).isOk());
    QCOMPARE(recorder->snapshots().size(), std::size_t{3});  // entering again starts afresh
  }
};

QTEST_GUILESS_MAIN(TestInstruments)
#include "test_instruments.moc"
