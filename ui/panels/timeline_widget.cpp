/// \file
/// TimelineWidget.

#include "panels/timeline_widget.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSlider>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include "models/snapshot_list_model.h"
#include "panels/row_table.h"

namespace byoc::ui {

TimelineWidget::TimelineWidget(SnapshotListModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  previous_ = new QToolButton(this);
  previous_->setArrowType(Qt::LeftArrow);
  previous_->setToolTip(tr("Previous step (Alt+Left)"));
  previous_->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Left));
  next_ = new QToolButton(this);
  next_->setArrowType(Qt::RightArrow);
  next_->setToolTip(tr("Next step (Alt+Right)"));
  next_->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Right));
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setTickPosition(QSlider::TicksBelow);
  slider_->setPageStep(1);
  caption_ = new QLabel(this);
  caption_->setMinimumWidth(160);
  list_ = makeRowTable(model_, this);
  list_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  list_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);

  auto* controls = new QHBoxLayout;
  controls->addWidget(previous_);
  controls->addWidget(slider_, 1);
  controls->addWidget(next_);
  controls->addWidget(caption_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(controls);
  layout->addWidget(list_, 1);

  connect(previous_, &QToolButton::clicked, this, [this] { setCurrentStep(current_ - 1); });
  connect(next_, &QToolButton::clicked, this, [this] { setCurrentStep(current_ + 1); });
  connect(slider_, &QSlider::valueChanged, this, &TimelineWidget::setCurrentStep);
  connect(list_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& index) { setCurrentStep(index.row()); });
  connect(list_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) { emit stepOpened(index.row()); });
  connect(model_, &QAbstractItemModel::modelReset, this, [this] {
    current_ = -1;
    setCurrentStep(model_->rowCount() > 0 ? 0 : -1);
    syncControls();
  });
  connect(model_, &QAbstractItemModel::rowsInserted, this, &TimelineWidget::syncControls);
  syncControls();
}

void TimelineWidget::setCurrentStep(int step) {
  const int count = model_->rowCount();
  step = count == 0 ? -1 : std::clamp(step, 0, count - 1);
  if (step == current_) return;
  current_ = step;
  syncControls();
  emit stepChanged(current_);
}

void TimelineWidget::syncControls() {
  const int count = model_->rowCount();
  QSignalBlocker blockSlider(slider_);
  slider_->setRange(0, std::max(0, count - 1));
  slider_->setValue(std::max(0, current_));
  slider_->setEnabled(count > 1);
  previous_->setEnabled(current_ > 0);
  next_->setEnabled(current_ >= 0 && current_ + 1 < count);
  if (current_ >= 0 && list_->currentIndex().row() != current_) {
    // Not blocked: the view must see the change to draw it (the echo is the step already current).
    list_->selectRow(current_);
    list_->scrollTo(model_->index(current_, 0));
  }
  const QString caption = current_ < 0 ? tr("No pass steps")
                                       : tr("Step %1 of %2: %3")
                                             .arg(current_)
                                             .arg(count - 1)
                                             .arg(model_->data(model_->index(current_, 1)).toString());
  caption_->setText(stale_.isEmpty() || current_ < 0 ? caption : caption + tr(" (out of date: %1)").arg(stale_));
  caption_->setToolTip(stale_.isEmpty() ? QString() : tr("These steps were made before %1; they are being made again.").arg(stale_));
}

void TimelineWidget::setStale(const QString& reason) {
  stale_ = reason;
  syncControls();
}

}  // namespace byoc::ui
