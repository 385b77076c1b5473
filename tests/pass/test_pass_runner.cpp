/// \file
/// The pass runner: the module after each step, errors named after their step, cancellation
/// before and during a run, and the instruments a run can ask for (verifier, IR dumps, timing, the
/// caller's own).

#include <QtTest>
#include <atomic>
#include <sstream>

#include "ir/op.h"
#include "pass/infer_type.h"
#include "pass/instruments/snapshot_recorder.h"
#include "pass/pass_runner.h"
#include "pass/registry.h"
#include "text/parser.h"
#include "text/printer.h"

using namespace byoc;

namespace {

Module typedModule() {
  Result<Module> parsed = parseModule("def @main(%x: Tensor[(2), float32]) {\n  negative(%x)\n}\n", "r.relay");
  if (!parsed) qFatal("%s", parsed.error().str().c_str());
  Result<Module> typed = inferTypes(*parsed);
  if (!typed) qFatal("%s", typed.error().str().c_str());
  return *typed;
}

/// main's body as text, without types or metadata.
std::string bodyText(const Module& module) {
  PrintOptions options;
  options.showMetadata = false;
  std::string text = printModule(module, options);
  std::size_t open = text.find("{\n");
  return text.substr(open + 2, text.rfind("\n}") - open - 2);
}

/// A pass that wraps main's result in one more `negative` (typed), logging its name.
PassPtr negating(const std::string& name, std::vector<std::string>* log) {
  return makeModulePass({name, "negates main's result", 0, {}}, [name, log](const Module& input, PassContext&) -> Result<PassResult> {
    log->push_back(name);
    Function main = input.find("main");
    BYOC_ASSIGN_OR_RETURN(Expr negated, makeOpCall("negative", {main->body}, {}, main->body->origin()));
    Module output = input;
    output.set("main", FunctionNode::make(main->params, negated, {}, main->attrs, main->origin()));
    BYOC_ASSIGN_OR_RETURN(Module typed, inferTypes(output));
    return PassResult{typed, true};
  });
}

/// A pass that changes nothing.
PassPtr keeping(const std::string& name, std::vector<std::string>* log) {
  return makeModulePass({name, "keeps the module", 0, {}}, [name, log](const Module& input, PassContext&) {
    log->push_back(name);
    return Result<PassResult>(PassResult{input, false});
  });
}

/// A pass that fails with `NAME broke`.
PassPtr failing(const std::string& name) {
  return makeModulePass({name, "fails", 0, {}}, [name](const Module&, PassContext&) {
    return Result<PassResult>(makeError(name + " broke"));
  });
}

/// A pass that drops main's types: the verifier rejects its result.
PassPtr breaking() {
  return makeModulePass({"Break", "drops the types", 0, {}}, [](const Module& input, PassContext&) {
    Function main = input.find("main");
    Module output = input;
    output.set("main", FunctionNode::make(main->params, main->body, main->retType, main->attrs, main->origin()));
    return Result<PassResult>(PassResult{output, true});
  });
}

/// A pass that sets `flag` (as a user's Cancel would, while the pass runs).
PassPtr cancelling(std::shared_ptr<std::atomic<bool>> flag) {
  return makeModulePass({"Cancel", "asks the run to stop", 0, {}}, [flag](const Module& input, PassContext&) {
    flag->store(true);
    return Result<PassResult>(PassResult{input, false});
  });
}

/// How many times `part` occurs in `text`.
int occurrences(const std::string& text, const std::string& part) {
  int count = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++count;
  return count;
}

}  // namespace

class TestPassRunner : public QObject {
  Q_OBJECT

 private slots:
  void keepsTheModuleAfterEachStep() {
    std::vector<std::string> log;
    const Module input = typedModule();
    std::vector<PassPtr> steps{negating("P", &log), keeping("Q", &log), negating("R", &log)};
    Result<PassRun> run = runPasses(steps, input);
    QVERIFY2(run, run ? "" : run.error().str().c_str());
    QCOMPARE(log, (std::vector<std::string>{"P", "Q", "R"}));
    QCOMPARE(run->steps.size(), std::size_t{3});
    QCOMPARE(run->steps[0].pass, std::string("P"));
    QCOMPARE(run->steps[2].pass, std::string("R"));
    QVERIFY(run->steps[0].changed);
    QVERIFY(!run->steps[1].changed);
    QVERIFY(run->steps[1].module.sameNodes(run->steps[0].module));
    QCOMPARE(bodyText(run->steps[0].module), std::string("  %0 = negative(%x);\n  negative(%0)"));
    QCOMPARE(bodyText(run->steps[2].module), std::string("  %0 = negative(%x);\n  %1 = negative(%0);\n  negative(%1)"));
    QCOMPARE(bodyText(input), std::string("  negative(%x)"));  // the input is never modified
    QVERIFY(run->timing.empty());
  }

