/// \file
/// Times what stands between opening a model and seeing its picture: building the graph model,
/// measuring nodes and writing DOT, the Graphviz helper, and drawing the scene. Prints one row per
/// model: the demo, and synthetic networks of residual blocks (each block a called function, so
/// big graphs open collapsed into one node per block).
///
///   bench_layout [BLOCKS…]      default: 10 100 1000 (a block is 17 nodes: 9 op calls and 8 stubs)
///
/// Graphs above kCollapseAbove nodes are measured as the app opens them (groups collapsed) and,
/// up to 300 blocks, also fully expanded.

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <cstdio>
#include <string>

#include "builtin_resources.h"
#include "graph/dot_writer.h"
#include "graph/graph_items.h"
#include "graph/graph_model.h"
#include "graph/graph_page.h"
#include "graph/graph_scene.h"
#include "layout/layout_runner.h"
#include "pass/infer_type.h"
#include "text/parser.h"

using namespace byoc;
using namespace byoc::ui;

namespace {

/// `blocks` residual blocks (conv2d → bias_add → relu → conv2d → bias_add → add → relu → multiply →
/// relu), each a function literal called once, all sharing one set of weights: the shape of
/// ResNet-like models.
std::string residualNetwork(int blocks) {
  std::string text =
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(1, 16, 8, 8), float32], %w: Tensor[(16, 16, 3, 3), float32], %b: Tensor[(16), float32]) {\n";
  std::string previous = "%x";
  for (int i = 0; i < blocks; ++i) {
    std::string name = "%v" + std::to_string(i);
    text += "  " + name + " = fn (%in: Tensor[(1, 16, 8, 8), float32]) {\n"
            "    %0 = nn.conv2d(%in, %w, padding=[1, 1, 1, 1]);\n"
            "    %1 = nn.bias_add(%0, %b);\n"
            "    %2 = nn.relu(%1);\n"
            "    %3 = nn.conv2d(%2, %w, padding=[1, 1, 1, 1]);\n"
            "    %4 = nn.bias_add(%3, %b);\n"
            "    %5 = add(%4, %in);\n"
            "    %6 = nn.relu(%5);\n"
            "    %7 = multiply(%6, 1f);\n"
            "    nn.relu(%7)\n"
            "  };\n";
    std::string out = "%o" + std::to_string(i);
    text += "  " + out + " = " + name + "(" + previous + ");\n";
    previous = out;
  }
  text += "  " + previous + "\n}\n";
  return text;
}

struct Row {
  std::string model;
  std::size_t nodes = 0;
  double buildMs = 0, dotMs = 0, layoutMs = 0, sceneMs = 0;
  bool collapsed = false;
  std::string error;
};

Row measure(const std::string& label, const std::string& text, bool expandAll) {
  Row row;
  row.model = label;
  QElapsedTimer clock;
  clock.start();
  Result<Module> parsed = parseModule(text, label);
  Result<Module> typed = parsed ? inferTypes(*parsed) : Result<Module>(parsed.error());
  if (!typed) {
    row.error = typed.error().str();
    return row;
  }
  clock.restart();
  auto graph = std::make_shared<const GraphModel>(GraphModel::build(typed->find("main"), QStringLiteral("main")));
  row.buildMs = clock.nsecsElapsed() / 1e6;
  row.nodes = graph->nodes().size();
  clock.restart();
  GraphFonts fonts = graphFonts();
  DotOptions options;
  row.collapsed = !expandAll && graph->nodes().size() > kCollapseAbove;
  options.collapsed.assign(graph->groups().size(), row.collapsed);
  for (const GraphNode& node : graph->nodes()) options.nodeSizes.push_back(measureNode(node, fonts));
  QString dot = writeDot(*graph, options);
  row.dotMs = clock.nsecsElapsed() / 1e6;
  LayoutRunner runner(QStringLiteral(BYOC_LAYOUT_HELPER));
  Layout layout;
  QEventLoop loop;
  QObject::connect(&runner, &LayoutRunner::finished, &loop, [&](const Layout& result) {
    layout = result;
    loop.quit();
  });
  QObject::connect(&runner, &LayoutRunner::failed, &loop, [&](const QString& message) {
    row.error = message.toStdString();
    loop.quit();
  });
  clock.restart();
  runner.start(dot);
  loop.exec();
  row.layoutMs = clock.nsecsElapsed() / 1e6;
  if (!row.error.empty()) return row;
  clock.restart();
  GraphScene scene;
  scene.populate(graph, layout, options.collapsed);
  row.sceneMs = clock.nsecsElapsed() / 1e6;
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::stoi(argv[i]));
  if (sizes.empty()) sizes = {10, 100, 1000};
  std::vector<Row> rows;
  rows.push_back(measure("demo", std::string(*findBuiltinResource(kDemoModelName)), false));
  for (int blocks : sizes) {
    const std::string label = "residual x" + std::to_string(blocks);
    rows.push_back(measure(label, residualNetwork(blocks), false));
    // The full picture of every node, as after expanding every group (skipped where dot takes minutes).
    if (blocks * 17 > kCollapseAbove && blocks <= 300) rows.push_back(measure(label, residualNetwork(blocks), true));
  }
  std::printf("%-18s %8s %10s %10s %12s %10s %12s  %s\n", "model", "nodes", "build ms", "dot ms", "layout ms",
              "scene ms", "first pic ms", "groups");
  for (const Row& row : rows) {
    if (!row.error.empty()) {
      std::printf("%-18s error: %s\n", row.model.c_str(), row.error.c_str());
      continue;
    }
    std::printf("%-18s %8zu %10.1f %10.1f %12.1f %10.1f %12.1f  %s\n", row.model.c_str(), row.nodes, row.buildMs,
                row.dotMs, row.layoutMs, row.sceneMs, row.buildMs + row.dotMs + row.layoutMs + row.sceneMs,
                row.collapsed ? "collapsed" : "expanded");
  }
  return 0;
}
