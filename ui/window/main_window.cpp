/// \file
/// MainWindow: creates the models, pages, docks and toolbars, and connects them.

#include "window/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStringBuilder>
#include <QClipboard>
#include <QTimer>
#include <QTableView>
#include <QToolBar>
#include <QTreeView>
#include <algorithm>
#include <utility>

#include "window/dock_set.h"
#include "window/graph_image_job.h"
#include "window/graph_tabs.h"
#include "window/help_browser.h"
#include "window/partition_bar.h"
#include "window/pass_steps.h"
#include "window/recent_files.h"
#include "window/shortcut_list.h"
#include "window/steps_job.h"
#include "window/welcome_page.h"
#include "authoring/op_support_colouring.h"
#include "authoring/op_support_model.h"
#include "authoring/pattern_dock.h"
#include "authoring/rewrite_preview.h"
#include "authoring/target_document.h"
#include "authoring/target_files.h"
#include "exports/export_view.h"
#include "exports/kernel_graph_view.h"
#include "exports/module_export.h"
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
#include "panels/text_links.h"
#include "panels/timeline_widget.h"
#include "compare/compare_panel.h"
#include "run/run_panel.h"
#include "session/partitioning.h"
#include "target/target_library.h"

namespace byoc::ui {

namespace {

/// What a partition is made for: its targets, as their JSON, and its flow.
std::string partitionKey(const std::vector<std::shared_ptr<const Target>>& targets, const QString& pipeline) {
  std::string key = pipeline.toStdString();
  for (const auto& target : targets) key += '\n' + serializeTarget(*target);
  return key;
}

const QString kModelFilter =
    QStringLiteral("Models and exports (*.relay *.txt *.json *.onnx);;Export manifests (manifest.json);;All files (*)");

QString settingsKey(const char* key) { return QString::fromLatin1(key); }

/// `keys`, then the platform's bindings of `standard` that are not among them: each key once, as
/// one key bound twice in a window is an ambiguous shortcut that does nothing.
QList<QKeySequence> withPlatformKeys(QList<QKeySequence> keys, QKeySequence::StandardKey standard) {
  for (const QKeySequence& key : QKeySequence::keyBindings(standard))
    if (!keys.contains(key)) keys << key;
  return keys;
}

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
  steps_ = new PassSteps(this);
  targetDocument_ = new TargetDocument(this);
  opSupport_ = new OpSupportModel(targetDocument_, this);
  colourer_ = new SupportColourer(targetDocument_, this);
  repartition_ = new QTimer(this);
  repartition_->setSingleShot(true);
  repartition_->setInterval(kRepartitionDelayMs);

  tabs_ = new GraphTabs(this);
  auto* welcome = new WelcomePage(this);
  connect(welcome, &WelcomePage::openRequested, this, &MainWindow::chooseModelFile);
  connect(welcome, &WelcomePage::demoRequested, this, &MainWindow::openDemo);
  centre_ = new QStackedWidget(this);
  centre_->addWidget(welcome);
  centre_->addWidget(tabs_);
  setCentralWidget(centre_);

  docks_ = std::make_unique<DockSet>(this, PanelModels{moduleTree_, properties_, regions_, diagnostics_, snapshots_,
                                                       targetDocument_, opSupport_, colourer_});
  targetFiles_ = new TargetFiles(targetDocument_, this);
  partitionBar_ = new PartitionBar(targetDocument_, targetFiles_, this);
  imageJob_ = new GraphImageJob(this);
  buildMenus();
  addToolBar(buildMainToolbar());
  addToolBar(partitionBar_);
  zoomLabel_ = new QLabel(this);
  statusBar()->addPermanentWidget(zoomLabel_);
  stepsJob_ = new StepsJob(statusBar(), this);
  connectPanels();
  statusBar()->showMessage(tr("Open a model (Ctrl+O) or the demo (Ctrl+D)."));
  if (Status loaded = targetDocument_->load(QString::fromStdString(builtinTargetNames().front())); !loaded)
    reportFailure(tr("Could not load the target"), loaded.error());

