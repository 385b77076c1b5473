#include <QtTest>

#include "runtime/reference_check.h"
#include "runtime_test_util.h"

using namespace byoc;
using namespace byoc::testing;

namespace {

/// A codegen that computes what the reference does, then adds `offset` to every float output: a
/// codegen with a bug the check must find.
class OffsetModule final : public RuntimeModule {
 public:
  OffsetModule(std::unique_ptr<RuntimeModule> inner, float offset) : inner_(std::move(inner)), offset_(offset) {}
  std::string_view codegen() const override { return "test:offset"; }
  bool has(std::string_view symbol) const override { return inner_->has(symbol); }
  Status run(std::string_view symbol, std::span<const NDArray> inputs, std::span<const NDArray> outputs) override {
    BYOC_TRY(inner_->run(symbol, inputs, outputs));
    for (const NDArray& output : outputs) {
      float* values = output.data<float>();
      for (int64_t i = 0; i < output.numElements(); ++i) values[i] += offset_;
    }
    return Status::ok();
  }

 private:
  std::unique_ptr<RuntimeModule> inner_;
  float offset_;
};

void registerOffsetCodegen() {
  static const bool registered = registerCodegen(
      {"test:offset", "adds 3 to every output", [](const Function& function, const std::string& symbol, const CodegenOptions& options)
           -> Result<std::unique_ptr<RuntimeModule>> {
         BYOC_ASSIGN_OR_RETURN(std::unique_ptr<RuntimeModule> inner, referenceCodegen().build(function, symbol, options));
         return std::unique_ptr<RuntimeModule>(new OffsetModule(std::move(inner), 3.0f));
       }});
  QVERIFY(registered);
}

const char* kParams = "%x: Tensor[(2, 2), float32], %y: Tensor[(2, 2), float32]";

std::vector<Value> inputs() {
  return {NDArray::fromFloats({2, 2}, std::vector<float>{1, -2, 3, -4}), NDArray::fromFloats({2, 2}, std::vector<float>{1, 1, 1, 1})};
}

RegionAgreement region(bool within, bool quantized) {
  RegionAgreement agreement{"@r", 1, {}, quantized};
  agreement.worst.within = within;
  return agreement;
}

}  // namespace

/// Checking a run against the reference: outputs, and each region call on its own inputs.
class TestReferenceCheck : public QObject {
  Q_OBJECT

 private slots:
  void eachRegionCallIsCheckedOnTheInputsItWasGiven() {
    registerOffsetCodegen();
    const Module module = typedModule(regionModuleText("acc", kParams, "%0 = add(%x, %y); nn.relu(%0)"));
    ExecutorOptions faithful;
    Result<std::vector<RegionAgreement>> agreeing = checkRegions(module, faithful, inputs());
    QVERIFY2(agreeing.isOk(), agreeing.isOk() ? "" : agreeing.error().str().c_str());
    QCOMPARE(agreeing->size(), std::size_t{1});
    QVERIFY((*agreeing)[0].worst.within);
    QCOMPARE((*agreeing)[0].calls, int64_t{1});
    QCOMPARE((*agreeing)[0].label, std::string("@tvmgen_default_acc_main_0"));

    ExecutorOptions buggy;
    buggy.codegens["acc"] = "test:offset";
    Result<std::vector<RegionAgreement>> differing = checkRegions(module, buggy, inputs());
    QVERIFY(differing.isOk());
    QVERIFY(!(*differing)[0].worst.within);
    QCOMPARE((*differing)[0].worst.maxAbsolute, 3.0);
    QVERIFY(!(*differing)[0].quantized);
  }

  void theCheckStopsWithItsObject() {
    registerOffsetCodegen();
    const Module module = typedModule(regionModuleText("acc", kParams, "add(%x, %y)"));
    ExecutorOptions options;
    options.codegens["acc"] = "test:offset";
    Result<std::unique_ptr<Executor>> executor = Executor::create(module, options);
    QVERIFY(executor.isOk());
    {
      Result<std::unique_ptr<RegionCheck>> check = RegionCheck::attach(**executor);
      QVERIFY(check.isOk());
      QVERIFY((*executor)->run(inputs()).isOk());
      QCOMPARE((*check)->regions()[0].calls, int64_t{1});
    }
    QVERIFY((*executor)->run(inputs()).isOk());  // no observer left behind
  }

  void quantizedModelsAreJudgedCallByCall() {
    ReferenceComparison comparison;
    comparison.outputs.push_back({0.2, 5, false});
    comparison.regions = {region(true, false)};
    QVERIFY(!comparison.quantized());
    QVERIFY(!comparison.agree());  // a float model: its outputs decide
    comparison.regions = {region(true, true), region(true, false)};
    QVERIFY(comparison.quantized());
    QVERIFY(comparison.agree());  // every call agrees; later layers amplified its rounding steps
    comparison.regions = {region(true, true), region(false, false)};
    QVERIFY(!comparison.agree());
    comparison.regions = {region(true, true)};
    comparison.sameCount = false;
    QVERIFY(!comparison.agree());
  }
};

QTEST_GUILESS_MAIN(TestReferenceCheck)
#include "test_reference_check.moc"
