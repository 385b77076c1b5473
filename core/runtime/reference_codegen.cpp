/// \file
/// The `reference` codegen: a runtime module that interprets the region.

#include "runtime/interpreter.h"
#include "runtime/runtime_module.h"

namespace byoc {

namespace {

class ReferenceModule final : public RuntimeModule {
 public:
  ReferenceModule(const Function& function, std::string symbol) : symbol_(std::move(symbol)), interpreter_(makeModule(function, symbol_)) {}

  std::string_view codegen() const override { return "reference"; }
  bool has(std::string_view symbol) const override { return symbol == symbol_; }

  Status run(std::string_view symbol, std::span<const NDArray> inputs, std::span<const NDArray> outputs) override {
    if (symbol != symbol_) return makeError("reference module: unknown symbol " + std::string(symbol));
    const Function function = interpreter_.module().find(symbol_);
    std::vector<Value> args;
    std::size_t next = 0;
    for (const Var& param : function->params) {
      if (next >= inputs.size()) return makeError(symbol_ + ": too few inputs");
      args.push_back(assemble(param->type(), inputs, next));
    }
    BYOC_ASSIGN_OR_RETURN(Value result, interpreter_.call(symbol_, args));
    std::vector<NDArray> flat;
    if (!result.flattenInto(flat) || flat.size() != outputs.size())
      return makeError(symbol_ + ": the result does not match the declared outputs");
    for (std::size_t i = 0; i < flat.size(); ++i) outputs[i].copyFrom(flat[i]);
    return Status::ok();
  }

 private:
  static Module makeModule(const Function& function, const std::string& symbol) {
    Module module;
    module.set(symbol, function);
    return module;
  }

  std::string symbol_;
  Interpreter interpreter_;
};

}  // namespace

Codegen referenceCodegen() {
  return {"reference", "runs regions on the reference interpreter",
          [](const Function& function, const std::string& symbol,
             const CodegenOptions&) -> Result<std::unique_ptr<RuntimeModule>> {
            return std::unique_ptr<RuntimeModule>(std::make_unique<ReferenceModule>(function, symbol));
          }};
}

}  // namespace byoc
