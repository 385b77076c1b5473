#include "run/run_panel.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QScrollArea>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

#include "run/latency_chart.h"
#include "run/run_inputs_model.h"
#include "run/run_results_model.h"
#include "panels/row_table.h"

namespace byoc::ui {

namespace {

/// Edits a seed with a spin box from 0 up.
class SeedDelegate : public QStyledItemDelegate {
 public:
  using QStyledItemDelegate::QStyledItemDelegate;
  QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex&) const override {
    auto* box = new QSpinBox(parent);
    box->setRange(0, 1'000'000);
    return box;
  }
};

}  // namespace

RunPanel::RunPanel(QWidget* parent) : QWidget(parent) {
  inputs_ = new RunInputsModel(this);
  results_ = new RunResultsModel(this);

  inputsView_ = makeRowTable(inputs_, this);
  inputsView_->setItemDelegateForColumn(RunInputsModel::SeedColumn, new SeedDelegate(inputsView_));
  inputsView_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                               QAbstractItemView::SelectedClicked);
  inputsView_->horizontalHeader()->setStretchLastSection(false);
  inputsView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  inputsView_->horizontalHeader()->setSectionResizeMode(RunInputsModel::TypeColumn, QHeaderView::Stretch);
  inputsView_->setTextElideMode(Qt::ElideMiddle);
  // A shape typed for a dynamic input is checked as it is committed; the reason it does not fit shows below.
  connect(inputs_, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex& from, const QModelIndex& to) {
    if (from.column() <= RunInputsModel::ShapeColumn && to.column() >= RunInputsModel::ShapeColumn)
      showInputMessage(inputs_->shapeProblem(from.row()));
  });
  auto* loadFile = new QPushButton(tr("Load .npy…"), this);
  loadFile->setToolTip(tr("Fill the selected input from a NumPy .npy file"));
  connect(loadFile, &QPushButton::clicked, this, &RunPanel::chooseInputFile);
  auto* random = new QPushButton(tr("Random"), this);
  random->setToolTip(tr("Fill the selected input with random values from its seed"));
  connect(random, &QPushButton::clicked, this, [this] {
    inputs_->setRandom(inputsView_->currentIndex().row());
    showInputMessage({});
  });
  inputMessage_ = new QLabel(this);
  inputMessage_->setWordWrap(true);
  inputMessage_->setStyleSheet(QStringLiteral("color: #c0392b"));
  inputMessage_->hide();
  timedRuns_ = new QSpinBox(this);
  timedRuns_->setRange(0, 1000);
  timedRuns_->setValue(5);
  timedRuns_->setPrefix(tr("timed runs: "));
  timedRuns_->setToolTip(tr("Runs timed after the first one, for the latency chart"));
  trustCompiled_ = new QCheckBox(tr("Trust compiled code"), this);
  trustCompiled_->setToolTip(tr("Run the export's compiled plugin files as they are. Unchecked, its plugin regions are compiled "
                                "again from their IR and the export's native code never runs: check it only for exports you trust"));
  trustCompiled_->hide();
  runButton_ = new QPushButton(tr("Run"), this);
  runButton_->setToolTip(tr("Partition for the target, run, and compare with the reference kernels"));
  connect(runButton_, &QPushButton::clicked, this, &RunPanel::runRequested);
  cancelButton_ = new QPushButton(tr("Cancel"), this);
  cancelButton_->setEnabled(false);
  connect(cancelButton_, &QPushButton::clicked, this, &RunPanel::cancel);
  progress_ = new QProgressBar(this);
  progress_->setTextVisible(true);
  progress_->setFormat(tr("idle"));
  progress_->setValue(0);

  auto* inputButtons = new QHBoxLayout;
  inputButtons->addWidget(loadFile);
  inputButtons->addWidget(random);
  inputButtons->addStretch();
  auto* runRow = new QHBoxLayout;
  runRow->addWidget(timedRuns_);
  runRow->addWidget(trustCompiled_);
  runRow->addWidget(runButton_);
  runRow->addWidget(cancelButton_);
  auto* left = new QWidget(this);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(inputsView_, 1);
  leftLayout->addLayout(inputButtons);
  leftLayout->addWidget(inputMessage_);
  leftLayout->addLayout(runRow);
  leftLayout->addWidget(progress_);

  verdict_ = new QLabel(tr("Press Run to run the model partitioned for the target and compare it with the reference."), this);
  verdict_->setWordWrap(true);
  verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  stale_ = new QLabel(this);
  stale_->setWordWrap(true);
  stale_->setStyleSheet(QStringLiteral("font-weight: bold"));
  stale_->hide();
  codegens_ = new QLabel(this);
  codegens_->setWordWrap(true);
  codegens_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  codegens_->hide();
  resultsView_ = makeRowTable(results_, this);
  resultsView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  resultsView_->horizontalHeader()->setSectionResizeMode(RunResultsModel::ValuesColumn, QHeaderView::Stretch);
  chart_ = new LatencyChart(this);
  auto* results = new QSplitter(Qt::Vertical, this);
  auto* top = new QWidget(results);
  auto* topLayout = new QVBoxLayout(top);
  topLayout->setContentsMargins(0, 0, 0, 0);
  topLayout->addWidget(stale_);
  topLayout->addWidget(verdict_);
  topLayout->addWidget(codegens_);
  topLayout->addWidget(resultsView_, 1);
  results->addWidget(top);
  auto* chartScroll = new QScrollArea(results);
  chartScroll->setWidget(chart_);
  chartScroll->setWidgetResizable(true);
  chartScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  chartScroll->setFrameShape(QFrame::NoFrame);
  results->addWidget(chartScroll);
  results->setStretchFactor(0, 1);
  results->setStretchFactor(1, 2);
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(left);
  splitter->addWidget(results);
  splitter->setStretchFactor(0, 2);
  splitter->setStretchFactor(1, 3);
  splitter->setSizes({380, 600});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(splitter);
  setRunning(false);
}

