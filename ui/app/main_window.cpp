/// \file
/// MainWindow: menus, docks, loading on a worker, and the links between panels.

#include "app/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStringBuilder>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <QTableView>
#include <QComboBox>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <utility>

#include "app/partition_job.h"
#include "authoring/op_support_colouring.h"
#include "authoring/op_support_model.h"
#include "authoring/op_support_panel.h"
#include "authoring/pattern_dock.h"
#include "authoring/target_document.h"
#include "authoring/target_files.h"
#include "export/module_export.h"
#include "graph/graph_page.h"
#include "graph/graph_scene.h"
#include "graph/graph_view.h"
#include "models/diagnostics_model.h"
#include "models/module_tree_model.h"
#include "models/properties.h"
#include "models/region_list_model.h"
#include "models/snapshot_list_model.h"
#include "overlay/snapshot_overlay.h"
#include "panels/ir_text_view.h"
#include "panels/row_table.h"
#include "panels/text_links.h"
#include "panels/timeline_widget.h"
#include "run/run_panel.h"
#include "target/target_library.h"

namespace byoc::ui {

namespace {

constexpr int kMaxRecentFiles = 8;
/// Delay between the last edit of the target and re-running the passes.
constexpr int kRepartitionDelayMs = 400;
const QString kModelFilter = QStringLiteral("Models (*.relay *.txt *.json *.onnx);;All files (*)");

QString settingsKey(const char* key) { return QString::fromLatin1(key); }

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle(QStringLiteral("BYOC Studio"));
  setWindowIcon(QIcon(QStringLiteral(":/icons/byoc-studio.svg")));
  setAcceptDrops(true);
  setDocumentMode(true);
  moduleTree_ = new ModuleTreeModel(this);
  properties_ = new PropertiesModel(this);
  regions_ = new RegionListModel(this);
  diagnostics_ = new DiagnosticsModel(this);
  snapshots_ = new SnapshotListModel(this);
  targetDocument_ = new TargetDocument(this);
  opSupport_ = new OpSupportModel(targetDocument_, this);
  colourer_ = new SupportColourer(targetDocument_, this);
  connect(colourer_, &SupportColourer::coloured, this, [this] {
    if (timeline_->currentStep() <= 0) onStepChanged(timeline_->currentStep());
  });
  repartition_ = new QTimer(this);
  repartition_->setSingleShot(true);
  repartition_->setInterval(kRepartitionDelayMs);
  connect(targetDocument_, &TargetDocument::changed, this, [this] {
    if (steps_.size() > 1) repartition_->start();
  });
  connect(repartition_, &QTimer::timeout, this, [this] {
    resumeStep_ = timeline_->currentStep();
    runPartition(pipelineChooser_->currentText());
  });

  tabs_ = new QTabWidget(this);
  tabs_->setTabsClosable(true);
  tabs_->setMovable(true);
  tabs_->setDocumentMode(true);
  connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::onTabChanged);
  connect(tabs_, &QTabWidget::tabCloseRequested, this, [this](int index) {
    auto* page = static_cast<GraphPage*>(tabs_->widget(index));
    if (page == mainPage_) return;  // the loaded graph stays open
    pageTexts_.erase(page);
    tabs_->removeTab(index);
    page->deleteLater();
  });
  centre_ = new QStackedWidget(this);
  centre_->addWidget(buildWelcome());
  centre_->addWidget(tabs_);
  setCentralWidget(centre_);

  buildDocks();
  buildActions();
  zoomLabel_ = new QLabel(this);
  statusBar()->addPermanentWidget(zoomLabel_);
  statusBar()->showMessage(tr("Open a model (Ctrl+O) or the demo (Ctrl+D)."));

  QSettings settings;
  theme_ = themeFromName(settings.value(settingsKey("theme"), QStringLiteral("light")).toString());
  if (!restoreGeometry(settings.value(settingsKey("geometry")).toByteArray())) resize(1440, 900);
  restoreState(settings.value(settingsKey("windowState")).toByteArray());
  setTheme(theme_);
  rebuildRecentMenu();
}

MainWindow::~MainWindow() = default;

