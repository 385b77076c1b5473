#include "compare/compare_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include "ir/function_attrs.h"
#include "session/partitioning.h"
#include "compare/comparison_model.h"
#include "overlay/comparison_overlay.h"
#include "panels/row_table.h"
#include "target/target_library.h"

namespace byoc::ui {

namespace {

const QStringList kPipelines = {QStringLiteral("relay"), QStringLiteral("relax")};

bool hasExternalFunction(const Module& module) {
  for (const auto& [name, function] : module.functions())
    if (function->attrs.contains(attr::kCompiler)) return true;
  return false;
}

/// Side B partitioned, or why not.
struct SideB {
  Module module;
  PartitionDiff diff;
};

}  // namespace

ComparePanel::ComparePanel(QWidget* parent)
    : QWidget(parent),
      chooser_(new QComboBox(this)),
      compareButton_(new QPushButton(tr("Compare"), this)),
      showOnGraph_(new QCheckBox(tr("Show on graph"), this)),
      summary_(new QLabel(this)),
      model_(new ComparisonModel(this)),
      table_(makeRowTable(model_, this)) {
  chooser_->setToolTip(tr("Side B: another target or flow, or an earlier step; side A is the last step of the timeline"));
  chooser_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  showOnGraph_->setChecked(true);
  showOnGraph_->setToolTip(tr("Tint the graph by side: offloaded on A only, on B only, on both alike or on both but placed differently; outline composites that differ"));
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // The difference and the counts read whole; the two sides share what is left.
  QHeaderView* header = table_->horizontalHeader();
  header->setStretchLastSection(false);
  for (int column : {0, 3}) header->setSectionResizeMode(column, QHeaderView::ResizeToContents);
  for (int column : {1, 2}) header->setSectionResizeMode(column, QHeaderView::Stretch);

  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Against:"), this));
  bar->addWidget(chooser_, 1);
  bar->addWidget(compareButton_);
  bar->addWidget(showOnGraph_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(bar);
  layout->addWidget(summary_);
  layout->addWidget(table_, 1);

  connect(compareButton_, &QPushButton::clicked, this, [this] { compareWith(chooser_->currentIndex()); });
  connect(showOnGraph_, &QCheckBox::toggled, this, &ComparePanel::publishOverlay);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
    if (current.isValid()) emit nodesChosen(current.data(ComparisonModel::NodesRole).value<QList<int>>());
  });
  clear();
}

ComparePanel::~ComparePanel() = default;

void ComparePanel::setSideA(ComparisonSideA side) {
  sideA_ = std::move(side);
  pipelineA_ = sideA_.description.contains(QStringLiteral("relax")) ? QStringLiteral("relax") : QStringLiteral("relay");
  forgetComparison();
  fillChooser();
  compareButton_->setEnabled(sideA_.graph && !sideA_.steps.empty());
  summary_->setText(tr("A: %1. Choose side B and press Compare.").arg(sideA_.description));
}

void ComparePanel::clear() {
  sideA_ = {};
  forgetComparison();
  fillChooser();
  compareButton_->setEnabled(false);
  summary_->setText(tr("Partition the model first: side A is the last step of the timeline."));
}

void ComparePanel::fillChooser() {
  const int previous = chooser_->currentIndex();
  chooser_->clear();
  choices_.clear();
  auto add = [this](const QString& text, Choice choice) {
    chooser_->addItem(text);
    choices_.push_back(std::move(choice));
  };
  for (const std::string& name : builtinTargetNames())
    for (const QString& pipeline : kPipelines)
      add(tr("%1, %2 flow").arg(QString::fromStdString(name), pipeline), {QString::fromStdString(name), pipeline});
  for (const QString& file : targetFiles_) add(tr("%1, %2 flow").arg(QFileInfo(file).fileName(), pipelineA_), {file, pipelineA_});
  for (std::size_t step = 1; step + 1 < sideA_.steps.size(); ++step)
    if (hasExternalFunction(sideA_.steps[step].module))
      add(tr("step %1: %2").arg(step).arg(sideA_.steps[step].passName), {{}, {}, static_cast<int>(step)});
  add(tr("Target file…"), {});
  if (previous >= 0 && previous < chooser_->count() - 1) chooser_->setCurrentIndex(previous);
}

