#include <QtTest>

#include "runtime/dnnl/kernel_graph_builder.h"
#include "runtime/dnnl/pad_folding.h"
#include "runtime/dnnl/region.h"
#include "runtime_test_util.h"

using namespace byoc;
using namespace byoc::dnnl_backend;
using namespace byoc::kernel_graph;
using namespace byoc::testing;

namespace {

/// The kernel graph the dnnl codegen reads from the region of `regionModuleText(params, body)`.
KernelGraph graphOf(const std::string& params, const std::string& body) {
  Module module = typedModule(regionModuleText("dnnl", params, body));
  Result<KernelGraph> graph = buildKernelGraph(module.find("tvmgen_default_dnnl_main_0"), &module);
  if (!graph) qFatal("%s", graph.error().str().c_str());
  return std::move(graph).value();
}

std::vector<KernelEntry> entries(std::initializer_list<std::pair<int, int>> pairs) {
  std::vector<KernelEntry> list;
  for (auto [node, output] : pairs) list.push_back({node, output});
  return list;
}

const std::string kImage = "%x: Tensor[(1, 4, 6, 6), float32], %w: Tensor[(4, 4, 3, 3), float32], %b: Tensor[(4, 1, 1), float32]";
const std::string kInner =
    "%p0: Tensor[(1, 4, 6, 6), float32], %p1: Tensor[(4, 4, 3, 3), float32], %p2: Tensor[(4, 1, 1), float32]";

}  // namespace

/// The dnnl codegen's reading of a region: composites in role order, tuples as entries.
class TestKernelGraph : public QObject {
  Q_OBJECT

 private slots:
  void aShapeNoTensorCanHaveNeverReachesOneDnn() {
    // As a loaded artifact could state it: the graph carries its own shapes.
    for (const Shape& shape : {Shape{1, -3}, Shape{100000, 100000, 100000}}) {
      KernelGraph graph;
      graph.nodes.push_back({KernelNodeKind::Input, "x", {}, {}, {TensorSpec{DType::Float32, shape}}, {}, {}, {}});
      graph.nodes.push_back(
          {KernelNodeKind::Kernel, "nn.relu", {}, entries({{0, 0}}), {TensorSpec{DType::Float32, shape}}, {}, {}, {}});
      graph.heads = entries({{1, 0}});
      Result<std::unique_ptr<Region>> region = Region::build(graph, nullptr, 1);
      QVERIFY(!region.isOk());
      QVERIFY2(region.error().message.starts_with("region input %x: float32 ["), region.error().message.c_str());
    }
  }

  void compositeInputsFollowTheRoles() {
    // The body adds the bias before the convolution's result is read: the roles come from the
    // body, not from the parameter order.
    const KernelGraph graph = graphOf(
        kImage, "%9 = fn (" + kInner + ", Composite=\"dnnl.conv2d_bias_relu\") { %0 = nn.conv2d(%p0, %p1, padding=[1, 1, 1, 1]); "
                "%1 = add(%0, %p2); nn.relu(%1) }; %9(%x, %w, %b)");
    QCOMPARE(graph.nodes.size(), std::size_t(4));
    const KernelNode& kernel = graph.nodes[3];
    QCOMPARE(kernel.name, std::string("dnnl.conv2d_bias_relu"));
    QCOMPARE(kernel.inputs, entries({{0, 0}, {1, 0}, {2, 0}}));
    QCOMPARE(kernel.attrs.find("padding")->asInts()->size(), std::size_t(4));
    QCOMPARE(kernel.outputs, (std::vector<TensorSpec>{{DType::Float32, {1, 4, 6, 6}}}));
  }

  void anArgumentForTwoRolesIsReferencedTwice() {
    const KernelGraph graph = graphOf(
        "%x: Tensor[(1, 4, 6, 6), float32], %w: Tensor[(4, 4, 3, 3), float32]",
        "%9 = fn (%p0: Tensor[(1, 4, 6, 6), float32], %p1: Tensor[(4, 4, 3, 3), float32], Composite=\"dnnl.conv2d_sum\") "
        "{ %0 = nn.conv2d(%p0, %p1, padding=[1, 1, 1, 1]); add(%0, %p0) }; %9(%x, %w)");
    QCOMPARE(graph.nodes.back().inputs, entries({{0, 0}, {1, 0}, {0, 0}}));
  }

  void clipBoundsBecomeAttributes() {
    const KernelGraph graph = graphOf(
        kImage, "%9 = fn (" + kInner + ", Composite=\"dnnl.conv2d_bias_clip\") { %0 = nn.conv2d(%p0, %p1, padding=[1, 1, 1, 1]); "
                "%1 = add(%0, %p2); clip(%1, a_min=0f, a_max=6f) }; %9(%x, %w, %b)");
    QCOMPARE(graph.nodes.back().attrs.find("a_max")->asFloat(), 6.0);
    QCOMPARE(graph.nodes.back().attrs.find("a_min")->asFloat(), 0.0);
  }