QWidget* MainWindow::buildWelcome() {
  auto* welcome = new QWidget(this);
  auto* layout = new QVBoxLayout(welcome);
  layout->addStretch(2);
  auto* icon = new QLabel(welcome);
  icon->setPixmap(QIcon(QStringLiteral(":/icons/byoc-studio.svg")).pixmap(96, 96));
  icon->setAlignment(Qt::AlignCenter);
  auto* title = new QLabel(tr("BYOC Studio"), welcome);
  QFont titleFont = title->font();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 2);
  titleFont.setWeight(QFont::Light);
  title->setFont(titleFont);
  title->setAlignment(Qt::AlignCenter);
  auto* subtitle = new QLabel(tr("See how your backend's patterns and rules partition a model, pass by pass."), welcome);
  subtitle->setAlignment(Qt::AlignCenter);
  subtitle->setEnabled(false);
  auto* open = new QPushButton(tr("Open Model…"), welcome);
  auto* demo = new QPushButton(tr("Open the Demo"), welcome);
  connect(open, &QPushButton::clicked, this, [this] {
    QString path = QFileDialog::getOpenFileName(this, tr("Open Model"), {}, kModelFilter);
    if (!path.isEmpty()) openFile(path);
  });
  connect(demo, &QPushButton::clicked, this, &MainWindow::openDemo);
  auto* buttons = new QHBoxLayout;
  buttons->addStretch();
  buttons->addWidget(open);
  buttons->addWidget(demo);
  buttons->addStretch();
  auto* hint = new QLabel(tr("or drop a .relay, .json or .onnx file here"), welcome);
  hint->setAlignment(Qt::AlignCenter);
  hint->setEnabled(false);
  layout->addWidget(icon);
  layout->addWidget(title);
  layout->addWidget(subtitle);
  layout->addSpacing(16);
  layout->addLayout(buttons);
  layout->addWidget(hint);
  layout->addStretch(3);
  return welcome;
}

void MainWindow::buildDocks() {
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
  auto dock = [this](const QString& title, const char* name, QWidget* widget, Qt::DockWidgetArea area) {
    auto* result = new QDockWidget(title, this);
    result->setObjectName(QString::fromLatin1(name));
    result->setWidget(widget);
    addDockWidget(area, result);
    return result;
  };
  moduleView_ = new QTreeView(this);
  moduleView_->setModel(moduleTree_);
  moduleView_->setUniformRowHeights(true);
  moduleView_->header()->setStretchLastSection(false);
  moduleView_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
  moduleView_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  connect(moduleView_, &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
    openFunctionTab(index.data(ModuleTreeModel::GlobalNameRole).toString());
  });
  propertiesView_ = makeRowTable(properties_, this);
  propertiesView_->setSelectionMode(QAbstractItemView::NoSelection);
  propertiesView_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  regionView_ = makeRowTable(regions_, this);
  regionView_->setSelectionMode(QAbstractItemView::SingleSelection);
  regionView_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  regionView_->horizontalHeader()->setStretchLastSection(false);
  regionView_->horizontalHeader()->setMinimumSectionSize(48);
  regionView_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  regionView_->horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
  regionView_->horizontalHeader()->setSectionResizeMode(3, QHeaderView::ResizeToContents);
  connect(regionView_, &QTableView::clicked, this, [this](const QModelIndex& index) { selectRegion(index.row()); });
  diagnosticsView_ = makeRowTable(diagnostics_, this);
  diagnosticsView_->setWordWrap(true);
  irText_ = new IrTextView(this);
  connect(irText_, &IrTextView::locationClicked, this, &MainWindow::onTextLocation);
  timeline_ = new TimelineWidget(snapshots_, this);
  connect(timeline_, &TimelineWidget::stepChanged, this, &MainWindow::onStepChanged);
  connect(timeline_, &TimelineWidget::stepOpened, this, &MainWindow::openStepTab);

  QDockWidget* module = dock(tr("Module"), "moduleDock", moduleView_, Qt::LeftDockWidgetArea);
  QDockWidget* timeline = dock(tr("Pass Timeline"), "timelineDock", timeline_, Qt::LeftDockWidgetArea);
  QDockWidget* properties = dock(tr("Properties"), "propertiesDock", propertiesView_, Qt::RightDockWidgetArea);
  QDockWidget* regions = dock(tr("Regions"), "regionsDock", regionView_, Qt::RightDockWidgetArea);
  QDockWidget* text = dock(tr("IR Text"), "textDock", irText_, Qt::BottomDockWidgetArea);
  QDockWidget* diagnostics = dock(tr("Diagnostics"), "diagnosticsDock", diagnosticsView_, Qt::BottomDockWidgetArea);
  QDockWidget* opSupport = dock(tr("Op Support"), "opSupportDock",
                                new OpSupportPanel(opSupport_, colourer_, targetDocument_, this), Qt::RightDockWidgetArea);
  runPanel_ = new RunPanel(this);
  QDockWidget* run = dock(tr("Run"), "runDock", runPanel_, Qt::BottomDockWidgetArea);
  connect(runPanel_, &RunPanel::runRequested, this, &MainWindow::runModel);
  connect(runPanel_, &RunPanel::failed, diagnostics_, &DiagnosticsModel::add);
  connect(runPanel_, &RunPanel::regionNotesChanged, this, [this](const std::map<QString, QString>& notes) {
    hullNotes_ = notes;
    onStepChanged(timeline_->currentStep());
  });
  splitDockWidget(module, timeline, Qt::Vertical);
  splitDockWidget(properties, regions, Qt::Vertical);
  tabifyDockWidget(regions, opSupport);
  regions->raise();
  tabifyDockWidget(text, diagnostics);
  tabifyDockWidget(text, run);
  patternDock_ = new PatternDock(targetDocument_, this);
  QDockWidget* patterns = dock(tr("Patterns"), "patternsDock", patternDock_, Qt::BottomDockWidgetArea);
  connect(patterns, &QDockWidget::visibilityChanged, patternDock_, &PatternDock::setOutlinesShown);
  tabifyDockWidget(text, patterns);
  text->raise();
  resizeDocks({module, properties}, {280, 330}, Qt::Horizontal);
  resizeDocks({text}, {220}, Qt::Vertical);
  viewMenu_ = new QMenu(tr("&View"), this);
  for (QDockWidget* each : {module, timeline, properties, regions, opSupport, text, diagnostics, run, patterns}) viewMenu_->addAction(each->toggleViewAction());
  viewMenu_->addSeparator();
}

