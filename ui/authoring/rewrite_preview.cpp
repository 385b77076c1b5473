/// \file
/// RewritePreview: the replacement read against the pattern on each edit; the rewrite run by the
/// pass `byoc rewrite` runs, on a module holding only the previewed function.

#include "authoring/rewrite_preview.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "pass/pass_runner.h"
#include "pass/transforms/pattern_transforms.h"
#include "pattern/replacement.h"

namespace byoc::ui {

namespace {

/// The replacement `text` reads as for `pattern`.
Result<Replacement> readReplacement(const QString& text, const OwnedPattern& pattern) {
  return Replacement::parse(text.toStdString(), pattern.get(), "replacement");
}

/// `function` (named `name`) after the rewrite, and whether it changed.
Result<std::pair<Function, bool>> rewriteFunction(const Replacement& replacement, const Function& function,
                                                  const std::string& name, const CancelFlag& cancel) {
  Module module;
  module.set(name, function);
  PassRunOptions options;
  options.cancel = cancel;
  const PassPtr rewrite = createPatternRewritePass(replacement);
  BYOC_ASSIGN_OR_RETURN(PassRun run, runPasses({&rewrite, 1}, module, options));
  return std::pair{run.steps.back().module.find(name), run.steps.back().changed};
}

}  // namespace

RewritePreview::RewritePreview(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(3);
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel(tr("Replace with"), this));
  replacement_ = new QLineEdit(this);
  replacement_->setObjectName(QStringLiteral("rewriteReplacement"));
  replacement_->setPlaceholderText(tr("a replacement over the pattern's names, e.g. nn.relu(x)"));
  replacement_->setClearButtonEnabled(true);
  replacement_->setToolTip(tr("Every match of the pattern is replaced by this, until nothing changes, as byoc rewrite does"));
  row->addWidget(replacement_, 1);
  previewButton_ = new QPushButton(tr("Preview"), this);
  previewButton_->setToolTip(tr("Rewrite the function in front and draw the result in a tab of its own"));
  row->addWidget(previewButton_);
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  status_->hide();
  layout->addLayout(row);
  layout->addWidget(status_);
  connect(replacement_, &QLineEdit::textChanged, this, [this] {
    showsOutcome_ = false;
    check();
  });
  connect(replacement_, &QLineEdit::returnPressed, this, &RewritePreview::preview);
  connect(previewButton_, &QPushButton::clicked, this, &RewritePreview::preview);
  check();
}

void RewritePreview::setPattern(OwnedPattern pattern) {
  pattern_ = std::move(pattern);
  check();
}

void RewritePreview::setFunction(Function function, const QString& name) {
  function_ = std::move(function);
  name_ = name;
  check();
}

QString RewritePreview::statusText() const { return status_->isVisible() ? status_->text() : QString(); }

void RewritePreview::check() {
  const QString text = replacement_->text().trimmed();
  previewButton_->setEnabled(false);
  if (text.isEmpty() || !pattern_) {
    showsOutcome_ = false;
    setStatus({}, false);
    return;
  }
  Result<Replacement> replacement = readReplacement(text, pattern_);
  if (!replacement) {
    showsOutcome_ = false;
    setStatus(QString::fromStdString(replacement.error().str()), true);
    return;
  }
  previewButton_->setEnabled(static_cast<bool>(function_));
  if (!function_) {
    setStatus(tr("Open a model to preview the rewrite."), false);
  } else if (!showsOutcome_) {
    setStatus({}, false);
  }
}

bool RewritePreview::preview() {
  check();
  if (!previewButton_->isEnabled()) return false;
  Result<Replacement> replacement = readReplacement(replacement_->text().trimmed(), pattern_);
  setStatus(tr("Rewriting @%1…").arg(name_), false);
  const QString title = tr("Rewrite preview · @%1").arg(name_);
  // The worker holds the pattern too: its recursive parts live as long as one holder does.
  job_.start(
      [replacement = std::move(replacement).value(), pattern = pattern_, function = function_, name = name_.toStdString()](
          const JobControl& control) {
        (void)pattern;
        return rewriteFunction(replacement, function, name, control.cancelFlag());
      },
      [this, name = name_, title](Result<std::pair<Function, bool>> rewritten) {
        if (!rewritten) {
          showsOutcome_ = true;
          setStatus(QString::fromStdString(rewritten.error().str()), true);
          return;
        }
        showsOutcome_ = true;
        setStatus(rewritten->second ? tr("Rewritten until nothing changes: drawn in “%1”.").arg(title)
                                    : tr("Nothing to rewrite: the pattern matches nowhere in @%1.").arg(name),
                  false);
        if (rewritten->second) emit previewReady(rewritten->first, name, title);
      });
  return true;
}

void RewritePreview::setStatus(const QString& text, bool error) {
  status_->setText(text);
  status_->setStyleSheet(error ? QStringLiteral("color: #d32f2f") : QString());
  status_->setVisible(!text.isEmpty());
}

}  // namespace byoc::ui
