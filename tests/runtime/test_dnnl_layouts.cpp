#include <QtTest>

#include "runtime/dnnl/lowering.h"

using namespace byoc::dnnl_backend;
using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

/// retypedDesc: which layouts a quantize or dequantize keeps.
class TestDnnlLayouts : public QObject {
  Q_OBJECT

 private slots:
  void denseLayoutsCarryOver() {
    for (tag format : {tag::abcd, tag::acdb, tag::aBcd16b}) {
      const dnnl::memory::desc from({1, 40, 7, 5}, dt::u8, format);
      const dnnl::memory::desc retyped = retypedDesc(from, dt::f32);
      QCOMPARE(retyped, dnnl::memory::desc({1, 40, 7, 5}, dt::f32, format));
    }
  }

  void aSubMemoryBecomesPlain() {
    const dnnl::memory::desc whole({1, 8, 6, 6}, dt::f32, tag::acdb);
    const dnnl::memory::desc part = whole.submemory_desc({1, 4, 6, 6}, {0, 2, 0, 0});
    QCOMPARE(retypedDesc(part, dt::u8), dnnl::memory::desc({1, 4, 6, 6}, dt::u8, tag::abcd));
    // Strides with gaps between rows, at offset 0: not dense either.
    const dnnl::memory::desc strided({4, 6}, dt::f32, dnnl::memory::dims{8, 1});
    QCOMPARE(retypedDesc(strided, dt::s8), dnnl::memory::desc({4, 6}, dt::s8, tag::ab));
  }

  /// Packed int8 weights carry extra flags (a compensation after the data): not a layout to copy.
  void packedWeightsBecomePlain() {
    const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    const dnnl::convolution_forward::desc desc(
        dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
        dnnl::memory::desc({1, 16, 8, 8}, dt::s8, tag::any), dnnl::memory::desc({32, 16, 3, 3}, dt::s8, tag::any),
        dnnl::memory::desc({1, 32, 8, 8}, dt::s8, tag::any), {1, 1}, {1, 1}, {1, 1});
    const dnnl::memory::desc weights = dnnl::convolution_forward::primitive_desc(desc, engine).weights_desc();
    if (weights.data.extra.flags == 0) QSKIP("oneDNN packs these weights without extra flags on this CPU");
    QCOMPARE(retypedDesc(weights, dt::f32), dnnl::memory::desc({32, 16, 3, 3}, dt::f32, tag::abcd));
  }
};

QTEST_APPLESS_MAIN(TestDnnlLayouts)
#include "test_dnnl_layouts.moc"