void MainWindow::buildActions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] {
    QString path = QFileDialog::getOpenFileName(this, tr("Open Model"), {}, kModelFilter);
    if (!path.isEmpty()) openFile(path);
  });
  open->setIcon(QIcon(QStringLiteral(":/icons/open.svg")));
  QAction* demo = file->addAction(tr("Open &Demo"), QKeySequence(Qt::CTRL | Qt::Key_D), this, &MainWindow::openDemo);
  demo->setIcon(QIcon(QStringLiteral(":/icons/demo.svg")));
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  file->addSeparator();
  file->addAction(tr("Export &Graph Image…"), this, [this] {
    GraphPage* page = currentPage();
    if (!page || !page->isLaidOut()) return;
    QString path = QFileDialog::getSaveFileName(this, tr("Export Graph Image"), page->model().name() + QStringLiteral(".svg"),
                                                tr("SVG images (*.svg);;PNG images (*.png)"));
    if (path.isEmpty()) return;
    const bool svg = !path.endsWith(QStringLiteral(".png"), Qt::CaseInsensitive);
    QString error;
    if (!(svg ? page->exportSvg(path, &error) : page->exportPng(path, &error)))
      QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1: %2").arg(path, error));
    else
      statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
  });
  file->addAction(tr("Export &Partitioned Module…"), this, [this] {
    if (!document_) return;
    const QString directory = QFileDialog::getSaveFileName(this, tr("Export Partitioned Module"), document_->title + QStringLiteral(".byoc"));
    if (!directory.isEmpty()) exportPartitionedModule(directory);
  });
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addAction(tr("&Find…"), QKeySequence::Find, this, [this] {
    if (GraphPage* page = currentPage()) page->showSearch();
  });
  edit->addAction(tr("Find &Next"), QKeySequence::FindNext, this, [this] {
    if (GraphPage* page = currentPage()) page->findNext();
  });
  edit->addAction(tr("Find &Previous"), QKeySequence::FindPrevious, this, [this] {
    if (GraphPage* page = currentPage()) page->findNext(true);
  });

  menuBar()->addMenu(viewMenu_);
  QAction* zoomIn = viewMenu_->addAction(tr("Zoom &In"), QKeySequence::ZoomIn, this, [this] {
    if (GraphPage* page = currentPage()) page->view()->setZoom(page->view()->zoom() * 1.25);
  });
  zoomIn->setIcon(QIcon(QStringLiteral(":/icons/zoom-in.svg")));
  QAction* zoomOut = viewMenu_->addAction(tr("Zoom &Out"), QKeySequence::ZoomOut, this, [this] {
    if (GraphPage* page = currentPage()) page->view()->setZoom(page->view()->zoom() / 1.25);
  });
  zoomOut->setIcon(QIcon(QStringLiteral(":/icons/zoom-out.svg")));
  QAction* fit = viewMenu_->addAction(tr("&Fit Graph"), QKeySequence(Qt::CTRL | Qt::Key_0), this, [this] {
    if (GraphPage* page = currentPage()) page->view()->fitAll();
  });
  fit->setIcon(QIcon(QStringLiteral(":/icons/zoom-fit.svg")));
  viewMenu_->addAction(tr("&Cancel Layout"), this, [this] {
    if (GraphPage* page = currentPage()) page->cancelLayout();
  });
  // The graph's context menu holds these too, with Re-layout's shortcut (Ctrl+Shift+L).
  viewMenu_->addAction(tr("&Re-layout"), this, [this] {
    if (GraphPage* page = currentPage()) page->startLayout();
  });
  viewMenu_->addAction(tr("C&ollapse All Groups"), this, [this] {
    if (GraphPage* page = currentPage()) page->setAllCollapsed(true);
  });
  viewMenu_->addAction(tr("E&xpand All Groups"), this, [this] {
    if (GraphPage* page = currentPage()) page->setAllCollapsed(false);
  });
  viewMenu_->addSeparator();
  QMenu* themes = viewMenu_->addMenu(tr("&Theme"));
  auto* themeGroup = new QActionGroup(this);
  for (Theme theme : {Theme::Light, Theme::Dark}) {
    QAction* action = themes->addAction(theme == Theme::Light ? tr("&Light") : tr("&Dark"), this,
                                        [this, theme] { setTheme(theme); });
    action->setCheckable(true);
    action->setData(themeName(theme));
    themeGroup->addAction(action);
  }
  connect(themes, &QMenu::aboutToShow, this, [this, themeGroup] {
    for (QAction* action : themeGroup->actions()) action->setChecked(action->data().toString() == themeName(theme_));
  });

  targetFiles_ = new TargetFiles(targetDocument_, this);
  menuBar()->addMenu(targetFiles_->menu());
  connect(targetFiles_, &TargetFiles::displayNameChanged, this, &MainWindow::updateTitle);
  updateTitle();
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About BYOC Studio"), this, [this] {
    QMessageBox::about(this, tr("About BYOC Studio"),
                       tr("<h3>BYOC Studio %1</h3><p>Load a model, author your backend's patterns and rules, and "
                          "watch the partitioning passes carve it into regions.</p>")
                           .arg(QCoreApplication::applicationVersion()));
  });

  QToolBar* toolbar = addToolBar(tr("Main"));
  toolbar->setObjectName(QStringLiteral("mainToolbar"));
  toolbar->setMovable(false);
  toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  toolbar->addAction(open);
  toolbar->addAction(demo);
  toolbar->addSeparator();
  toolbar->addAction(zoomIn);
  toolbar->addAction(zoomOut);
  toolbar->addAction(fit);
  buildPartitionBar();
}