  void aFailingStepEndsTheRunNamedAfterIt() {
    std::vector<std::string> log;
    std::vector<PassPtr> steps{negating("P", &log), failing("Q"), negating("R", &log)};
    PassRunOptions options;
    std::vector<std::string> finished;
    options.afterStep = [&](const PassStep& step, std::size_t index) {
      finished.push_back(std::to_string(index) + ":" + step.pass);
      return Status::ok();
    };
    Result<PassRun> run = runPasses(steps, typedModule(), options);
    QVERIFY(!run);
    QCOMPARE(run.error().message, std::string("Q: Q broke"));
    QCOMPARE(log, std::vector<std::string>{"P"});
    QCOMPARE(finished, std::vector<std::string>{"0:P"});
  }

  void anAfterStepErrorEndsTheRun() {
    std::vector<std::string> log;
    std::vector<PassPtr> steps{negating("P", &log), negating("Q", &log)};
    PassRunOptions options;
    options.afterStep = [](const PassStep& step, std::size_t) { return Status(makeError("cannot write " + step.pass)); };
    Result<PassRun> run = runPasses(steps, typedModule(), options);
    QVERIFY(!run);
    QCOMPARE(run.error().message, std::string("cannot write P"));
    QCOMPARE(log, std::vector<std::string>{"P"});
  }

  void aCancelledRunRunsNothing() {
    std::vector<std::string> log;
    std::vector<PassPtr> steps{negating("P", &log), negating("Q", &log)};
    PassRunOptions options;
    options.cancel = std::make_shared<std::atomic<bool>>(true);
    Result<PassRun> run = runPasses(steps, typedModule(), options);
    QVERIFY(!run);
    QCOMPARE(run.error().message, std::string("P: cancelled"));
    QVERIFY(log.empty());
  }

  void aCancelDuringAStepStopsTheRunBeforeTheNext() {
    std::vector<std::string> log;
    auto flag = std::make_shared<std::atomic<bool>>(false);
    std::vector<PassPtr> steps{negating("P", &log), cancelling(flag), negating("Q", &log)};
    PassRunOptions options;
    options.cancel = flag;
    std::vector<std::string> progress;
    options.progress = [&](const std::string& pass, int depth) { progress.push_back(std::to_string(depth) + ":" + pass); };
    Result<PassRun> run = runPasses(steps, typedModule(), options);
    QVERIFY(!run);
    QCOMPARE(run.error().message, std::string("Q: cancelled"));
    QCOMPARE(log, std::vector<std::string>{"P"});
    QCOMPARE(progress, (std::vector<std::string>{"0:P", "0:Cancel"}));
  }

  void aCancelAfterTheLastStepKeepsTheResult() {
    std::vector<std::string> log;
    auto flag = std::make_shared<std::atomic<bool>>(false);
    std::vector<PassPtr> steps{negating("P", &log), cancelling(flag)};
    PassRunOptions options;
    options.cancel = flag;
    Result<PassRun> run = runPasses(steps, typedModule(), options);
    QVERIFY(run);
    QCOMPARE(run->steps.size(), std::size_t{2});
  }

  void verifyEachCatchesTheBrokenPass() {
    std::vector<std::string> log;
    std::vector<PassPtr> steps{negating("P", &log), breaking(), negating("Q", &log)};
    QVERIFY(runPasses(steps, typedModule()));  // unverified, the next step retypes and nobody notices
    log.clear();
    PassRunOptions options;
    options.verifyEach = true;
    Result<PassRun> run = runPasses(steps, typedModule(), options);
    QVERIFY(!run);
    QCOMPARE(QString::fromStdString(run.error().str()),
             QStringLiteral("r.relay:1:10: after Break: verifier: missing type (function in @main)"));
    QCOMPARE(log, std::vector<std::string>{"P"});
  }

  void dumpsTheModuleAfterTheNamedPassOnly() {
    std::vector<std::string> log;
    std::vector<PassPtr> steps{negating("P", &log), keeping("Q", &log), negating("R", &log)};
    std::ostringstream dumps;
    PassRunOptions options;
    options.irDumps = &dumps;
    options.dumpAfter = {"Q"};
    options.dumpOptions.showMetadata = false;
    QVERIFY(runPasses(steps, typedModule(), options));
    QCOMPARE(QString::fromStdString(dumps.str()), QStringLiteral("// -----// IR Dump After Q //----- //\n"
                                                                 "#[version = \"0.0.5\"]\n"
                                                                 "def @main(%x: Tensor[(2), float32]) -> Tensor[(2), float32] {\n"
                                                                 "  %0 = negative(%x);\n"
                                                                 "  negative(%0)\n"
                                                                 "}\n\n"));
  }