  QSettings settings;
  theme_ = themeFromName(settings.value(settingsKey("theme"), QStringLiteral("light")).toString());
  if (!restoreGeometry(settings.value(settingsKey("geometry")).toByteArray())) resize(1440, 900);
  docksToFit_ = !restoreState(settings.value(settingsKey("windowState")).toByteArray());
  setTheme(theme_);
}

MainWindow::~MainWindow() = default;

TimelineWidget* MainWindow::timeline() const { return docks_->timeline(); }

PatternDock* MainWindow::patternDock() const { return docks_->patternDock(); }

IrTextView* MainWindow::irText() const { return docks_->irText(); }

RunPanel* MainWindow::runPanel() const { return docks_->runPanel(); }

ComparePanel* MainWindow::comparePanel() const { return docks_->comparePanel(); }

void MainWindow::connectPanels() {
  connect(colourer_, &SupportColourer::coloured, this, [this] {
    if (timeline()->currentStep() <= 0) onStepChanged(timeline()->currentStep());
  });
  connect(targetDocument_, &TargetDocument::changed, this, [this] {
    runPanel()->setStale(tr("the target was edited"));
    if (steps_->count() < 2) return;
    timeline()->setStale(tr("the target was edited"));
    repartition_->start();
  });
  connect(repartition_, &QTimer::timeout, this, [this] { runPartition(partitionBar_->pipeline()); });
  connect(partitionBar_, &PartitionBar::runRequested, this, [this] { runPartition(partitionBar_->pipeline()); });
  connect(partitionBar_, &PartitionBar::failed, this,
          [this](const Diagnostic& error) { reportFailure(tr("Could not load the target"), error); });
  connect(targetFiles_, &TargetFiles::displayNameChanged, this, &MainWindow::updateTitle);
  connect(stepsJob_, &StepsJob::finished, this, &MainWindow::showSteps);
  connect(stepsJob_, &StepsJob::failed, this, [this](const Diagnostic& error) {
    resumePass_.reset();
    const bool partitioning = !std::exchange(pendingPartition_, {}).empty();
    reportFailure(partitioning ? tr("Partitioning failed") : tr("Could not read the pass steps"), error);
  });
  connect(stepsJob_, &StepsJob::cancelled, this, [this] { resumePass_.reset(); });
  connect(steps_, &PassSteps::printed, this, [this](int step) {
    if (timeline()->currentStep() == step) showCurrentText();
  });
  connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::onTabChanged);
  connect(tabs_, &GraphTabs::nodeSelected, this, &MainWindow::onNodeSelected);
  connect(tabs_, &GraphTabs::edgeSelected, this,
          [this](GraphPage* page, int edge) { properties_->setProperties(edgeProperties(page->model(), edge)); });
  connect(tabs_, &GraphTabs::nodeActivated, this, &MainWindow::activateNode);
  connect(tabs_, &GraphTabs::status, this, [this](const QString& message) { statusBar()->showMessage(message); });
  connect(tabs_, &GraphTabs::layoutFailed, this, [this](const QString& message) {
    diagnostics_->add(makeError(message.toStdString(), {"layout", 0, 0}));
  });
  connect(tabs_, &GraphTabs::zoomChanged, this, [this](qreal zoom) { showZoom(zoom); });
  connect(docks_->moduleView(), &QTreeView::doubleClicked, this, [this](const QModelIndex& index) {
    openFunctionTab(index.data(ModuleTreeModel::GlobalNameRole).toString());
  });
  connect(docks_->regionView(), &QTreeView::clicked, this, &MainWindow::selectRegion);
  connect(irText(), &IrTextView::locationClicked, this, &MainWindow::onTextLocation);
  connect(timeline(), &TimelineWidget::stepChanged, this, &MainWindow::onStepChanged);
  connect(timeline(), &TimelineWidget::stepOpened, this, &MainWindow::openStepTab);
  connect(runPanel(), &RunPanel::runRequested, this, &MainWindow::runModel);
  connect(runPanel(), &RunPanel::failed, diagnostics_, &DiagnosticsModel::add);
  connect(comparePanel(), &ComparePanel::overlayChanged, this, [this](const GraphOverlay& overlay) {
    if (overlay.empty()) onStepChanged(timeline()->currentStep());
    else if (mainPage()) mainPage()->setOverlay(overlay);
  });
  connect(comparePanel(), &ComparePanel::nodesChosen, this, &MainWindow::selectNodes);
  connect(patternDock()->rewritePreview(), &RewritePreview::previewReady, this,
          [this](const Function& rewritten, const QString& name, const QString& title) {
            if (!document_) return;
            tabs_->close(title);  // the preview before this one
            addPage(rewritten, name, title, TextLinks::printed(Expr(rewritten)));
          });
  connect(runPanel(), &RunPanel::regionNotesChanged, this, [this](const std::map<QString, QString>& notes) {
    hullNotes_ = notes;
    onStepChanged(timeline()->currentStep());
  });
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::chooseModelFile);
  open->setObjectName(QStringLiteral("openAction"));
  open->setIcon(QIcon(QStringLiteral(":/icons/open.svg")));
  QAction* openExport = file->addAction(tr("Open &Export…"), this, [this] {
    const QString directory = QFileDialog::getExistingDirectory(this, tr("Open Export Directory"));
    if (!directory.isEmpty()) openFile(directory);
  });
  openExport->setObjectName(QStringLiteral("openExportAction"));
  QAction* demo = file->addAction(tr("Open &Demo"), QKeySequence(Qt::CTRL | Qt::Key_D), this, &MainWindow::openDemo);
  demo->setObjectName(QStringLiteral("demoAction"));
  demo->setIcon(QIcon(QStringLiteral(":/icons/demo.svg")));
  recentFiles_ = new RecentFilesMenu(this);
  connect(recentFiles_, &RecentFilesMenu::chosen, this, &MainWindow::openFile);
  file->addMenu(recentFiles_);
  file->addSeparator();
  file->addAction(tr("Export &Graph Image…"), this, [this] {
    GraphPage* page = currentPage();
    if (!page || !page->isLaidOut()) return;
    QString path = QFileDialog::getSaveFileName(this, tr("Export Graph Image"), page->model().name() + QStringLiteral(".svg"),
                                                tr("SVG images (*.svg);;PNG images (*.png)"));
    if (!path.isEmpty()) imageJob_->start(*page, path);
  });
  connect(imageJob_, &GraphImageJob::finished, this, [this](const QString& path, const QString& error) {
    if (error.isEmpty()) statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
    else QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1: %2").arg(path, error));
  });
  file->addAction(tr("Export &Partitioned Module…"), this, [this] {
    if (!document_) return;
    const QString directory = QFileDialog::getSaveFileName(this, tr("Export Partitioned Module"), document_->title + QStringLiteral(".byoc"));
    if (!directory.isEmpty()) exportPartitionedModule(directory);
  });
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  // Every edit of the target; a focused text field keeps Ctrl+Z for its own text.
  QAction* undo = targetDocument_->undoStack()->createUndoAction(this, tr("&Undo"));
  undo->setShortcut(QKeySequence::Undo);
  undo->setObjectName(QStringLiteral("undoAction"));
  QAction* redo = targetDocument_->undoStack()->createRedoAction(this, tr("&Redo"));
  redo->setShortcuts(withPlatformKeys({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)},
                                      QKeySequence::Redo));
  redo->setObjectName(QStringLiteral("redoAction"));
  edit->addAction(undo);
  edit->addAction(redo);
  edit->addSeparator();
  // Ctrl+C on the graph copies the selected node's properties; text views keep it for their text.
  QAction* copyNode = new QAction(tr("&Copy Node"), tabs_);
  copyNode->setShortcut(QKeySequence::Copy);
  copyNode->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  copyNode->setObjectName(QStringLiteral("copyNodeAction"));
  connect(copyNode, &QAction::triggered, this, &MainWindow::copySelectedNode);
  tabs_->addAction(copyNode);
  edit->addAction(copyNode);
  edit->addAction(tr("&Find…"), QKeySequence::Find, this, [this] {
    if (GraphPage* page = currentPage()) page->showSearch();
  });
  QAction* findNext = edit->addAction(tr("Find &Next"), this, [this] {
    if (GraphPage* page = currentPage()) page->findNext();
  });
  findNext->setShortcuts(withPlatformKeys({QKeySequence(Qt::Key_F3)}, QKeySequence::FindNext));
  QAction* findPrevious = edit->addAction(tr("Find &Previous"), this, [this] {
    if (GraphPage* page = currentPage()) page->findNext(true);
  });
  findPrevious->setShortcuts(withPlatformKeys({QKeySequence(Qt::SHIFT | Qt::Key_F3)}, QKeySequence::FindPrevious));

  QMenu* view = docks_->viewMenu();
  menuBar()->addMenu(view);
  QAction* zoomIn = view->addAction(tr("Zoom &In"), QKeySequence::ZoomIn, this, [this] {
    if (GraphPage* page = currentPage()) page->view()->setZoom(page->view()->zoom() * 1.25);
  });
  zoomIn->setObjectName(QStringLiteral("zoomInAction"));
  zoomIn->setIcon(QIcon(QStringLiteral(":/icons/zoom-in.svg")));
  QAction* zoomOut = view->addAction(tr("Zoom &Out"), QKeySequence::ZoomOut, this, [this] {
    if (GraphPage* page = currentPage()) page->view()->setZoom(page->view()->zoom() / 1.25);
  });
  zoomOut->setObjectName(QStringLiteral("zoomOutAction"));
  zoomOut->setIcon(QIcon(QStringLiteral(":/icons/zoom-out.svg")));
  QAction* fit = view->addAction(tr("&Fit Graph"), QKeySequence(Qt::CTRL | Qt::Key_0), this, [this] {
    if (GraphPage* page = currentPage()) page->view()->fitAll();
  });
  fit->setObjectName(QStringLiteral("fitAction"));
  fit->setIcon(QIcon(QStringLiteral(":/icons/zoom-fit.svg")));
  view->addAction(tr("&Cancel Layout"), this, [this] {
    if (GraphPage* page = currentPage()) page->cancelLayout();
  });
  // The graph's context menu holds these too, with Re-layout's shortcut (Ctrl+Shift+L).
  view->addAction(tr("&Re-layout"), this, [this] {
    if (GraphPage* page = currentPage()) page->startLayout();
  });
  view->addAction(tr("C&ollapse All Groups"), this, [this] {
    if (GraphPage* page = currentPage()) page->setAllCollapsed(true);
  });
  view->addAction(tr("E&xpand All Groups"), this, [this] {
    if (GraphPage* page = currentPage()) page->setAllCollapsed(false);
  });
  QAction* weights = view->addAction(tr("Show &Weights as Nodes"), this, &MainWindow::setWeightsAsNodes);
  weights->setObjectName(QStringLiteral("weightsAsNodesAction"));
  weights->setCheckable(true);
  view->addSeparator();
  QMenu* themes = view->addMenu(tr("&Theme"));
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

  menuBar()->addMenu(targetFiles_->menu());
  updateTitle();
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  for (const HelpDocument& document : kHelpDocuments)
    help->addAction(tr(document.title), this, [this, file = QString::fromLatin1(document.file)] { showHelpDocument(file, this); });
  help->addAction(tr("&Keyboard Shortcuts"), this, [this] {
    QMessageBox box(QMessageBox::NoIcon, tr("Keyboard Shortcuts"), shortcutListHtml(*this), QMessageBox::Close, this);
    box.setTextFormat(Qt::RichText);
    box.exec();
  });
  help->addAction(tr("&About BYOC Studio"), this, [this] {
    QMessageBox::about(this, tr("About BYOC Studio"),
                       tr("<h3>BYOC Studio %1</h3><p>Load a model, author your backend's patterns and rules, and "
                          "watch the partitioning passes carve it into regions.</p>")
                           .arg(QCoreApplication::applicationVersion()));
  });
}