void MainWindow::buildPartitionBar() {
  QToolBar* bar = addToolBar(tr("Partition"));
  bar->setObjectName(QStringLiteral("partitionToolbar"));
  bar->setMovable(false);
  bar->addWidget(new QLabel(tr(" Target "), bar));
  targetChooser_ = new QComboBox(bar);
  targetChooser_->setObjectName(QStringLiteral("targetChooser"));
  targetChooser_->setToolTip(tr("The target whose patterns and rules are edited and partitioned for"));
  for (const std::string& name : builtinTargetNames()) targetChooser_->addItem(QString::fromStdString(name));
  targetChooser_->addItem(tr("Target file…"));
  connect(targetChooser_, &QComboBox::activated, this, [this](int index) {
    if (!targetFiles_->confirmReplace()) {
      showTargetInChooser();
      return;
    }
    QString chosen = targetChooser_->itemText(index);
    if (index == targetChooser_->count() - 1) {
      chosen = QFileDialog::getOpenFileName(this, tr("Open Target"), {}, tr("Target files (*.json)"));
      if (chosen.isEmpty()) {
        showTargetInChooser();
        return;
      }
    }
    if (Status loaded = targetDocument_->load(chosen); !loaded) reportFailure(loaded.error());
  });
  connect(targetDocument_, &TargetDocument::changed, this, &MainWindow::showTargetInChooser);
  bar->addWidget(targetChooser_);
  bar->addWidget(new QLabel(tr(" Flow "), bar));
  pipelineChooser_ = new QComboBox(bar);
  pipelineChooser_->setObjectName(QStringLiteral("pipelineChooser"));
  pipelineChooser_->addItems({QStringLiteral("relay"), QStringLiteral("relax")});
  pipelineChooser_->setToolTip(tr("relay: MergeComposite → AnnotateTarget → MergeCompilerRegions → PartitionGraph\n"
                                  "relax: FuseOpsByPattern → MergeCompositeFunctions → RunCodegen"));
  bar->addWidget(pipelineChooser_);
  QAction* run = bar->addAction(tr("Run Passes"), this, [this] { runPartition(pipelineChooser_->currentText()); });
  run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
  run->setToolTip(tr("Run the partitioning passes for the target and step through them in the timeline (Ctrl+R)"));
  if (Status loaded = targetDocument_->load(targetChooser_->itemText(0)); !loaded) reportFailure(loaded.error());
}

