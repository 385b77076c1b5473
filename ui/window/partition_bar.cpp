/// \file
/// PartitionBar: the choosers and the Run Passes action.

#include "window/partition_bar.h"

#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QLabel>

#include "authoring/target_document.h"
#include "authoring/target_files.h"
#include "target/target_library.h"

namespace byoc::ui {

PartitionBar::PartitionBar(TargetDocument* document, TargetFiles* files, QWidget* parent)
    : QToolBar(tr("Partition"), parent), document_(document), files_(files) {
  setObjectName(QStringLiteral("partitionToolbar"));
  setMovable(false);
  addWidget(new QLabel(tr(" Target "), this));
  targetChooser_ = new QComboBox(this);
  targetChooser_->setObjectName(QStringLiteral("targetChooser"));
  targetChooser_->setToolTip(tr("The target whose patterns and rules are edited and partitioned for"));
  for (const std::string& name : builtinTargetNames()) targetChooser_->addItem(QString::fromStdString(name));
  targetChooser_->addItem(tr("Target file…"));
  connect(targetChooser_, &QComboBox::activated, this, &PartitionBar::choose);
  connect(document_, &TargetDocument::changed, this, &PartitionBar::showTarget);
  addWidget(targetChooser_);
  addWidget(new QLabel(tr(" Flow "), this));
  pipelineChooser_ = new QComboBox(this);
  pipelineChooser_->setObjectName(QStringLiteral("pipelineChooser"));
  pipelineChooser_->addItems({QStringLiteral("relay"), QStringLiteral("relax")});
  pipelineChooser_->setToolTip(tr("relay: MergeComposite → AnnotateTarget → MergeCompilerRegions → PartitionGraph\n"
                                  "relax: FuseOpsByPattern → MergeCompositeFunctions → RunCodegen"));
  addWidget(pipelineChooser_);
  QAction* run = addAction(tr("Run Passes"), this, &PartitionBar::runRequested);
  run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
  run->setToolTip(tr("Run the partitioning passes for the target and step through them in the timeline (Ctrl+R)"));
}

QString PartitionBar::pipeline() const { return pipelineChooser_->currentText(); }

void PartitionBar::setPipeline(const QString& pipeline) {
  if (int shown = pipelineChooser_->findText(pipeline); shown >= 0) pipelineChooser_->setCurrentIndex(shown);
}

void PartitionBar::choose(int index) {
  if (!files_->confirmReplace()) {
    showTarget();
    return;
  }
  QString chosen = targetChooser_->itemText(index);
  if (index == targetChooser_->count() - 1) {
    chosen = QFileDialog::getOpenFileName(this, tr("Open Target"), {}, tr("Target files (*.json)"));
    if (chosen.isEmpty()) {
      showTarget();
      return;
    }
  }
  if (Status loaded = document_->load(chosen); !loaded) emit failed(loaded.error());
}

void PartitionBar::showTarget() {
  const QString shown = document_->label();
  int index = targetChooser_->findText(shown);
  if (index < 0) {
    index = targetChooser_->count() - 1;  // before "Target file…"
    targetChooser_->insertItem(index, shown);
  }
  targetChooser_->setCurrentIndex(index);
}

}  // namespace byoc::ui
