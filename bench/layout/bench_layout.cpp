/// \file
/// Times what stands between opening a model and seeing its picture: building the graph model,
/// measuring nodes and writing DOT, the Graphviz helper, and drawing the scene. Prints one row per
/// model: the demo, model files given on the command line, and synthetic networks of residual blocks
/// (each block a called function, so big graphs open collapsed into one node per block).
///
///   bench_layout [BLOCKS | chain:NODES | flat-residual:NODES | --flat | MODEL_FILE]…
///       default: 10 100 1000 (a block is 13 nodes: 9 op calls and 4 stubs)
///
/// `chain:NODES` and `flat-residual:NODES` are flat networks of about NODES nodes with no name
/// scopes and no functions (conv2d → bias_add → relu layers in a chain, or residual layers of 7
/// ops); they open in synthesized blocks. `--flat` adds both at 10,000 and 100,000 nodes.
///
/// Graphs above kCollapseAbove nodes are measured as the app opens them (groups collapsed) and,
/// up to 300 blocks, also fully expanded. A second table opens each model in the app's window, as
/// a user does, and reports the time to the first picture, the longest time the UI thread did not
/// get to run its event loop meanwhile, the zoom of that picture (labels are legible from 60 %) and the
/// peak memory of the process while opening it. A third one expands one group of each graph opened
/// collapsed, as a double-click does (the group laid out alone and put into the picture), folds it
/// again, and lays the whole graph out in the expanded state for comparison.
///
/// `fragmented:NODES:PERCENT` opens a fragmented graph (elementwise ops, PERCENT % of them ones
/// the target does not support, bench/synthetic_chain.h) and adds a fourth table: in the window,
/// Run Passes for a target supporting the others, stepping through every step of the timeline,
/// selecting a region in the Regions list, and a rule edit (one op less) until its regions show:
/// the time of each and the longest time the UI thread did not get to run its event loop.

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QTableView>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>

#include "window/main_window.h"
#include "builtin_resources.h"
#include "frontend/loader.h"
#include "graph/dot_writer.h"
#include "graph/graph_items.h"
#include "graph/graph_model.h"
#include "graph/graph_page.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "layout/layout_runner.h"
#include "pass/infer_type.h"
#include "support/file_io.h"
#include "synthetic_chain.h"
#include "target/target_library.h"
#include "text/parser.h"
#include "text/printer.h"
#include "authoring/target_document.h"
#include "panels/timeline_widget.h"
#include "models/region_list_model.h"

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

/// A model to measure: Relay text, or a file the loader reads.
struct Source {
  std::string label;
  std::string text;
  std::string path;

  Result<Module> load() const {
    Result<Module> loaded = path.empty() ? parseModule(text, label) : loadModuleFile(path);
    return loaded ? inferTypes(*loaded) : loaded;
  }
};

/// The zoo keeps `<model>/model.onnx`: name such files after their folder.
std::string labelOf(const std::string& path) {
  QFileInfo file(QString::fromStdString(path));
  return (file.baseName() == QStringLiteral("model") ? file.dir().dirName() : file.baseName()).toStdString();
}