void MainWindow::showTargetInChooser() {
  const QString& path = targetDocument_->path();
  const QString shown = path.isEmpty() ? QString::fromStdString(targetDocument_->target().name) : path;
  int index = targetChooser_->findText(shown);
  if (index < 0) {
    index = targetChooser_->count() - 1;  // before "Target file…"
    targetChooser_->insertItem(index, shown);
  }
  targetChooser_->setCurrentIndex(index);
}

void MainWindow::updateTitle() {
  const QString target = targetFiles_ ? targetFiles_->displayName() + QStringLiteral(" — ") : QString();
  setWindowTitle((document_ ? document_->title + QStringLiteral(" — ") : QString()) + target + QStringLiteral("BYOC Studio"));
}

void MainWindow::openFile(const QString& path) {
  startLoading(QFileInfo(path).fileName(), [path] { return openModelDocument(path); });
}

void MainWindow::openDemo() {
  startLoading(tr("the demo"), [] { return openDemoDocument(); });
}

void MainWindow::startLoading(const QString& label, std::function<Result<ModelDocument>()> load) {
  const int generation = ++loadGeneration_;
  statusBar()->showMessage(tr("Opening %1…").arg(label));
  auto* watcher = new QFutureWatcher<Result<ModelDocument>>(this);
  connect(watcher, &QFutureWatcher<Result<ModelDocument>>::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    if (generation != loadGeneration_) return;
    Result<ModelDocument> result = watcher->result();
    if (!result) {
      reportFailure(result.error());
      return;
    }
    adopt(std::move(result).value());
  });
  watcher->setFuture(QtConcurrent::run(std::move(load)));
}

void MainWindow::openSteps(const QStringList& paths) {
  if (!document_) return;
  Module loaded = document_->module;
  showStepsWhenReady(tr("Opening %n pass step(s)…", nullptr, static_cast<int>(paths.size())),
                     [paths, loaded] { return openStepFiles(paths, loaded); });
}

void MainWindow::runPartition(const QStringList& targets, const QString& pipeline) {
  if (targets.isEmpty()) return;
  if (Status loaded = targetDocument_->load(targets.front()); !loaded) {
    reportFailure(loaded.error());
    return;
  }
  std::vector<std::shared_ptr<const Target>> others;
  for (const QString& name : targets.mid(1)) {
    Result<Target> other = loadTarget(name.toStdString());
    if (!other) {
      reportFailure(other.error());
      return;
    }
    others.push_back(std::make_shared<const Target>(std::move(other).value()));
  }
  if (int shown = pipelineChooser_->findText(pipeline); shown >= 0) pipelineChooser_->setCurrentIndex(shown);
  runPartition(pipeline, std::move(others));
}

void MainWindow::runPartition(const QString& pipeline, std::vector<std::shared_ptr<const Target>> lowerPriority) {
  if (!document_) return;
  repartition_->stop();
  std::vector<std::shared_ptr<const Target>> targets{std::make_shared<const Target>(targetDocument_->target())};
  targets.insert(targets.end(), lowerPriority.begin(), lowerPriority.end());
  QStringList names;
  for (const auto& target : targets) names << QString::fromStdString(target->name);
  Module loaded = document_->module;
  showStepsWhenReady(tr("Partitioning for %1 (%2)…").arg(names.join(QStringLiteral(", ")), pipeline),
                     [loaded, targets, pipeline] { return runPartitionFlow(loaded, targets, pipeline); });
}

void MainWindow::runModel() {
  if (!document_) return;
  for (QDockWidget* dock : findChildren<QDockWidget*>()) {
    if (dock->widget() == runPanel_) {
      dock->show();
      dock->raise();
      resizeDocks({dock}, {std::max(dock->height(), height() * 2 / 5)}, Qt::Vertical);
    }
  }
  runPanel_->run({std::make_shared<const Target>(targetDocument_->target())}, pipelineChooser_->currentText());
}