QToolBar* MainWindow::buildMainToolbar() {
  auto* toolbar = new QToolBar(tr("Main"), this);
  toolbar->setObjectName(QStringLiteral("mainToolbar"));
  toolbar->setMovable(false);
  toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  for (const char* name : {"openAction", "demoAction", "", "zoomInAction", "zoomOutAction", "fitAction"}) {
    if (*name) toolbar->addAction(findChild<QAction*>(QString::fromLatin1(name)));
    else toolbar->addSeparator();
  }
  return toolbar;
}

void MainWindow::chooseModelFile() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Model"), {}, kModelFilter);
  if (!path.isEmpty()) openFile(path);
}

void MainWindow::updateTitle() {
  const QString target = targetFiles_ ? targetFiles_->displayName() + QStringLiteral(" — ") : QString();
  setWindowTitle((document_ ? document_->title + QStringLiteral(" — ") : QString()) + target + QStringLiteral("BYOC Studio"));
}

void MainWindow::openFile(const QString& path) {
  startLoading(QFileInfo(path).fileName(), [path, options = graphOptions_] { return openModelDocument(path, options); });
}

void MainWindow::openDemo() {
  startLoading(tr("the demo"), [options = graphOptions_] { return openDemoDocument(options); });
}

void MainWindow::startLoading(const QString& label, std::function<Result<ModelDocument>()> load) {
  stepsJob_->discard();  // steps of the model shown would land on the new one
  statusBar()->showMessage(tr("Opening %1…").arg(label));
  loadJob_.start(std::move(load), [this](Result<ModelDocument> result) {
    if (!result) {
      reportFailure(tr("Could not open"), result.error());
      return;
    }
    adopt(std::move(result).value());
  });
}