Row measure(const Source& source, bool expandAll) {
  Row row;
  row.model = source.label;
  QElapsedTimer clock;
  clock.start();
  Result<Module> typed = source.load();
  if (!typed) {
    row.error = typed.error().str();
    return row;
  }
  clock.restart();
  auto graph = std::make_shared<const GraphModel>(GraphModel::build(typed->find("main"), QStringLiteral("main")));
  row.buildMs = clock.nsecsElapsed() / 1e6;
  row.nodes = graph->nodes().size();
  clock.restart();
  row.collapsed = !expandAll && graph->nodes().size() > kCollapseAbove;
  const DotOptions options =
      measuredOptions(*graph, expandAll ? std::vector<bool>(graph->groups().size(), false) : initialCollapsed(*graph));
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

/// The longest time between two ticks of a 5 ms timer on the UI thread while it lives: how long
/// the user could not interact.
class StallMeter {
 public:
  StallMeter() {
    ticker_.setInterval(5);
    QObject::connect(&ticker_, &QTimer::timeout, [this] {
      longestMs_ = std::max(longestMs_, sinceTick_.nsecsElapsed() / 1e6);
      sinceTick_.restart();
    });
    sinceTick_.start();
    ticker_.start();
  }
  double longestMs() const { return longestMs_; }

 private:
  QTimer ticker_;
  QElapsedTimer sinceTick_;
  double longestMs_ = 0;
};

/// Opening a model in the window, as a user does.
struct AppRow {
  std::string model;
  double firstPictureMs = 0;
  double longestStallMs = 0;
  /// The zoom of the first picture: labels are legible from 60 % on.
  double startZoom = 0;
  /// The most memory the process held while opening the model, in MiB.
  double peakMiB = 0;
  std::string error;
};

/// Starts measuring the process's peak memory afresh (Linux: writing 5 to clear_refs resets it).
void resetPeakMemory() {
  QFile file(QStringLiteral("/proc/self/clear_refs"));
  if (file.open(QIODevice::WriteOnly)) file.write("5");
}

/// The process's peak resident memory since the last reset, in MiB (VmHWM), or 0 when unknown.
double peakMemoryMiB() {
  QFile file(QStringLiteral("/proc/self/status"));
  if (!file.open(QIODevice::ReadOnly)) return 0;
  for (const QByteArray& line : file.readAll().split('\n')) {
    if (line.startsWith("VmHWM:")) return line.mid(6).trimmed().split(' ').front().toDouble() / 1024;
  }
  return 0;
}

/// Opens `path` in a MainWindow and waits for its picture, while a 5 ms timer on the UI thread records
/// the longest gap between its ticks: how long the user could not interact.
AppRow measureInWindow(const std::string& label, const std::string& path) {
  AppRow row;
  row.model = label;
  MainWindow window;
  window.resize(1400, 900);
  window.show();
  bool opened = false;
  QObject::connect(&window, &MainWindow::opened, [&] { opened = true; });
  QObject::connect(&window, &MainWindow::openFailed, [&](const QString& message) { row.error = message.toStdString(); });
  resetPeakMemory();
  QElapsedTimer clock;
  clock.start();
  StallMeter stalls;
  window.openFile(QString::fromStdString(path));
  while (!opened && row.error.empty()) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
  if (!row.error.empty()) return row;
  GraphPage* page = window.mainPage();
  QObject::connect(page, &GraphPage::layoutFailed, [&](const QString& message) { row.error = message.toStdString(); });
  while (!page->isLaidOut() && row.error.empty()) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
  row.firstPictureMs = clock.nsecsElapsed() / 1e6;
  row.longestStallMs = stalls.longestMs();
  row.startZoom = page->view()->zoom();
  row.peakMiB = peakMemoryMiB();
  return row;
}

/// Expanding one group of a graph opened collapsed.
struct ExpandRow {
  std::string model;
  std::size_t nodes = 0;
  std::size_t groupNodes = 0;
  double expandMs = 0, expandStallMs = 0, collapseMs = 0, relayoutMs = 0;
  /// The same with kAlreadyExpanded other groups expanded first.
  double busyExpandMs = 0, busyRelayoutMs = 0;
  std::string error;
};

/// Groups expanded one by one before the second measurement.
constexpr int kAlreadyExpanded = 40;

/// On a graph page opened with its groups collapsed: double-clicking the middle top-level group
/// (laid out alone), double-clicking it again (folded back), and, once expanded again, a full
/// re-layout of the graph in that state; then the same expand and re-layout with kAlreadyExpanded
/// more groups expanded. Times run from the action to the drawn picture.
ExpandRow measureExpand(const Source& source) {
  ExpandRow row;
  row.model = source.label;
  Result<Module> typed = source.load();
  if (!typed) {
    row.error = typed.error().str();
    return row;
  }
  auto graph = std::make_shared<const GraphModel>(GraphModel::build(typed->find("main"), QStringLiteral("main")));
  row.nodes = graph->nodes().size();
  std::vector<int> topGroups;
  for (const GraphGroup& group : graph->groups()) {
    if (group.parent < 0) topGroups.push_back(group.id);
  }
  if (topGroups.empty()) {
    row.error = "no group to expand";
    return row;
  }
  const int group = topGroups[topGroups.size() / 2];
  row.groupNodes = graph->groups()[group].nodes.size();
  GraphPage page(graph, nullptr);
  page.resize(1400, 900);
  page.show();
  QObject::connect(&page, &GraphPage::layoutFailed, [&](const QString& message) { row.error = message.toStdString(); });
  auto msUntilPicture = [&](const std::function<void()>& action) {
    bool ready = false;
    QMetaObject::Connection connection = QObject::connect(&page, &GraphPage::layoutReady, [&] { ready = true; });
    QElapsedTimer clock;
    clock.start();
    action();
    while (!ready && row.error.empty()) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    QObject::disconnect(connection);
    return clock.nsecsElapsed() / 1e6;
  };
  msUntilPicture([&] { page.startLayout(); });
  {
    StallMeter stalls;
    row.expandMs = msUntilPicture([&] { page.toggleGroup(group); });
    row.expandStallMs = stalls.longestMs();
  }
  row.collapseMs = msUntilPicture([&] { page.toggleGroup(group); });
  msUntilPicture([&] { page.toggleGroup(group); });
  row.relayoutMs = msUntilPicture([&] { page.startLayout(); });
  msUntilPicture([&] { page.toggleGroup(group); });
  for (int i = 0; i < kAlreadyExpanded && i < static_cast<int>(topGroups.size()) - 1; ++i) {
    if (topGroups[i] != group) msUntilPicture([&] { page.toggleGroup(topGroups[i]); });
  }
  row.busyExpandMs = msUntilPicture([&] { page.toggleGroup(group); });
  row.busyRelayoutMs = msUntilPicture([&] { page.startLayout(); });
  return row;
}


/// Partitioning a fragmented graph in the window, as a user does.
struct RegionsRow {
  std::string model;
  int regions = 0, editedRegions = 0, steps = 0;
  double partitionMs = 0, partitionStallMs = 0;
  double slowestStepMs = 0, stepStallMs = 0;
  double selectRegionMs = 0, selectStallMs = 0;
  double editMs = 0, editStallMs = 0;
  std::string error;
};

/// A target named `young` that supports `ops` (comma-separated), as a file in `scratch`.
std::string youngTarget(const QTemporaryDir& scratch, const std::string& fileName, const std::string& ops) {
  const std::string path = scratch.filePath(QString::fromStdString(fileName)).toStdString();
  const std::string json = R"({"format": "byoc-studio-target", "version": 1, "name": "young", "codegen": "", "op_rules": [")" +
                           ops + "\"]}";
  return writeFileAtomic(path, json) ? path : std::string();
}

