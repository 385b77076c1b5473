/// \file
/// The `dnnl` codegen: a runtime module holding one region compiled to oneDNN primitives.

#include "runtime/dnnl/region.h"
#include "runtime/runtime_module.h"

namespace byoc {

namespace {

class DnnlModule final : public RuntimeModule {
 public:
  DnnlModule(std::string symbol, std::unique_ptr<dnnl_backend::Region> region)
      : symbol_(std::move(symbol)), region_(std::move(region)) {}

  std::string_view codegen() const override { return "dnnl"; }
  bool has(std::string_view symbol) const override { return symbol == symbol_; }
  Status run(std::string_view symbol, std::span<const NDArray> inputs, std::span<const NDArray> outputs) override {
    if (symbol != symbol_) return makeError("dnnl module: unknown symbol " + std::string(symbol));
    return region_->run(inputs, outputs);
  }

 private:
  std::string symbol_;
  std::unique_ptr<dnnl_backend::Region> region_;
};

}  // namespace

Codegen dnnlCodegen() {
  return {"dnnl", "compiles regions to oneDNN primitives once, at load",
          [](const Function& function, const std::string& symbol,
             const CodegenOptions& options) -> Result<std::unique_ptr<RuntimeModule>> {
            BYOC_ASSIGN_OR_RETURN(std::unique_ptr<dnnl_backend::Region> region,
                                  dnnl_backend::Region::build(function, options.module, options.threads));
            return std::unique_ptr<RuntimeModule>(std::make_unique<DnnlModule>(symbol, std::move(region)));
          }};
}

}  // namespace byoc