RunPanel::~RunPanel() = default;  // a worker still running stops at its next op

void RunPanel::setModel(const Module& loaded, std::shared_ptr<const LoadedExport> exported) {
  job_.discard();
  loaded_ = loaded;
  exported_ = std::move(exported);
  trustCompiled_->setChecked(false);
  trustCompiled_->setVisible(exported_ && !exported_->compiled.empty());
  lastReport_.reset();
  setStale({});
  codegens_->clear();
  codegens_->hide();
  runButton_->setToolTip(exported_ ? tr("Run the export as exported, each region on the codegen it records")
                                   : tr("Partition for the target, run, and compare with the reference kernels"));
  hasModel_ = true;
  setRunning(false);
  inputs_->setModule(loaded);
  // The shapes of static inputs are their types': the column is there when there is a shape to type.
  inputsView_->setColumnHidden(RunInputsModel::ShapeColumn, !inputs_->hasDynamicInputs());
  results_->clear();
  chart_->setTimings({});
  showInputMessage({});
  progress_->setValue(0);
  progress_->setFormat(tr("idle"));
  verdict_->setText(exported_ ? tr("Press Run to run the export, each region on the codegen it records.")
                              : tr("Press Run to run the model partitioned for the target and compare it with the reference."));
  emit regionNotesChanged({});
}

void RunPanel::setStale(const QString& reason) {
  if (!reason.isEmpty() && !lastReport_) return;
  stale_->setText(reason.isEmpty() ? QString() : tr("⚠ Out of date: %1 after this run. Press Run to run again.").arg(reason));
  stale_->setVisible(!reason.isEmpty());
}

QString RunPanel::staleNote() const { return stale_->text(); }

QString RunPanel::verdict() const { return verdict_->text(); }

QString RunPanel::codegens() const { return codegens_->text(); }

QString RunPanel::inputMessage() const { return inputMessage_->text(); }

Status RunPanel::loadInputFile(int row, const QString& path) {
  Status loaded = inputs_->setFile(row, path);
  showInputMessage(loaded ? QString() : QString::fromStdString(loaded.error().str()));
  if (!loaded) emit failed(loaded.error());
  return loaded;
}

void RunPanel::showInputMessage(const QString& message) {
  inputMessage_->setText(message);
  inputMessage_->setVisible(!message.isEmpty());
}

void RunPanel::chooseInputFile() {
  const int row = inputsView_->currentIndex().row();
  if (row < 0) {
    showInputMessage(tr("Select an input first."));
    return;
  }
  const QString path = QFileDialog::getOpenFileName(this, tr("Input from .npy"), {}, tr("NumPy arrays (*.npy)"));
  if (!path.isEmpty()) (void)loadInputFile(row, path);  // a refused file is shown under the inputs
}