/// Opens `path`, partitions it for a target supporting add, multiply and subtract, steps through
/// the timeline, selects a region, then drops subtract from the target's rules.
RegionsRow measureRegionsInWindow(const std::string& label, const std::string& path, const QTemporaryDir& scratch) {
  RegionsRow row;
  row.model = label;
  const std::string young = youngTarget(scratch, "young.json", "add, multiply, subtract");
  MainWindow window;
  window.resize(1400, 900);
  window.show();
  bool opened = false, stepsShown = false;
  QObject::connect(&window, &MainWindow::opened, [&] { opened = true; });
  QObject::connect(&window, &MainWindow::openFailed, [&](const QString& message) { row.error = message.toStdString(); });
  QObject::connect(&window, &MainWindow::stepsOpened, [&] { stepsShown = true; });
  auto waitFor = [&](const bool& flag) {
    while (!flag && row.error.empty()) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
  };
  // Runs `action`, then the event loop until `done` holds and the UI thread is idle.
  auto timed = [&](const std::function<void()>& action, const std::function<bool()>& done, double& ms, double& stallMs) {
    StallMeter stalls;
    QElapsedTimer clock;
    clock.start();
    action();
    while (!done() && row.error.empty()) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 20);
    QCoreApplication::processEvents();
    ms = clock.nsecsElapsed() / 1e6;
    stallMs = std::max(stallMs, stalls.longestMs());
  };
  window.openFile(QString::fromStdString(path));
  waitFor(opened);
  if (!row.error.empty()) return row;
  GraphPage* page = window.mainPage();
  while (!page->isLaidOut() && row.error.empty()) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);

  timed([&] { window.runPartition(QStringList{QString::fromStdString(young)}, QStringLiteral("relay")); },
        [&] { return stepsShown; }, row.partitionMs, row.partitionStallMs);
  if (!row.error.empty()) return row;
  row.steps = window.timeline()->stepList()->model()->rowCount();
  for (int step = 0; step < row.steps; ++step) {
    double ms = 0;
    timed([&] { window.timeline()->setCurrentStep(step); }, [] { return true; }, ms, row.stepStallMs);
    row.slowestStepMs = std::max(row.slowestStepMs, ms);
  }
  row.regions = window.regionModel()->rowCount();
  if (row.regions > 0)
    timed([&] { window.selectRegion(window.regionModel()->index(row.regions / 2, 0)); }, [] { return true; }, row.selectRegionMs, row.selectStallMs);

  // An edit re-partitions after the debounce; what counts is the time from then to the new regions.
  Result<Target> edited = loadTarget(youngTarget(scratch, "young-edited.json", "add, multiply"));
  if (!edited) {
    row.error = edited.error().str();
    return row;
  }
  stepsShown = false;
  timed([&] { window.targetDocument()->update(std::move(*edited)); }, [&] { return stepsShown; }, row.editMs, row.editStallMs);
  row.editMs -= MainWindow::kRepartitionDelayMs;
  row.editedRegions = window.regionModel()->rowCount();
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  // The window finds the helper beside its executable unless told where it is.
  if (qEnvironmentVariableIsEmpty("BYOC_LAYOUT_HELPER")) qputenv("BYOC_LAYOUT_HELPER", BYOC_LAYOUT_HELPER);
  QApplication app(argc, argv);
  std::vector<Source> sources{{"demo", std::string(*findBuiltinResource(kDemoModelName)), {}}};
  std::vector<int> sizes;
  std::vector<Source> fragmented;
  // A flat network of about `nodes` nodes: 3 per chain layer, 7 per residual layer.
  auto addFlat = [&sources](bool residual, int nodes) {
    const std::string label = (residual ? "flat residual " : "flat chain ") + std::to_string(nodes / 1000) + "k";
    sources.push_back({label, bench::flatNetworkText(std::max(1, nodes / (residual ? 7 : 3)), residual), {}});
  };
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument.find_first_not_of("0123456789") == std::string::npos) {
      sizes.push_back(std::stoi(argument));
    } else if (argument == "--flat") {
      for (int nodes : {10000, 100000}) {
        addFlat(false, nodes);
        addFlat(true, nodes);
      }
    } else if (argument.starts_with("fragmented:")) {
      const std::size_t colon = argument.find(':', 11);
      const int nodes = std::stoi(argument.substr(11)), percent = colon == std::string::npos ? 10 : std::stoi(argument.substr(colon + 1));
      fragmented.push_back({"fragmented " + std::to_string(nodes / 1000) + "k/" + std::to_string(percent) + "%",
                            printModule(bench::fragmentedGraph(nodes, percent, bench::Unsupported::Interleaved,
                                                               bench::Wiring::SkipConnections)),
                            {}});
    } else if (argument.starts_with("chain:") || argument.starts_with("flat-residual:")) {
      addFlat(argument.starts_with("flat"), std::stoi(argument.substr(argument.find(':') + 1)));
    } else {
      sources.push_back({labelOf(argument), {}, argument});
    }
  }
  if (sizes.empty() && sources.size() == 1 && fragmented.empty()) sizes = {10, 100, 1000};
  for (int blocks : sizes) sources.push_back({"residual x" + std::to_string(blocks), residualNetwork(blocks), {}});

  std::vector<Row> rows;
  for (const Source& source : sources) {
    rows.push_back(measure(source, false));
    // The full picture of every node, as after expanding every group (skipped where dot takes minutes).
    if (rows.back().collapsed && rows.back().nodes <= 300 * 13) rows.push_back(measure(source, true));
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

  // The window reads files: write the text sources out first.
  QTemporaryDir scratch;
  std::printf("\n%-18s %20s %22s %12s %14s\n", "in the window", "first picture ms", "longest UI stall ms", "zoom %",
              "peak MiB");
  for (const Source& source : sources) {
    std::string path = source.path;
    if (path.empty()) {
      path = scratch.filePath(QString::fromStdString(source.label).replace(QLatin1Char(' '), QLatin1Char('_')) +
                              QStringLiteral(".relay")).toStdString();
      if (Status written = writeFileAtomic(path, source.text); !written) {
        std::printf("%-18s error: %s\n", source.label.c_str(), written.error().str().c_str());
        continue;
      }
    }
    AppRow row = measureInWindow(source.label, path);
    if (!row.error.empty()) {
      std::printf("%-18s error: %s\n", row.model.c_str(), row.error.c_str());
      continue;
    }
    std::printf("%-18s %20.1f %22.1f %12.0f %14.0f\n", row.model.c_str(), row.firstPictureMs, row.longestStallMs,
                row.startZoom * 100, row.peakMiB);
  }

  std::printf("\n%-18s %8s %12s %10s %16s %12s %17s   with %d groups expanded: %10s %17s\n", "expand one group",
              "nodes", "group nodes", "expand ms", "expand stall ms", "collapse ms", "full relayout ms", kAlreadyExpanded,
              "expand ms", "full relayout ms");
  for (const Row& row : rows) {
    if (!row.collapsed || !row.error.empty()) continue;
    const auto source = std::find_if(sources.begin(), sources.end(), [&](const Source& each) { return each.label == row.model; });
    ExpandRow expand = measureExpand(*source);
    if (!expand.error.empty()) {
      std::printf("%-18s error: %s\n", expand.model.c_str(), expand.error.c_str());
      continue;
    }
    std::printf("%-18s %8zu %12zu %10.1f %16.1f %12.1f %17.1f %36.1f %17.1f\n", expand.model.c_str(), expand.nodes,
                expand.groupNodes, expand.expandMs, expand.expandStallMs, expand.collapseMs, expand.relayoutMs,
                expand.busyExpandMs, expand.busyRelayoutMs);
  }

  if (fragmented.empty()) return 0;
  std::printf("\n%-20s %8s %13s %9s %6s %15s %9s %16s %9s %17s %9s %8s\n", "partition in window", "regions",
              "run passes ms", "stall ms", "steps", "slowest step ms", "stall ms", "select region ms", "stall ms",
              "edit -> regions ms", "stall ms", "regions");
  for (const Source& source : fragmented) {
    const std::string path = scratch.filePath(QString::fromStdString(source.label).replace(QLatin1Char(' '), QLatin1Char('_'))
                                                  .replace(QLatin1Char('/'), QLatin1Char('_')) + QStringLiteral(".relay")).toStdString();
    if (Status written = writeFileAtomic(path, source.text); !written) {
      std::printf("%-20s error: %s\n", source.label.c_str(), written.error().str().c_str());
      continue;
    }
    const RegionsRow row = measureRegionsInWindow(source.label, path, scratch);
    if (!row.error.empty()) {
      std::printf("%-20s error: %s\n", row.model.c_str(), row.error.c_str());
      continue;
    }
    std::printf("%-20s %8d %13.1f %9.1f %6d %15.1f %9.1f %16.1f %9.1f %17.1f %9.1f %8d\n", row.model.c_str(), row.regions,
                row.partitionMs, row.partitionStallMs, row.steps, row.slowestStepMs, row.stepStallMs, row.selectRegionMs,
                row.selectStallMs, row.editMs, row.editStallMs, row.editedRegions);
  }
  return 0;
}
