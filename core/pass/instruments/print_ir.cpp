/// \file
/// The PrintIR and IR dump instruments.

#include "pass/instruments/print_ir.h"

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

class IrDump final : public PassInstrument {
 public:
  IrDump(std::ostream& out, IrDumpFilter dumpAfter, PrintOptions options)
      : out_(out), dumpAfter_(std::move(dumpAfter)), options_(options) {}
  std::string name() const override { return "IRDump"; }

  Status afterPass(const PassResult& result, const PassInfo& info) override {
    if (dumpAfter_(info.name))
      out_ << "// -----// IR Dump After " << info.name << " //----- //\n" << printModule(result.module, options_) << "\n";
    return Status::ok();
  }

 private:
  std::ostream& out_;
  IrDumpFilter dumpAfter_;
  PrintOptions options_;
};

}  // namespace

std::shared_ptr<PassInstrument> makePrintIrInstrument(std::ostream& out) { return std::make_shared<PrintIr>(out); }

std::shared_ptr<PassInstrument> makeIrDumpInstrument(std::ostream& out, IrDumpFilter dumpAfter, PrintOptions options) {
  return std::make_shared<IrDump>(out, std::move(dumpAfter), options);
}

}  // namespace byoc
