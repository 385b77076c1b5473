/// \file
/// PassSteps: the steps and their texts.

#include "window/pass_steps.h"

#include "panels/text_links.h"

namespace byoc::ui {

PassSteps::PassSteps(QObject* parent) : QObject(parent) {}

PassSteps::~PassSteps() = default;

void PassSteps::setSteps(std::vector<Snapshot> steps) {
  printJob_.discard();
  steps_ = std::move(steps);
  texts_.assign(steps_.size(), nullptr);
}

std::shared_ptr<const TextLinks> PassSteps::text(int step) const { return contains(step) ? texts_[step] : nullptr; }

void PassSteps::print(int step) {
  if (!contains(step) || texts_[step] || (printJob_.isRunning() && printing_ == step)) return;
  printing_ = step;
  printJob_.start([module = steps_[step].module] { return TextLinks::printed(module); },
                  [this, step](std::shared_ptr<const TextLinks> text) {
                    texts_[step] = std::move(text);
                    emit printed(step);
                  });
}

}  // namespace byoc::ui