  void dumpsAfterEveryPassNestedOnesIncluded() {
    std::vector<std::string> log;
    PassPtr sequence = makeSequential({negating("P", &log), keeping("Q", &log)}, "Seq");
    std::vector<PassPtr> steps{sequence, negating("R", &log)};
    std::ostringstream dumps;
    PassRunOptions options;
    options.irDumps = &dumps;
    options.dumpAfterAll = true;
    QVERIFY(runPasses(steps, typedModule(), options));
    const std::string text = dumps.str();
    QCOMPARE(occurrences(text, "// -----// IR Dump After "), 4);
    const std::size_t p = text.find("IR Dump After P ");
    const std::size_t q = text.find("IR Dump After Q ");
    const std::size_t seq = text.find("IR Dump After Seq ");
    const std::size_t r = text.find("IR Dump After R ");
    QVERIFY(p < q && q < seq && seq < r && r != std::string::npos);
  }

  void timingHasARowPerInvocationAndATotal() {
    std::vector<std::string> log;
    PassPtr sequence = makeSequential({keeping("P", &log)}, "Seq");
    std::vector<PassPtr> steps{sequence, keeping("Q", &log)};
    PassRunOptions options;
    options.timePasses = true;
    Result<PassRun> run = runPasses(steps, typedModule(), options);
    QVERIFY(run);
    const QStringList lines = QString::fromStdString(run->timing).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 5);
    QVERIFY(lines[0].startsWith(QLatin1String("pass ")));
    QVERIFY(lines[1].startsWith(QLatin1String("Seq ")));
    QVERIFY(lines[2].startsWith(QLatin1String("  P ")));
    QVERIFY(lines[3].startsWith(QLatin1String("Q ")));
    QVERIFY(lines[4].startsWith(QLatin1String("total ")));
    QVERIFY(lines[4].endsWith(QLatin1String("100.0%")));
  }

  void sequenceStepsAreTheInvocationsOfASequential() {
    std::vector<std::string> log;
    PassRegistry registry;
    QVERIFY(registry.add({{"Prepare", "prepares", 0, {}}, [&log](const Attrs&) { return Result<PassPtr>(keeping("Prepare", &log)); }}));
    PassPtr needy = makeModulePass({"Needy", "needs Prepare", 0, {"Prepare"}}, [](const Module& module, PassContext&) {
      return Result<PassResult>(PassResult{module, false});
    });
    PassPtr gated = makeModulePass({"Gated", "opt level 3", 3, {}}, [](const Module& module, PassContext&) {
      return Result<PassResult>(PassResult{module, false});
    });
    PassContext context;
    context.registry = &registry;
    std::vector<PassPtr> passes{needy, gated, needy};
    Result<std::vector<PassPtr>> steps = sequenceSteps(passes, context);
    QVERIFY(steps);
    std::vector<std::string> names;
    for (const PassPtr& step : *steps) names.push_back(step->info().name);
    QCOMPARE(names, (std::vector<std::string>{"Prepare", "Needy", "Prepare", "Needy"}));
    context.registry = nullptr;  // the built-in registry has no Prepare
    Result<std::vector<PassPtr>> missing = sequenceSteps(passes, context);
    QVERIFY(!missing);
    QCOMPARE(missing.error().message, std::string("Needy requires unknown pass 'Prepare'"));
  }

  // A run takes the caller's own instruments, after its built-in ones: a recorder sees every
  // invocation, the passes a step runs inside itself too.
  void aRunTakesTheCallersInstruments() {
    std::vector<std::string> log;
    auto recorder = std::make_shared<SnapshotRecorder>();
    PassRunOptions options;
    options.verifyEach = true;
    options.instruments = {recorder};
    const std::vector<PassPtr> steps{makeSequential({negating("A", &log), keeping("B", &log)}, "AB"), negating("C", &log)};
    Result<PassRun> run = runPasses(steps, typedModule(), options);
    QVERIFY2(run, run ? "" : run.error().str().c_str());
    QCOMPARE(run->steps.size(), std::size_t{2});
    std::vector<std::string> recorded;
    for (const PassSnapshot& snapshot : recorder->snapshots()) recorded.push_back(snapshot.pass + "@" + std::to_string(snapshot.depth));
    QCOMPARE(recorded, (std::vector<std::string>{"A@1", "B@1", "AB@0", "C@0"}));
    QCOMPARE(bodyText(recorder->snapshots().back().module), bodyText(run->steps.back().module));
  }
};

QTEST_GUILESS_MAIN(TestPassRunner)
#include "test_pass_runner.moc"
