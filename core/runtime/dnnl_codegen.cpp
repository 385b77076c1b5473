/// \file
/// The `dnnl` codegen: the region's kernel graph compiled to oneDNN primitives, as a runtime module.

#include "runtime/dnnl/dnnl_module.h"
#include "runtime/dnnl/kernel_graph_builder.h"
#include "runtime/dnnl/kernel_rules.h"
#include "runtime/dnnl/region.h"

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

Result<std::unique_ptr<RuntimeModule>> dnnl_backend::buildDnnlModule(const kernel_graph::KernelGraph& graph,
                                                                     const std::string& symbol, const CodegenOptions& options) {
  BYOC_ASSIGN_OR_RETURN(std::unique_ptr<dnnl_backend::Region> region,
                        dnnl_backend::Region::build(graph, options.module, options.threads));
  return std::unique_ptr<RuntimeModule>(std::make_unique<DnnlModule>(symbol, std::move(region)));
}

Codegen dnnlCodegen() {
  return {"dnnl", "compiles regions to oneDNN primitives once, at load",
          [](const Function& function, const std::string& symbol,
             const CodegenOptions& options) -> Result<std::unique_ptr<RuntimeModule>> {
            BYOC_ASSIGN_OR_RETURN(kernel_graph::KernelGraph graph, dnnl_backend::buildKernelGraph(function, options.module));
            return dnnl_backend::buildDnnlModule(graph, symbol, options);
          },
          {},
          {},
          {},
          [](std::string_view name) -> Status {
            if (dnnl_backend::compositeKind(name)) return Status::ok();
            return makeError("the dnnl codegen builds no composite called '" + std::string(name) +
                             "': it reads the kernel from the name, <target>.<anchor>[_bias][_sum][_<post-op>] with the "
                             "anchor conv1d, conv2d, conv3d, deconv2d, deconv3d or dense (conv2d_bias_relu), or "
                             "<target>.gelu, layer_norm, scale_shift, scale_shift_relu, qnn.conv2d, qnn.dense, "
                             "qnn.conv2d_sum, qnn.dense_sum");
          },
          dnnl_backend::compositeKernelNames()};
}

}  // namespace byoc