void RunPanel::run(std::vector<std::shared_ptr<const Target>> targets, const QString& pipeline, std::optional<Module> partitioned) {
  if (!hasModel_ || job_.isRunning()) return;
  Result<std::map<std::string, NDArray>> tensors = inputs_->tensors();
  if (!tensors) {
    verdict_->setText(QString::fromStdString(tensors.error().str()));
    emit failed(tensors.error());
    emit finished(false);
    return;
  }
  RunRequest request{loaded_, std::move(targets), pipeline, std::move(tensors).value(), timedRuns_->value(), exported_,
                     trustCompiled_->isChecked(), std::move(partitioned)};
  setRunning(true);
  results_->clear();
  lastReport_.reset();
  setStale({});
  codegens_->hide();
  verdict_->setText(tr("Running…"));
  job_.start(
      [this, request = std::move(request)](const JobControl& control) {
        // The panel is touched only in posted calls, which run on its thread while it lives.
        auto progress = [this, control](int done, int total, const QString& stage) {
          control.post([this, done, total, stage] {
            progress_->setRange(0, total);
            progress_->setValue(done);
            progress_->setFormat(stage + QStringLiteral(" (%v/%m)"));
          });
        };
        return runAndCompare(request, control.cancelFlag().get(), progress);
      },
      [this](const Result<RunReport>& result) {
        setRunning(false);
        if (!result) {
          progress_->setFormat(tr("stopped"));
          verdict_->setText(QString::fromStdString(result.error().str()));
          emit failed(result.error());
          emit finished(false);
          return;
        }
        showReport(*result);
        emit finished(true);
      });
}

void RunPanel::cancel() { job_.cancel(); }

bool RunPanel::isRunning() const { return job_.isRunning(); }

void RunPanel::setTheme(Theme theme) { chart_->setTheme(theme); }

void RunPanel::showReport(const RunReport& report) {
  const ReferenceComparison& comparison = report.comparison;
  results_->setResults(report.outputs, comparison, report.notCompared.isEmpty());
  chart_->setTimings(report.timings);
  progress_->setValue(progress_->maximum());
  progress_->setFormat(tr("done"));
  const QString timing = report.timings.runs() > 0
                             ? tr(" Median %1 ms over %n timed run(s).", nullptr, report.timings.runs())
                                   .arg(report.timings.median(), 0, 'f', 2)
                             : QString();
  codegens_->setText(codegenSummary(report.regions));
  codegens_->show();
  const QString reference = report.reference.isEmpty()
                                ? QString()
                                : tr(" The reference is the model exported, %1, on the reference kernels.").arg(report.reference);
  int differingCalls = 0;
  QString firstDiffering;
  for (const RegionAgreement& region : comparison.regions) {
    if (region.worst.within) continue;
    if (differingCalls++ == 0) firstDiffering = QString::fromStdString(region.label);
  }
  double largestOutputError = 0;
  for (const Difference& difference : comparison.outputs) largestOutputError = std::max(largestOutputError, difference.maxAbsolute);
  if (!report.notCompared.isEmpty()) {
    verdict_->setText(tr("Ran the export.") + timing + u' ' + report.notCompared);
  } else if (differingCalls > 0) {
    verdict_->setText(tr("✘ %1 of %2 offloaded call(s) differ from the reference codegen on the inputs the run gave them, "
                         "first %3.")
                          .arg(differingCalls)
                          .arg(comparison.regions.size())
                          .arg(firstDiffering) +
                      timing + reference);
  } else if (comparison.agree() && comparison.quantized()) {
    verdict_->setText(tr("✔ Agrees with the reference call by call: each of %1 offloaded call(s) within two quantization "
                         "steps on its inputs. The outputs differ by up to %2, as later layers amplify rounding steps.")
                          .arg(comparison.regions.size())
                          .arg(largestOutputError, 0, 'g', 3) +
                      timing + reference);
  } else if (comparison.agree()) {
    verdict_->setText(tr("✔ Agrees with the reference: every output within 1e-3 + 1e-3·|reference|.") + timing + reference);
  } else if (!comparison.sameCount) {
    verdict_->setText(tr("✘ Differs from the reference: the run gave %n output(s), not as many as the reference.", nullptr,
                         static_cast<int>(report.outputs.size())));
  } else {
    int differing = 0;
    for (const Difference& difference : comparison.outputs) differing += difference.within ? 0 : 1;
    verdict_->setText(tr("✘ Differs from the reference: %1 of %2 output(s) beyond 1e-3 + 1e-3·|reference|.")
                          .arg(differing)
                          .arg(comparison.outputs.size()) +
                      timing + reference);
  }
  lastReport_ = std::make_unique<RunReport>(report);
  emit regionNotesChanged(regionTimeNotes(report.timings));
}

void RunPanel::setRunning(bool running) {
  runButton_->setEnabled(!running && hasModel_);
  cancelButton_->setEnabled(running);
  timedRuns_->setEnabled(!running);
  trustCompiled_->setEnabled(!running);
  inputsView_->setEnabled(!running);
}

}  // namespace byoc::ui