void MainWindow::openSteps(const QStringList& paths) {
  if (!document_) return;
  Module loaded = document_->module;
  pendingPartition_.clear();  // saved steps are no partition Run or Export could reuse
  stepsJob_->start(tr("Opening %n pass step(s)…", nullptr, static_cast<int>(paths.size())),
                   [paths, loaded](const JobControl&) { return openStepFiles(paths, loaded); });
}

void MainWindow::runPartition(const QStringList& targets, const QString& pipeline) {
  if (targets.isEmpty()) return;
  if (Status loaded = targetDocument_->load(targets.front()); !loaded) {
    reportFailure(tr("Could not load the target"), loaded.error());
    return;
  }
  std::vector<std::shared_ptr<const Target>> others;
  for (const QString& name : targets.mid(1)) {
    Result<Target> other = openTarget(name.toStdString());
    if (!other) {
      reportFailure(tr("Could not load the target"), other.error());
      return;
    }
    others.push_back(std::make_shared<const Target>(std::move(other).value()));
  }
  partitionBar_->setPipeline(pipeline);
  runPartition(pipeline, std::move(others));
}

void MainWindow::runPartition(const QString& pipeline, std::vector<std::shared_ptr<const Target>> lowerPriority) {
  if (!document_) return;
  if (document_->exported) {
    diagnostics_->add(makeError("an export is already partitioned: Run Passes partitions a model; open the model it was "
                                "exported from to partition it again",
                                {document_->path.toStdString()}));
    docks_->raise(docks_->diagnosticsView());
    return;
  }
  repartition_->stop();
  keepPlaceForNextSteps();
  std::vector<std::shared_ptr<const Target>> targets{std::make_shared<const Target>(targetDocument_->target())};
  targets.insert(targets.end(), lowerPriority.begin(), lowerPriority.end());
  pendingPartition_ = partitionKey(targets, pipeline);
  stepsJob_->partition(document_->module, std::move(targets), pipeline);
}

