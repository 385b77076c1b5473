/// \file
/// StepsJob: the worker, its progress in the status bar, and Cancel.

#include "window/steps_job.h"

#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QStatusBar>
#include <QStringList>

#include "session/partitioning.h"
#include "pass/partition/partition_flow.h"

namespace byoc::ui {

namespace {

/// How long the "cancelled" message stays, in milliseconds.
constexpr int kCancelledMessageMs = 5000;

/// The names of the passes that partition for `targets` with `pipeline`, in order (empty if the
/// flow cannot be built: the run then reports why).
std::vector<std::string> passNames(const std::vector<std::shared_ptr<const Target>>& targets, const QString& pipeline) {
  std::vector<std::string> names;
  Result<PartitionPipeline> flow = parsePartitionPipeline(pipeline.toStdString());
  if (!flow) return names;
  Result<std::vector<PassPtr>> steps = partitionSteps(targets, *flow);
  if (!steps) return names;
  for (const PassPtr& step : *steps) names.push_back(step->info().name);
  return names;
}

/// The progress callback of a partition run: each of `names` as it starts (nested passes are
/// skipped), posted to the GUI thread through `control`.
PassProgressCallback partitionProgress(const JobControl& control, const QString& targets, std::vector<std::string> names,
                                       const std::function<void(const QString&, int, int)>& show) {
  auto next = std::make_shared<std::size_t>(0);  // the worker's position in `names`
  return [control, targets, names = std::move(names), next, show](const std::string& pass, int /*depth*/) {
    for (std::size_t index = *next; index < names.size(); ++index) {
      if (names[index] != pass) continue;
      *next = index + 1;
      const int total = static_cast<int>(names.size());
      const QString text = QObject::tr("Partitioning for %1: %2 (%3 of %4)")
                               .arg(targets, QString::fromStdString(pass))
                               .arg(index + 1)
                               .arg(total);
      control.post([show, text, index, total] { show(text, static_cast<int>(index), total); });
      return;
    }
  };
}

}  // namespace

StepsJob::StepsJob(QStatusBar* bar, QWidget* window) : QObject(window), bar_(bar) {
  indicator_ = new QWidget(bar);
  auto* layout = new QHBoxLayout(indicator_);
  layout->setContentsMargins(0, 0, 0, 0);
  label_ = new QLabel(indicator_);
  progress_ = new QProgressBar(indicator_);
  progress_->setFixedWidth(120);
  progress_->setTextVisible(false);
  cancel_ = new QPushButton(tr("Cancel"), indicator_);
  cancel_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
  cancel_->setObjectName(QStringLiteral("cancelPartition"));
  cancel_->setToolTip(tr("Stop the passes and keep the steps shown (Esc)"));
  connect(cancel_, &QPushButton::clicked, this, &StepsJob::cancel);
  layout->addWidget(label_);
  layout->addWidget(progress_);
  layout->addWidget(cancel_);
  bar->addPermanentWidget(indicator_);
  escape_ = new QShortcut(QKeySequence(Qt::Key_Escape), window);
  connect(escape_, &QShortcut::activated, this, &StepsJob::cancel);
  setShown(false);
}

StepsJob::~StepsJob() = default;

void StepsJob::partition(const Module& loaded, std::vector<std::shared_ptr<const Target>> targets, const QString& pipeline) {
  QStringList names;
  for (const auto& target : targets) names << QString::fromStdString(target->name);
  const QString shown = names.join(QStringLiteral(", "));
  auto show = [this](const QString& text, int done, int total) { showProgress(text, done, total); };
  run(tr("Partitioning for %1 (%2)…").arg(shown, pipeline), tr("Partitioning cancelled"),
      [loaded, targets = std::move(targets), pipeline, shown, show](const JobControl& control) -> Result<std::vector<Snapshot>> {
          PassRunOptions options;
          options.progress = partitionProgress(control, shown, passNames(targets, pipeline), show);
          options.cancel = control.cancelFlag();
          BYOC_ASSIGN_OR_RETURN(PartitionPipeline flow, parsePartitionPipeline(pipeline.toStdString()));
          BYOC_ASSIGN_OR_RETURN(PassRun partitioned, partitionModel(loaded, {targets, flow}, options));
          return snapshotsOf(std::move(partitioned));
      });
}

void StepsJob::start(const QString& what, Work work) { run(what, tr("Cancelled"), std::move(work)); }

void StepsJob::run(const QString& what, const QString& cancelledMessage, Work work) {
  cancelledMessage_ = cancelledMessage;
  cancelRequested_ = false;
  showProgress(what, 0, 0);
  setShown(true);
  job_.start([work = std::move(work)](const JobControl& control) { return work(control); },
             [this](const Result<std::vector<Snapshot>>& steps) {
               setShown(false);
               if (cancelRequested_) {
                 bar_->showMessage(cancelledMessage_, kCancelledMessageMs);
                 emit cancelled();
               } else if (!steps) {
                 emit failed(steps.error());
               } else {
                 emit finished(*steps);
               }
             });
}

void StepsJob::cancel() {
  if (!job_.isRunning()) return;
  cancelRequested_ = true;
  cancel_->setEnabled(false);
  label_->setText(tr("Cancelling…"));
  job_.cancel();
}

void StepsJob::discard() {
  job_.discard();
  setShown(false);
}

QString StepsJob::progressText() const { return label_->text(); }

void StepsJob::showProgress(const QString& text, int done, int total) {
  if (cancelRequested_) return;  // "Cancelling…" stays
  label_->setText(text);
  progress_->setRange(0, total);
  progress_->setValue(done);
  emit progressed(text);
}

void StepsJob::setShown(bool shown) {
  indicator_->setVisible(shown);
  cancel_->setEnabled(shown);
  escape_->setEnabled(shown);
  if (!shown) label_->clear();
}

}  // namespace byoc::ui