  void tuplesBecomeEntries() {
    const KernelGraph graph = graphOf("%x: Tensor[(2, 6), float32], %g: Tensor[(6), float32]",
                                      "%0 = nn.batch_norm(%x, %g, %g, %g, %g); %1 = (%0.0, %x); %2 = %1.1; (%2, %0.2)");
    QCOMPARE(graph.nodes.size(), std::size_t(3));
    QCOMPARE(graph.nodes[2].outputs.size(), std::size_t(3));
    QCOMPARE(graph.nodes[2].inputs, entries({{0, 0}, {1, 0}, {1, 0}, {1, 0}, {1, 0}}));
    QVERIFY(graph.tupleResult);
    QCOMPARE(graph.heads, entries({{0, 0}, {2, 2}}));
  }

  /// Which pads the average pools reading them take over (pad_folding.h): the folded padding
  /// (top, left, bottom, right), or "none".
  void padFoldsIntoPools_data() {
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("folded");
    const std::string pad = "%0 = nn.pad(%x, 0f, pad_width=[[0, 0], [0, 0], [1, 1], [1, 1]]); ";
    auto row = [](const char* name, const std::string& body, const char* folded) {
      QTest::newRow(name) << QString::fromStdString(body) << folded;
    };
    row("inception's pad and pool", pad + "nn.avg_pool2d(%0, pool_size=[3, 3])", "1 1 1 1");
    row("asymmetric, onto a pool counting its own padding",
        "%0 = nn.pad(%x, 0f, pad_width=[[0, 0], [0, 0], [0, 1], [2, 0]]); "
        "nn.avg_pool2d(%0, pool_size=[5, 5], padding=[1, 1, 1, 1], count_include_pad=True)",
        "0 2 1 0");
    row("densenet's pad by nothing",
        "%0 = nn.pad(%x, 0f, pad_width=[[0, 0], [0, 0], [0, 0], [0, 0]]); nn.avg_pool2d(%0, pool_size=[2, 2], strides=[2, 2])",
        "0 0 0 0");
    row("read by two pools", pad + "%1 = nn.avg_pool2d(%0, pool_size=[3, 3]); %2 = nn.avg_pool2d(%0, pool_size=[2, 2]); (%1, %2)",
        "1 1 1 1");
    row("a pool not counting its own padding", pad + "nn.avg_pool2d(%0, pool_size=[3, 3], padding=[1, 1, 1, 1])", "none");
    row("a pool in ceil mode", pad + "nn.avg_pool2d(%0, pool_size=[3, 3], strides=[2, 2], ceil_mode=True)", "none");
    row("a max pool", pad + "nn.max_pool2d(%0, pool_size=[3, 3])", "none");
    row("as wide as the window", "%0 = nn.pad(%x, 0f, pad_width=[[0, 0], [0, 0], [2, 2], [0, 0]]); nn.avg_pool2d(%0, pool_size=[2, 2])",
        "none");
    row("padding by another value",
        "%0 = nn.pad(%x, 0.5f, pad_width=[[0, 0], [0, 0], [1, 1], [1, 1]]); nn.avg_pool2d(%0, pool_size=[3, 3])", "none");
    row("padding the channels",
        "%0 = nn.pad(%x, 0f, pad_width=[[0, 0], [1, 0], [1, 1], [1, 1]]); nn.avg_pool2d(%0, pool_size=[3, 3])", "none");
    row("also read by another op", pad + "%1 = nn.avg_pool2d(%0, pool_size=[3, 3]); %2 = nn.relu(%0); (%1, %2)", "none");
    row("a result of the region", pad + "%1 = nn.avg_pool2d(%0, pool_size=[3, 3]); (%1, %0)", "none");
  }
  void padFoldsIntoPools() {
    QFETCH(QString, body);
    QFETCH(QString, folded);
    const KernelGraph graph = graphOf("%x: Tensor[(1, 4, 6, 6), float32]", body.toStdString());
    const std::vector<std::optional<FoldedPad>> pads = foldablePads(graph);
    QCOMPARE(pads.size(), graph.nodes.size());
    QString found = "none";
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
      if (graph.nodes[i].name != "nn.pad") {
        QVERIFY(!pads[i]);
        continue;
      }
      if (!pads[i]) continue;
      QStringList widths;
      for (int64_t width : pads[i]->padding) widths << QString::number(width);
      found = widths.join(' ');
    }
    QCOMPARE(found, folded);
  }
};

QTEST_GUILESS_MAIN(TestKernelGraph)
#include "test_kernel_graph.moc"