const Module* MainWindow::reusablePartition(const std::vector<std::shared_ptr<const Target>>& targets, const QString& pipeline) const {
  if (timelinePartition_.empty() || steps_->count() < 2 || timelinePartition_ != partitionKey(targets, pipeline)) return nullptr;
  return &steps_->steps().back().module;
}

void MainWindow::runModel() {
  if (!document_) return;
  if (QDockWidget* dock = docks_->raise(runPanel()))
    resizeDocks({dock}, {std::max(dock->height(), height() * 2 / 5)}, Qt::Vertical);
  std::vector<std::shared_ptr<const Target>> targets{std::make_shared<const Target>(targetDocument_->target())};
  const Module* partitioned = reusablePartition(targets, partitionBar_->pipeline());
  runPanel()->run(std::move(targets), partitionBar_->pipeline(), partitioned ? std::optional<Module>(*partitioned) : std::nullopt);
}

ModuleExportJob* MainWindow::exportPartitionedModule(const QString& directory) {
  if (!document_) return nullptr;
  if (document_->exported) {
    diagnostics_->add(makeError("this is an export already: `byoc export " + document_->path.toStdString() +
                                " -o OUT` writes it again", {document_->path.toStdString()}));
    return nullptr;
  }
  std::vector<std::shared_ptr<const Target>> targets{std::make_shared<const Target>(targetDocument_->target())};
  const Module* partitioned = reusablePartition(targets, partitionBar_->pipeline());
  auto* job = new ModuleExportJob({document_->module, std::move(targets), partitionBar_->pipeline(), directory,
                                   QStringLiteral("byoc-studio ") + QCoreApplication::applicationVersion(),
                                   partitioned ? std::optional<Module>(*partitioned) : std::nullopt},
                                  this);
  connect(job, &ModuleExportJob::finished, this, [this, directory](bool ok, const Diagnostic& error) {
    if (ok) statusBar()->showMessage(tr("Wrote %1").arg(directory), 5000);
    else diagnostics_->add(error);
  });
  return job;
}