ModuleExportJob* MainWindow::exportPartitionedModule(const QString& directory) {
  if (!document_) return nullptr;
  auto* job = new ModuleExportJob({document_->module, {std::make_shared<const Target>(targetDocument_->target())},
                                   pipelineChooser_->currentText(), directory,
                                   QStringLiteral("byoc-studio ") + QCoreApplication::applicationVersion()},
                                  this);
  connect(job, &ModuleExportJob::finished, this, [this, directory](bool ok, const Diagnostic& error) {
    if (ok) statusBar()->showMessage(tr("Wrote %1").arg(directory), 5000);
    else diagnostics_->add(error);
  });
  return job;
}

void MainWindow::showStepsWhenReady(const QString& what, std::function<Result<std::vector<Snapshot>>()> work) {
  statusBar()->showMessage(what);
  const int generation = loadGeneration_;
  const int run = ++partitionRun_;
  auto* watcher = new QFutureWatcher<Result<std::vector<Snapshot>>>(this);
  connect(watcher, &QFutureWatcher<Result<std::vector<Snapshot>>>::finished, this, [this, watcher, generation, run] {
    watcher->deleteLater();
    if (generation != loadGeneration_ || run != partitionRun_) return;  // another model or run came since
    const int resume = std::exchange(resumeStep_, -1);
    Result<std::vector<Snapshot>> result = watcher->result();
    if (!result) {
      reportFailure(result.error());
      return;
    }
    std::vector<Snapshot> steps{{tr("loaded"), document_->module, false, 0}};
    for (Snapshot& step : *result) steps.push_back(std::move(step));
    setSnapshots(std::move(steps));
    if (resume > 0) timeline_->setCurrentStep(std::min(resume, static_cast<int>(steps_.size()) - 1));
    statusBar()->clearMessage();
    emit stepsOpened();
  });
  watcher->setFuture(QtConcurrent::run(std::move(work)));
}

void MainWindow::reportFailure(const Diagnostic& diagnostic) {
  diagnostics_->add(diagnostic);
  const QString message = QString::fromStdString(diagnostic.str());
  statusBar()->showMessage(tr("Could not open: %1").arg(message));
  for (QDockWidget* dock : findChildren<QDockWidget*>()) {
    if (dock->widget() == diagnosticsView_) {
      dock->show();
      dock->raise();
    }
  }
  emit openFailed(message);
}

void MainWindow::adopt(ModelDocument document) {
  while (tabs_->count() > 0) {
    QWidget* page = tabs_->widget(0);
    tabs_->removeTab(0);
    page->deleteLater();
  }
  pageTexts_.clear();
  stepTexts_.clear();
  printingSteps_.clear();
  ++stepsGeneration_;
  mainPage_ = nullptr;
  diagnostics_->clear();
  document_ = std::make_unique<ModelDocument>(std::move(document));
  if (!document_->path.isEmpty()) addRecentFile(document_->path);
  updateTitle();
  opSupport_->setModule(document_->module);
  steps_.clear();
  snapshots_->setSnapshots({});
  regions_->setOverlay({});
  properties_->setProperties({});
  moduleTree_->setModule(document_->module);
  moduleView_->expandAll();
  runPanel_->setModel(document_->module);
  if (!document_->entry) {
    reportFailure(makeError("the model has no functions", {document_->path.toStdString(), 0, 0}));
    return;
  }
  centre_->setCurrentWidget(tabs_);
  mainPage_ = addPage(document_->entryGraph, document_->title + QStringLiteral(" · @") + document_->entryName);
  colourer_->setGraph(&mainPage_->model());
  onTabChanged();
  emit opened();
}

GraphPage* MainWindow::addPage(const Function& function, const QString& name, const QString& tabTitle) {
  return addPage(std::make_shared<const GraphModel>(GraphModel::build(function, name, document_->module.provenance().get())),
                 tabTitle);
}