int ComparePanel::addTargetChoice(const QString& path) {
  if (std::find(targetFiles_.begin(), targetFiles_.end(), path) == targetFiles_.end()) targetFiles_.push_back(path);
  fillChooser();
  for (std::size_t i = 0; i < choices_.size(); ++i)
    if (choices_[i].target == path) return static_cast<int>(i);
  return -1;
}

int ComparePanel::askForTargetFile() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Compare with a target"), {}, tr("Targets (*.json)"));
  return path.isEmpty() ? -1 : addTargetChoice(path);
}

void ComparePanel::compareWith(int index) {
  if (!sideA_.graph || sideA_.steps.empty() || index < 0 || index >= static_cast<int>(choices_.size())) return;
  Choice choice = choices_[index];
  if (choice.target.isEmpty() && choice.step < 0) {  // "Target file…"
    index = askForTargetFile();
    if (index < 0) return;
    choice = choices_[index];
  }
  chooser_->setCurrentIndex(index);
  forgetComparison();
  const QString description = chooser_->itemText(index);
  if (choice.step >= 0) {
    const Module& sideB = sideA_.steps[choice.step].module;
    showComparison(sideB, comparePartitionings(sideA_.loaded, sideA_.steps.back().module, sideB), description);
    return;
  }
  summary_->setText(tr("Partitioning side B: %1…").arg(description));
  compareButton_->setEnabled(false);
  const Module loaded = sideA_.loaded;
  const Module sideA = sideA_.steps.back().module;
  job_.start(
      [loaded, sideA, target = choice.target.toStdString(), pipeline = choice.pipeline](const JobControl& control) -> Result<SideB> {
        BYOC_ASSIGN_OR_RETURN(Target loadedTarget, openTarget(target));
        std::vector<std::shared_ptr<const Target>> targets{std::make_shared<const Target>(std::move(loadedTarget))};
        BYOC_ASSIGN_OR_RETURN(PartitionPipeline flow, parsePartitionPipeline(pipeline.toStdString()));
        BYOC_ASSIGN_OR_RETURN(PassRun run, partitionModel(loaded, {targets, flow}, {.cancel = control.cancelFlag()}));
        Module sideB = partitionedModule(run, loaded);
        PartitionDiff diff = comparePartitionings(loaded, sideA, sideB);
        return SideB{std::move(sideB), std::move(diff)};
      },
      [this, description](Result<SideB> sideB) {
        compareButton_->setEnabled(true);
        if (!sideB) {
          showError(QString::fromStdString(sideB.error().str()));
          return;
        }
        showComparison(sideB->module, std::move(sideB->diff), description);
      });
}

void ComparePanel::showComparison(const Module& sideB, PartitionDiff diff, const QString& description) {
  diff_ = std::move(diff);
  overlay_ = overlayForComparison(sideA_.steps.back().module, sideB, diff_, *sideA_.graph);
  model_->setComparison(diff_, *sideA_.graph);
  summary_->setText(tr("A: %1 · B: %2").arg(sideA_.description, description) + QStringLiteral("\n") +
                    tr("%1 of %2 op calls placed differently; %3 region groups and %4 composite groups differ.")
                        .arg(diff_.offload.size())
                        .arg(diff_.comparedCalls)
                        .arg(diff_.regions.size())
                        .arg(diff_.composites.size()));
  publishOverlay();
}

void ComparePanel::showError(const QString& message) {
  summary_->setText(tr("Side B failed: %1").arg(message));
}

void ComparePanel::forgetComparison() {
  job_.discard();
  const bool shown = !overlay_.empty();
  diff_ = {};
  overlay_ = {};
  model_->clear();
  if (shown) emit overlayChanged({});
}

void ComparePanel::publishOverlay() {
  if (overlay_.empty()) return;
  emit overlayChanged(showOnGraph_->isChecked() ? overlay_ : GraphOverlay{});
}

QString ComparePanel::summary() const { return summary_->text(); }

}  // namespace byoc::ui