void MainWindow::keepPlaceForNextSteps() {
  const int shown = timeline()->currentStep();
  if (steps_->count() > 1 && steps_->contains(shown)) resumePass_ = shown == 0 ? QString() : steps_->steps()[shown].passName;
  else resumePass_.reset();
}

void MainWindow::showSteps(const std::vector<Snapshot>& computed) {
  const std::optional<QString> resume = std::exchange(resumePass_, std::nullopt);
  timelinePartition_ = std::exchange(pendingPartition_, {});
  std::vector<Snapshot> steps{{tr("loaded"), document_->module, false, 0}};
  steps.insert(steps.end(), computed.begin(), computed.end());
  setSnapshots(std::move(steps));
  int step = steps_->count() - 1;  // the result, unless the pass shown before is among the new steps
  if (resume && resume->isEmpty()) step = 0;
  for (int i = 1; resume && !resume->isEmpty() && i < steps_->count(); ++i) {
    if (steps_->steps()[i].passName != *resume) continue;
    step = i;
    break;
  }
  timeline()->setCurrentStep(step);
  statusBar()->clearMessage();
  emit stepsOpened();
}

void MainWindow::reportFailure(const QString& what, const Diagnostic& diagnostic) {
  diagnostics_->add(diagnostic);
  const QString message = QString::fromStdString(diagnostic.str());
  statusBar()->showMessage(what + QStringLiteral(": ") + message);
  docks_->raise(docks_->diagnosticsView());
  emit openFailed(message);
}

void MainWindow::adopt(ModelDocument document) {
  stepsJob_->discard();  // started for the model shown until now
  resumePass_.reset();
  tabs_->clear();
  diagnostics_->clear();
  document_ = std::make_unique<ModelDocument>(std::move(document));
  if (!document_->path.isEmpty()) recentFiles_->add(document_->path);
  updateTitle();
  opSupport_->setModule(document_->module);
  steps_->setSteps({});
  snapshots_->setSnapshots({});
  comparePanel()->clear();
  regions_->setOverlay({});
  properties_->setProperties({});
  moduleTree_->setModule(document_->module);
  docks_->moduleView()->expandAll();
  runPanel()->setModel(document_->module, document_->exported);
  if (!document_->entry) {
    reportFailure(tr("Nothing to show"), makeError("the model has no functions", {document_->path.toStdString(), 0, 0}));
    return;
  }
  centre_->setCurrentWidget(tabs_);
  tabs_->open(document_->entryGraph, document_->module.provenance(),
              document_->title + QStringLiteral(" · @") + document_->entryName);
  colourer_->setGraph(&mainPage()->model());
  onTabChanged();
  onStepChanged(timeline()->currentStep());
  if (document_->exported)
    statusBar()->showMessage(tr("Opened the export %1: %n region(s)", nullptr, regions_->rowCount()).arg(document_->path));
  emit opened();
}

void MainWindow::setWeightsAsNodes(bool asNodes) {
  graphOptions_.weightsAsNodes = asNodes;
  if (!document_ || !document_->entry) return;
  // The loaded graph is drawn anew; the steps and their overlays, mapped by origin, stay.
  document_->entryGraph = std::make_shared<const GraphModel>(GraphModel::build(
      document_->entry, document_->entryName, document_->module.provenance().get(), graphOptions_));
  tabs_->clear();
  tabs_->open(document_->entryGraph, document_->module.provenance(), document_->title + QStringLiteral(" · @") + document_->entryName);
  colourer_->setGraph(&mainPage()->model());
  onTabChanged();
  onStepChanged(timeline()->currentStep());
  updateComparisonSide();  // its nodes are those of the graph drawn before
}

