#include <QtTest>

#include <vector>

#include "runtime/dnnl/lowering.h"
#include "runtime/dnnl/ops.h"

using namespace byoc;
using namespace byoc::dnnl_backend;

namespace {

/// Appends `a + b` (one binary primitive) and returns the sum.
Tensor added(Lowering& lowering, const Tensor& a, const Tensor& b) {
  dnnl::binary::desc desc(dnnl::algorithm::binary_add, a.desc(), b.desc(), a.desc());
  dnnl::binary::primitive_desc pd(desc, lowering.engine);
  Tensor sum = lowering.fresh(pd.dst_desc());
  lowering.add(dnnl::binary(pd), {{DNNL_ARG_SRC_0, a.memory}, {DNNL_ARG_SRC_1, b.memory}, {DNNL_ARG_DST, sum.memory}});
  return sum;
}

}  // namespace

/// The arena of a region's intermediates: buffers share memory only when their lifetimes do not
/// overlap, and the primitives still compute what they did with buffers of their own.
class TestDnnlMemoryPlan : public QObject {
  Q_OBJECT

 private slots:
  void chainKeepsTwoBuffers() {
    // x → 2x → 4x → 8x → 16x: each step reads the previous result and writes a new one, so two
    // buffers are alive at a time and the four intermediates fit in two buffers' space.
    constexpr int kCount = 1024;
    Lowering lowering(1);
    Tensor value = lowering.input(0, {1, kCount});
    for (int i = 0; i < 4; ++i) value = lowerEltwise(lowering, dnnl::algorithm::eltwise_linear, value, 2.f).value()[0];
    QVERIFY(lowering.planMemory().isOk());
    QCOMPARE(lowering.arenaBytes(), std::size_t{2 * kCount * sizeof(float)});

    std::vector<float> input(kCount);
    for (int i = 0; i < kCount; ++i) input[static_cast<std::size_t>(i)] = static_cast<float>(i) - 500.f;
    for (dnnl::memory& view : lowering.inputViews[0]) view.set_data_handle(input.data());
    for (Step& step : lowering.steps) step.execute(lowering.stream);
    lowering.stream.wait();
    const auto* out = static_cast<const float*>(value.memory.get_data_handle());
    for (int i = 0; i < kCount; ++i) QCOMPARE(out[i], 16.f * input[static_cast<std::size_t>(i)]);
  }

  void valueReadLaterKeepsItsPlace() {
    // a = 2x; b = 2a; c = 2b; d = a + c: `a` is read again at the last step, so `c` may not take
    // its place even though `b` is dead by then.
    constexpr int kCount = 256;
    Lowering lowering(1);
    Tensor x = lowering.input(0, {1, kCount});
    Tensor a = lowerEltwise(lowering, dnnl::algorithm::eltwise_linear, x, 2.f).value()[0];
    Tensor b = lowerEltwise(lowering, dnnl::algorithm::eltwise_linear, a, 2.f).value()[0];
    Tensor c = lowerEltwise(lowering, dnnl::algorithm::eltwise_linear, b, 2.f).value()[0];
    Tensor d = added(lowering, a, c);
    QVERIFY(lowering.planMemory().isOk());
    QCOMPARE(lowering.arenaBytes(), std::size_t{3 * kCount * sizeof(float)});

    std::vector<float> input(kCount, 1.5f);
    for (dnnl::memory& view : lowering.inputViews[0]) view.set_data_handle(input.data());
    for (Step& step : lowering.steps) step.execute(lowering.stream);
    lowering.stream.wait();
    const auto* out = static_cast<const float*>(d.memory.get_data_handle());
    for (int i = 0; i < kCount; ++i) QCOMPARE(out[i], 1.5f * 2.f + 1.5f * 8.f);
  }

  void aValueViewedTwiceMovesOnce() {
    // Two views of one intermediate (two reshapes of it) keep its memory alive twice; both move
    // into the arena with it.
    constexpr int kCount = 128;
    Lowering lowering(1);
    Tensor x = lowering.input(0, {1, kCount});
    Tensor a = lowerEltwise(lowering, dnnl::algorithm::eltwise_linear, x, 2.f).value()[0];
    Tensor b = lowerEltwise(lowering, dnnl::algorithm::eltwise_linear, lowering.view(a, plainDesc({kCount})), 3.f).value()[0];
    Tensor c = lowerEltwise(lowering, dnnl::algorithm::eltwise_linear, lowering.view(a, plainDesc({kCount})), 5.f).value()[0];
    Tensor sum = added(lowering, b, c);
    QVERIFY(lowering.planMemory().isOk());
    std::vector<float> input(kCount, 1.f);
    for (dnnl::memory& view : lowering.inputViews[0]) view.set_data_handle(input.data());
    for (Step& step : lowering.steps) step.execute(lowering.stream);
    lowering.stream.wait();
    QCOMPARE(static_cast<const float*>(sum.memory.get_data_handle())[kCount - 1], 6.f + 10.f);
  }

  void constantsStayOutOfTheArena() {
    // A constant is written at load and read at every run: it keeps its own buffer.
    Lowering lowering(1);
    const std::vector<float> weights(64, 3.f);
    Tensor constant = lowering.constant(weights.data(), {1, 64});
    const void* before = constant.memory.get_data_handle();
    Tensor scaled = lowerEltwise(lowering, dnnl::algorithm::eltwise_linear, constant, 2.f).value()[0];
    QVERIFY(lowering.planMemory().isOk());
    QCOMPARE(constant.memory.get_data_handle(), before);
    QCOMPARE(lowering.arenaBytes(), std::size_t{64 * sizeof(float)});
    for (Step& step : lowering.steps) step.execute(lowering.stream);
    lowering.stream.wait();
    QCOMPARE(static_cast<const float*>(scaled.memory.get_data_handle())[63], 6.f);
  }
};

QTEST_GUILESS_MAIN(TestDnnlMemoryPlan)
#include "test_dnnl_memory_plan.moc"
