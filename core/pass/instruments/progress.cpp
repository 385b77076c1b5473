/// \file
/// The progress instrument.

#include "pass/instruments/progress.h"

namespace byoc {

namespace {

class ProgressInstrument final : public PassInstrument {
 public:
  explicit ProgressInstrument(PassProgressCallback progress) : progress_(std::move(progress)) {}
  std::string name() const override { return "Progress"; }

  void enterContext() override { depth_ = 0; }
  void beforePass(const Module& /*module*/, const PassInfo& info) override { progress_(info.name, depth_++); }
  Status afterPass(const PassResult& /*result*/, const PassInfo& /*info*/) override {
    --depth_;
    return Status::ok();
  }
  void afterPassFailed(const Module&, const PassInfo&, const Diagnostic&) override { --depth_; }

 private:
  PassProgressCallback progress_;
  int depth_ = 0;
};

}  // namespace

std::shared_ptr<PassInstrument> makeProgressInstrument(PassProgressCallback progress) {
  return std::make_shared<ProgressInstrument>(std::move(progress));
}

}  // namespace byoc