GraphPage* MainWindow::mainPage() const { return tabs_->mainPage(); }

GraphPage* MainWindow::currentPage() const { return tabs_->currentPage(); }

int MainWindow::pageCount() const { return tabs_->count(); }

GraphPage* MainWindow::addPage(const Function& function, const QString& name, const QString& title,
                               std::shared_ptr<const TextLinks> text) {
  const std::shared_ptr<const Provenance>& provenance = document_->module.provenance();
  GraphPage* page = tabs_->open(std::make_shared<const GraphModel>(GraphModel::build(function, name, provenance.get(), graphOptions_)),
                                provenance, title, std::move(text));
  onTabChanged();
  return page;
}

const Module& MainWindow::currentModule() const {
  const int step = timeline()->currentStep();
  return steps_->contains(step) ? steps_->steps()[step].module : document_->module;
}

GraphPage* MainWindow::openFunctionTab(const QString& function) {
  if (!document_) return nullptr;
  const int step = timeline()->currentStep();
  QString title = (step > 0 ? QStringLiteral("Step %1 · @").arg(step) : QStringLiteral("@")) + function;
  // A dnnl region of an export is its kernel graph: drawn, and shown as the export writes it.
  auto kernelGraph = document_->kernelGraphTexts.find(function);
  if (kernelGraph != document_->kernelGraphTexts.end()) title += tr(" (kernel graph)");
  if (GraphPage* shown = tabs_->show(title)) return shown;
  if (kernelGraph != document_->kernelGraphTexts.end())
    return addPage(kernelGraphFunction(*document_->exported->kernelGraphs.at(function.toStdString())), function, title,
                   TextLinks::source(kernelGraph->second.toStdString(), Module()));
  Function found = currentModule().find(function.toStdString());
  return found ? addPage(found, function, title, TextLinks::printed(Expr(found))) : nullptr;
}

GraphPage* MainWindow::openStepTab(int step) {
  if (!steps_->contains(step)) return nullptr;
  const Snapshot& shown = steps_->steps()[step];
  QString name;
  Function entry = entryFunction(shown.module, &name);
  if (!entry) return nullptr;
  return addPage(entry, name, QStringLiteral("Step %1: %2").arg(step).arg(shown.passName), TextLinks::printed(shown.module));
}

GraphPage* MainWindow::activateNode(GraphPage* page, int node) {
  const std::string global = calledGlobal(page->model().nodes().at(node));
  return global.empty() ? nullptr : openFunctionTab(QString::fromStdString(global));
}

void MainWindow::setSnapshots(std::vector<Snapshot> snapshots) {
  hullNotes_.clear();  // they name functions of the earlier steps
  timeline()->setStale({});
  steps_->setSteps(snapshots);
  snapshots_->setSnapshots(std::move(snapshots));
  updateComparisonSide();
}

void MainWindow::updateComparisonSide() {
  if (!document_ || !document_->entryGraph || steps_->count() < 2) {
    comparePanel()->clear();
    return;
  }
  comparePanel()->setSideA({document_->module, document_->entryGraph,
                            tr("%1, %2 flow").arg(QString::fromStdString(targetDocument_->target().name), partitionBar_->pipeline()),
                            steps_->steps()});
}

void MainWindow::onStepChanged(int step) {
  GraphOverlay overlay;
  const bool known = steps_->contains(step);
  if (known && mainPage()) overlay = overlayForSnapshot(steps_->steps()[step].module, mainPage()->model());
  if (step <= 0 && document_ && document_->exported && mainPage()) {
    overlay = externalCallOverlay(document_->module, mainPage()->model());  // the export's regions
  } else if (step <= 0) {
    overlay.nodeTargets = colourer_->colours().nodeTargets;  // the edited target's support
  }
  overlay.hullNotes = hullNotes_;
  if (mainPage()) mainPage()->setOverlay(overlay);
  regions_->setOverlay(overlay, mainPage() ? &mainPage()->model() : nullptr,
                       document_ ? document_->module.provenance().get() : nullptr);
  docks_->regionView()->setColumnHidden(2, !regions_->hasTargets());  // room for the names
  if (document_) {
    moduleTree_->setModule(currentModule());
    docks_->moduleView()->expandAll();
  }
  showCurrentText();
  if (known) statusBar()->showMessage(tr("Step %1: %2").arg(step).arg(steps_->steps()[step].passName));
}

