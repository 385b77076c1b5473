/// \file
/// The progress and cancellation instrument.

#include "pass/instruments/progress.h"

namespace byoc {

namespace {

class ProgressInstrument final : public PassInstrument {
 public:
  ProgressInstrument(PassProgressCallback progress, std::shared_ptr<const std::atomic<bool>> cancel)
      : progress_(std::move(progress)), cancel_(std::move(cancel)) {}
  std::string name() const override { return "Progress"; }

  void enterContext() override { depth_ = 0; }
  void beforePass(const Module& /*module*/, const PassInfo& info) override {
    if (progress_) progress_(info.name, depth_);
    ++depth_;
  }
  Status afterPass(const PassResult& /*result*/, const PassInfo& info) override {
    --depth_;
    if (cancel_ && cancel_->load()) return makeError("cancelled after " + info.name);
    return Status::ok();
  }
  void afterPassFailed(const Module&, const PassInfo&, const Diagnostic&) override { --depth_; }

 private:
  PassProgressCallback progress_;
  std::shared_ptr<const std::atomic<bool>> cancel_;
  int depth_ = 0;
};

}  // namespace

std::shared_ptr<PassInstrument> makeProgressInstrument(PassProgressCallback progress,
                                                       std::shared_ptr<const std::atomic<bool>> cancel) {
  return std::make_shared<ProgressInstrument>(std::move(progress), std::move(cancel));
}

}  // namespace byoc
