/// \file
/// The PrintIR instrument.

#include "pass/instruments/print_ir.h"

#include "text/printer.h"

namespace byoc {

namespace {

class PrintIr final : public PassInstrument {
 public:
  explicit PrintIr(std::ostream& out) : out_(out) {}
  std::string name() const override { return "PrintIR"; }

  void beforePass(const Module& module, const PassInfo& info) override {
    std::string required;
    for (const std::string& name : info.required) required += (required.empty() ? "" : ", ") + name;
    out_ << "Running pass: " << info.name << " (opt_level: " << info.optLevel << ", required passes: [" << required
         << "])\n";
    PrintOptions options;
    options.showTypes = true;
    options.showMetadata = false;
    std::string text = printModule(module, options);
    if (std::size_t header = text.find('\n'); text.starts_with("#[version") && header != std::string::npos)
      text.erase(0, header + 1);  // the seed's dumps show the functions only
    out_ << text << "\n";
  }

 private:
  std::ostream& out_;
};

}  // namespace

std::shared_ptr<PassInstrument> makePrintIrInstrument(std::ostream& out) { return std::make_shared<PrintIr>(out); }

}  // namespace byoc