GraphPage* MainWindow::addPage(std::shared_ptr<const GraphModel> model, const QString& tabTitle) {
  auto* page = new GraphPage(std::move(model), document_->module.provenance(), tabs_);
  page->setTheme(theme_);
  connect(page, &GraphPage::nodeSelected, this, [this, page](int node) { onNodeSelected(page, node); });
  connect(page, &GraphPage::nodeActivated, this, [this, page](int node) { activateNode(page, node); });
  connect(page, &GraphPage::status, this, [this](const QString& message) { statusBar()->showMessage(message); });
  connect(page, &GraphPage::layoutFailed, this, [this](const QString& message) {
    diagnostics_->add(makeError(message.toStdString(), {"layout", 0, 0}));
  });
  connect(page->view(), &GraphView::zoomChanged, this, [this](qreal zoom) {
    zoomLabel_->setText(QStringLiteral("%1 %").arg(qRound(zoom * 100)));
  });
  const int index = tabs_->addTab(page, tabTitle);
  if (!mainPage_) tabs_->tabBar()->setTabButton(index, QTabBar::RightSide, nullptr);  // the loaded graph stays open
  tabs_->setCurrentIndex(index);
  page->startLayout();
  return page;
}

GraphPage* MainWindow::currentPage() const { return qobject_cast<GraphPage*>(tabs_->currentWidget()); }

int MainWindow::pageCount() const { return tabs_->count(); }

const Module& MainWindow::currentModule() const {
  const int step = timeline_->currentStep();
  return step >= 0 ? steps_[step].module : document_->module;
}

GraphPage* MainWindow::openFunctionTab(const QString& function) {
  if (!document_) return nullptr;
  const int step = timeline_->currentStep();
  const QString title = (step > 0 ? QStringLiteral("Step %1 · @").arg(step) : QStringLiteral("@")) + function;
  for (int i = 0; i < tabs_->count(); ++i) {
    if (tabs_->tabText(i) == title) {
      tabs_->setCurrentIndex(i);
      return static_cast<GraphPage*>(tabs_->widget(i));
    }
  }
  const Module& module = currentModule();
  Function found = module.find(function.toStdString());
  if (!found) return nullptr;
  GraphPage* page = addPage(found, function, title);
  pageTexts_[page] = TextLinks::printed(Expr(found));
  onTabChanged();
  return page;
}

GraphPage* MainWindow::openStepTab(int step) {
  if (step < 0 || step >= static_cast<int>(steps_.size())) return nullptr;
  QString name;
  Function entry = entryFunction(steps_[step].module, &name);
  if (!entry) return nullptr;
  GraphPage* page = addPage(entry, name, QStringLiteral("Step %1: %2").arg(step).arg(steps_[step].passName));
  pageTexts_[page] = TextLinks::printed(steps_[step].module);
  onTabChanged();
  return page;
}

GraphPage* MainWindow::activateNode(GraphPage* page, int node) {
  const auto* call = page->model().nodes().at(node).expr->as<CallNode>();
  const auto* global = call ? call->callee->as<GlobalVarNode>() : nullptr;
  return global ? openFunctionTab(QString::fromStdString(global->name)) : nullptr;
}

void MainWindow::setSnapshots(std::vector<Snapshot> snapshots) {
  steps_ = snapshots;
  stepTexts_.assign(steps_.size(), nullptr);
  printingSteps_.clear();
  ++stepsGeneration_;
  snapshots_->setSnapshots(std::move(snapshots));
}

void MainWindow::onStepChanged(int step) {
  GraphOverlay overlay;
  if (step >= 0 && mainPage_) overlay = overlayForSnapshot(steps_[step].module, mainPage_->model());
  if (step <= 0) overlay.nodeTargets = colourer_->colours().nodeTargets;  // the edited target's support
  overlay.hullNotes = hullNotes_;
  if (mainPage_) mainPage_->setOverlay(overlay);
  regions_->setOverlay(overlay);
  if (document_) {
    moduleTree_->setModule(currentModule());
    moduleView_->expandAll();
  }
  showCurrentText();
  if (step >= 0) statusBar()->showMessage(tr("Step %1: %2").arg(step).arg(steps_[step].passName));
}

void MainWindow::selectRegion(int row) {
  if (!mainPage_ || row < 0 || row >= regions_->rowCount()) return;
  const QList<int> nodes = regions_->index(row, 0).data(RegionListModel::NodesRole).value<QList<int>>();
  tabs_->setCurrentWidget(mainPage_);
  GraphScene* scene = mainPage_->scene();
  scene->selectNode(-1);
  QRectF area;
  for (int node : nodes) {
    if (NodeItem* item = scene->itemOf(node)) {
      item->setSelected(true);
      area = area.united(item->sceneBoundingRect());
    }
  }
  if (!area.isNull()) mainPage_->view()->showArea(area);
}

void MainWindow::onNodeSelected(GraphPage* page, int node) {
  if (node < 0) {
    properties_->setProperties({});
    return;
  }
  const GraphNode& graphNode = page->model().nodes()[node];
  properties_->setProperties(nodeProperties(graphNode, document_ ? document_->module.provenance().get() : nullptr));
  if (followingText_ || page != currentPage() || !shownText_ || shownText_ != textOf(page)) return;
  if (std::optional<TextRange> range = shownText_->rangeOf(graphNode.expr)) irText_->showRange(*range);
}