void MainWindow::selectRegion(const QModelIndex& row) {
  if (row.isValid()) selectNodes(row.data(RegionListModel::NodesRole).value<QList<int>>());
}

void MainWindow::selectNodes(const QList<int>& nodes) {
  if (!mainPage()) return;
  tabs_->setCurrentWidget(mainPage());
  mainPage()->selectNodes(std::vector<int>(nodes.begin(), nodes.end()));
}

void MainWindow::copySelectedNode() {
  GraphPage* page = currentPage();
  const int node = page ? page->scene()->selectedNode() : -1;
  if (node < 0 || node >= static_cast<int>(page->model().nodes().size())) return;
  QStringList lines;
  for (const auto& [name, value] : nodeProperties(page->model().nodes()[static_cast<std::size_t>(node)],
                                                  document_ ? document_->module.provenance().get() : nullptr))
    lines << name + QStringLiteral(": ") + value;
  QApplication::clipboard()->setText(lines.join(u'\n'));
}

void MainWindow::onNodeSelected(GraphPage* page, int node) {
  if (node < 0) {
    properties_->setProperties({});
    return;
  }
  const GraphNode& graphNode = page->model().nodes()[node];
  std::vector<Property> rows = nodeProperties(graphNode, document_ ? document_->module.provenance().get() : nullptr);
  if (document_ && document_->exported && page == mainPage()) {
    std::vector<Property> region = regionProperties(*document_->exported, graphNode);
    rows.insert(rows.end(), region.begin(), region.end());
  }
  properties_->setProperties(std::move(rows));
  if (followingText_ || page != currentPage() || !shownText_ || shownText_ != textOf(page)) return;
  if (std::optional<TextRange> range = shownText_->rangeOf(graphNode.expr)) irText()->showRange(*range);
}

void MainWindow::onTextLocation(int line, int column) {
  GraphPage* page = currentPage();
  if (!page || !shownText_) return;
  const int node = shownText_->graphNodeAt(page->model(), line, column);
  if (node < 0) return;
  followingText_ = true;
  page->scene()->selectNode(node);
  followingText_ = false;
  // A node in a collapsed group is selected once its group is open, which moves the text to it.
  if (!page->revealNode(node)) page->view()->revealNode(node);
}

std::shared_ptr<const TextLinks> MainWindow::textOf(const GraphPage* page) const {
  if (!page || !document_) return nullptr;
  if (page != mainPage()) return tabs_->textOf(page);
  const int step = timeline()->currentStep();
  return step > 0 && steps_->contains(step) ? steps_->text(step) : document_->text;
}

void MainWindow::showCurrentText() {
  GraphPage* page = currentPage();
  const int step = timeline()->currentStep();
  if (page && page == mainPage() && step > 0) steps_->print(step);
  std::shared_ptr<const TextLinks> text = textOf(page);
  if (text == shownText_) return;
  shownText_ = text;
  irText()->setIrText(text ? text->text() : QString());
  if (page) onNodeSelected(page, page->scene()->selectedNode());
}

void MainWindow::onTabChanged() {
  GraphPage* page = currentPage();
  showCurrentText();
  patternDock()->setPage(page);
  if (page) {
    showZoom(page->view()->zoom());
    onNodeSelected(page, page->scene()->selectedNode());
  }
}

void MainWindow::showZoom(qreal zoom) { zoomLabel_->setText(QStringLiteral("%1 %").arg(qRound(zoom * 100))); }

void MainWindow::setTheme(Theme theme) {
  theme_ = theme;
  applyTheme(*qApp, theme);
  QSettings().setValue(settingsKey("theme"), themeName(theme));
  irText()->setDarkColours(theme == Theme::Dark);
  patternDock()->setTheme(theme);
  runPanel()->setTheme(theme);
  tabs_->setTheme(theme);
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

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  if (!docksToFit_) return;
  docksToFit_ = false;
  // After the first layout pass: resizing docks before it is undone by it.
  QTimer::singleShot(0, this, [this] { docks_->fitTo(size()); });
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