void MainWindow::onTextLocation(int line, int column) {
  GraphPage* page = currentPage();
  if (!page || !shownText_) return;
  const int node = shownText_->graphNodeAt(page->model(), line, column);
  if (node < 0) return;
  followingText_ = true;
  page->scene()->selectNode(node);
  followingText_ = false;
  page->view()->revealNode(node);
}

std::shared_ptr<const TextLinks> MainWindow::textOf(const GraphPage* page) const {
  if (!page || !document_) return nullptr;
  if (page != mainPage_) {
    auto text = pageTexts_.find(page);
    return text == pageTexts_.end() ? nullptr : text->second;
  }
  const int step = timeline_->currentStep();
  return step > 0 && step < static_cast<int>(stepTexts_.size()) ? stepTexts_[step] : document_->text;
}

void MainWindow::printStep(int step) {
  if (!printingSteps_.insert(step).second) return;
  const int generation = stepsGeneration_;
  auto* watcher = new QFutureWatcher<std::shared_ptr<const TextLinks>>(this);
  connect(watcher, &QFutureWatcher<std::shared_ptr<const TextLinks>>::finished, this, [this, watcher, generation, step] {
    watcher->deleteLater();
    if (generation != stepsGeneration_) return;
    printingSteps_.erase(step);
    stepTexts_[step] = watcher->result();
    if (timeline_->currentStep() == step) showCurrentText();
  });
  watcher->setFuture(QtConcurrent::run([module = steps_[step].module] { return TextLinks::printed(module); }));
}

void MainWindow::showCurrentText() {
  GraphPage* page = currentPage();
  const int step = timeline_->currentStep();
  if (page && page == mainPage_ && step > 0 && step < static_cast<int>(stepTexts_.size()) && !stepTexts_[step]) printStep(step);
  std::shared_ptr<const TextLinks> text = textOf(page);
  if (text == shownText_) return;
  shownText_ = text;
  irText_->setIrText(text ? text->text() : QString());
  if (page) onNodeSelected(page, page->scene()->selectedNode());
}

void MainWindow::onTabChanged() {
  GraphPage* page = currentPage();
  showCurrentText();
  patternDock_->setPage(page);
  if (page) {
    zoomLabel_->setText(QStringLiteral("%1 %").arg(qRound(page->view()->zoom() * 100)));
    onNodeSelected(page, page->scene()->selectedNode());
  }
}

void MainWindow::setTheme(Theme theme) {
  theme_ = theme;
  applyTheme(*qApp, theme);
  QSettings().setValue(settingsKey("theme"), themeName(theme));
  irText_->setDarkColours(theme == Theme::Dark);
  patternDock_->setTheme(theme);
  for (int i = 0; i < tabs_->count(); ++i) static_cast<GraphPage*>(tabs_->widget(i))->setTheme(theme);
}

void MainWindow::addRecentFile(const QString& path) {
  QSettings settings;
  QStringList files = settings.value(settingsKey("recentFiles")).toStringList();
  files.removeAll(path);
  files.prepend(path);
  while (files.size() > kMaxRecentFiles) files.removeLast();
  settings.setValue(settingsKey("recentFiles"), files);
  rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
  recentMenu_->clear();
  const QStringList files = QSettings().value(settingsKey("recentFiles")).toStringList();
  for (const QString& path : files) {
    recentMenu_->addAction(QFileInfo(path).fileName(), this, [this, path] { openFile(path); })->setToolTip(path);
  }
  recentMenu_->setEnabled(!files.isEmpty());
  if (files.isEmpty()) return;
  recentMenu_->addSeparator();
  recentMenu_->addAction(tr("Clear List"), this, [this] {
    QSettings().remove(settingsKey("recentFiles"));
    rebuildRecentMenu();
  });
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!targetFiles_->confirmReplace()) {
    event->ignore();
    return;
  }
  QSettings settings;
  settings.setValue(settingsKey("geometry"), saveGeometry());
  settings.setValue(settingsKey("windowState"), saveState());
  QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (!urls.isEmpty() && urls.first().isLocalFile()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (urls.isEmpty() || !urls.first().isLocalFile()) return;
  openFile(urls.first().toLocalFile());
  event->acceptProposedAction();
}

}  // namespace byoc::ui
