#include <QtTest>

#include "pass/partition/partition_flow.h"
#include "pass/pass_runner.h"
#include "runtime/dnnl/kernel_rules.h"
#include "runtime/executor.h"
#include "runtime/runtime_module.h"
#include "target/target.h"
#include "runtime_test_util.h"
#include "test_files.h"

using namespace byoc;
using namespace byoc::testing;

namespace {

/// Runs @main of `module` with random inputs (seeded by position) twice with the regions of
/// `compiler` on the dnnl codegen (a region keeps state between runs: preset buffers, in-place
/// sums) and once with them on the reference codegen; returns the largest tolerance excess of
/// either dnnl run.
double dnnlVersusReference(const Module& module, std::string* error = nullptr, const std::string& compiler = "dnnl") {
  ExecutorOptions dnnlOptions, referenceOptions;
  dnnlOptions.codegens[compiler] = "dnnl";
  referenceOptions.codegens[compiler] = "reference";
  Result<std::unique_ptr<Executor>> dnnl = Executor::create(module, dnnlOptions);
  Result<std::unique_ptr<Executor>> reference = Executor::create(module, referenceOptions);
  if (!dnnl || !reference) {
    if (error) *error = (dnnl ? reference.error() : dnnl.error()).str();
    return 1e30;
  }
  std::vector<Value> args;
  unsigned seed = 100;
  for (const Var& param : (*dnnl)->inputs())
    args.push_back(randomTensorOf(*param->type()->as<TensorTypeNode>(), seed++));
  Result<Value> slow = (*reference)->run(args);
  double worst = 0;
  for (int run = 0; run < 2; ++run) {
    Result<Value> fast = (*dnnl)->run(args);
    if (!fast || !slow) {
      if (error) *error = (fast ? slow.error() : fast.error()).str();
      return 1e30;
    }
    std::vector<NDArray> a, b;
    fast->flattenInto(a);
    slow->flattenInto(b);
    if (a.size() != b.size()) return 1e30;
    for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, toleranceExcess(a[i], b[i]));
  }
  return worst;
}

/// `%N = fn (params, Composite=name) { body }; %N(args)` as one binding plus call.
std::string composite(const std::string& name, const std::string& params, const std::string& body, const std::string& args) {
  return "%100 = fn (" + params + ", Composite=\"" + name + "\") { " + body + " }; %100(" + args + ")";
}

const std::string kConvParams = "%x: Tensor[(1, 8, 10, 10), float32], %w: Tensor[(16, 8, 3, 3), float32], %b: Tensor[(16, 1, 1), float32]";
const std::string kConvInner =
    "%p0: Tensor[(1, 8, 10, 10), float32], %p1: Tensor[(16, 8, 3, 3), float32], %p2: Tensor[(16, 1, 1), float32]";
const std::string kConv = "%0 = nn.conv2d(%p0, %p1, padding=[1, 1, 1, 1], channels=16); %1 = add(%0, %p2);";
/// The parameters of a `_sum` composite around kConv: kConvInner and the residual.
std::string sumInnerDecl() { return kConvInner + ", %p3: Tensor[(1, 16, 10, 10), float32]"; }

}  // namespace

/// Each op and composite on oneDNN against the reference kernels, |a - b| <= 1e-4 + 1e-4 |b|.
class TestDnnl : public QObject {
  Q_OBJECT

 private slots:
  void regionMatchesReference_data() {
    QTest::addColumn<QString>("params");
    QTest::addColumn<QString>("body");
    auto row = [](const char* name, const std::string& params, const std::string& body) {
      QTest::newRow(name) << QString::fromStdString(params) << QString::fromStdString(body);
    };
    const std::string img = "%x: Tensor[(2, 8, 9, 9), float32]";
    row("conv2d", img + ", %w: Tensor[(16, 8, 3, 3), float32]", "nn.conv2d(%x, %w, padding=[1, 1, 1, 1])");
    row("conv2d winograd", "%x: Tensor[(1, 64, 14, 14), float32], %w: Tensor[(64, 64, 3, 3), float32]",
        "nn.conv2d(%x, %w, padding=[1, 1, 1, 1])");
    row("conv2d strided", img + ", %w: Tensor[(4, 8, 5, 5), float32]", "nn.conv2d(%x, %w, strides=[2, 2], padding=[2, 1, 2, 1])");
    row("conv2d dilated", img + ", %w: Tensor[(8, 8, 3, 3), float32]", "nn.conv2d(%x, %w, dilation=[2, 2], padding=[2, 2, 2, 2])");
    row("conv2d grouped", img + ", %w: Tensor[(12, 4, 3, 3), float32]", "nn.conv2d(%x, %w, padding=[1, 1, 1, 1], groups=2)");
    row("conv2d depthwise", img + ", %w: Tensor[(8, 1, 3, 3), float32]", "nn.conv2d(%x, %w, padding=[1, 1, 1, 1], groups=8)");
    row("deconv stride 2", img + ", %w: Tensor[(8, 4, 3, 3), float32]",
        "nn.conv2d_transpose(%x, %w, strides=[2, 2], padding=[1, 1, 1, 1], output_padding=[1, 1])");
    row("deconv grouped", img + ", %w: Tensor[(8, 3, 3, 3), float32]", "nn.conv2d_transpose(%x, %w, groups=2)");
    row("dense", "%x: Tensor[(4, 40), float32], %w: Tensor[(24, 40), float32]", "nn.dense(%x, %w)");
    row("dense 3-d", "%x: Tensor[(2, 3, 40), float32], %w: Tensor[(24, 40), float32]", "nn.dense(%x, %w)");
    row("batch_matmul", "%x: Tensor[(3, 5, 7), float32], %y: Tensor[(3, 6, 7), float32]", "nn.batch_matmul(%x, %y)");
    row("batch_matmul transposes", "%x: Tensor[(3, 7, 5), float32], %y: Tensor[(1, 7, 6), float32]",
        "nn.batch_matmul(%x, %y, transpose_a=True, transpose_b=False)");
    row("matmul", "%x: Tensor[(5, 7), float32], %y: Tensor[(6, 7), float32]", "nn.matmul(%x, %y, transpose_b=True)");
    row("max_pool", img, "nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])");
    row("max_pool ceil", img, "nn.max_pool2d(%x, pool_size=[2, 2], strides=[2, 2], ceil_mode=True)");
    row("avg_pool", img, "nn.avg_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])");
    row("avg_pool include pad", img,
        "nn.avg_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1], count_include_pad=True)");
    row("avg_pool ceil", img, "nn.avg_pool2d(%x, pool_size=[2, 2], strides=[2, 2], ceil_mode=True)");
    row("max_pool ceil 3x3", "%x: Tensor[(1, 8, 14, 14), float32]",
        "nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2], ceil_mode=True)");
    const std::string seq = "%x: Tensor[(2, 6, 11), float32]";
    row("conv1d", seq + ", %w: Tensor[(4, 6, 3), float32]", "nn.conv1d(%x, %w, strides=[2], padding=[1, 2])");
    row("conv1d grouped dilated", seq + ", %w: Tensor[(6, 2, 3), float32]", "nn.conv1d(%x, %w, dilation=[2], groups=3)");
    const std::string vol = "%x: Tensor[(1, 4, 5, 6, 7), float32]";
    row("conv3d", vol + ", %w: Tensor[(8, 4, 3, 3, 3), float32]", "nn.conv3d(%x, %w, padding=[1, 1, 1, 1, 1, 1])");
    row("conv3d strided grouped", vol + ", %w: Tensor[(6, 2, 2, 3, 2), float32]",
        "nn.conv3d(%x, %w, strides=[2, 1, 2], padding=[0, 1, 0, 1, 0, 1], groups=2)");
    row("conv3d_transpose", vol + ", %w: Tensor[(4, 3, 2, 2, 2), float32]",
        "nn.conv3d_transpose(%x, %w, strides=[2, 2, 2], padding=[1, 0, 1, 1, 0, 1], output_padding=[1, 0, 1])");
    row("gelu", img, "nn.gelu(%x)");
    row("global avg pool 1-d", seq, "nn.adaptive_avg_pool1d(%x, output_size=[1])");
    row("global max pool 3-d", "%x: Tensor[(1, 4, 5, 6, 7), float32]", "nn.adaptive_max_pool3d(%x, output_size=[1, 1, 1])");
    row("conv1d_transpose", seq + ", %w: Tensor[(6, 2, 3), float32]",
        "nn.conv1d_transpose(%x, %w, strides=[2], padding=[1, 0], output_padding=[1], groups=3)");
    row("conv3d_transpose grouped", vol + ", %w: Tensor[(4, 3, 3, 3, 3), float32]", "nn.conv3d_transpose(%x, %w, groups=2)");
    row("max_pool1d", seq, "nn.max_pool1d(%x, pool_size=[3], strides=[2], padding=[1, 0], ceil_mode=True)");
    row("avg_pool1d", seq, "nn.avg_pool1d(%x, pool_size=[2], padding=[1, 1], count_include_pad=True)");
    row("max_pool3d", vol, "nn.max_pool3d(%x, pool_size=[2, 3, 2], strides=[2, 2, 2], padding=[1, 1, 1, 0, 1, 0])");
    row("max_pool3d ceil", vol, "nn.max_pool3d(%x, pool_size=[2, 2, 2], strides=[2, 2, 2], ceil_mode=True)");
    row("avg_pool3d", vol, "nn.avg_pool3d(%x, pool_size=[3, 3, 3], strides=[2, 2, 2], padding=[1, 1, 1, 1, 1, 1])");
    row("avg_pool3d include pad", vol,
        "nn.avg_pool3d(%x, pool_size=[3, 3, 3], strides=[2, 2, 2], padding=[1, 1, 1, 1, 1, 1], count_include_pad=True)");
    row("pad", img, "nn.pad(%x, 0.5f, pad_width=[[0, 0], [1, 0], [1, 2], [2, 0]])");
    row("pad blocked input", img + ", %w: Tensor[(16, 8, 3, 3), float32]",
        "%0 = nn.conv2d(%x, %w); %1 = nn.pad(%0, 0f, pad_width=[[0, 0], [0, 0], [1, 1], [1, 1]]);"
        " nn.avg_pool2d(%1, pool_size=[3, 3], count_include_pad=True)");
    row("pad by nothing", img, "%0 = nn.pad(%x, 0f, pad_width=[[0, 0], [0, 0], [0, 0], [0, 0]]); %1 = nn.relu(%0); add(%1, %0)");
    row("pad as a residual", "%x: Tensor[(1, 16, 8, 8), float32], %y: Tensor[(1, 8, 10, 10), float32], %w: Tensor[(16, 8, 3, 3), float32], %b: Tensor[(16, 1, 1), float32]",
        "%7 = nn.pad(%x, 0.5f, pad_width=[[0, 0], [0, 0], [1, 1], [1, 1]]); " +
            composite("dnnl.conv2d_bias_sum", sumInnerDecl(), kConv + " add(%1, %p3)", "%y, %w, %b, %7"));
    row("strided_slice", "%x: Tensor[(4, 1, 24), float32]", "strided_slice(%x, begin=[8], end=[16], strides=[1], axes=[2])");
    row("strided_slice negative begin", img, "strided_slice(%x, begin=[1, -5], end=[7, 9])");
    row("strided_slice blocked input", img + ", %w: Tensor[(16, 8, 3, 3), float32]",
        "%0 = nn.conv2d(%x, %w); strided_slice(%0, begin=[0, 4, 1], end=[2, 12, 6], slice_mode=\"end\")");
    row("global_avg_pool", img, "nn.global_avg_pool2d(%x)");
    row("global_max_pool", img, "nn.global_max_pool2d(%x)");
    row("adaptive_avg_pool 1x1", img, "nn.adaptive_avg_pool2d(%x, output_size=[1, 1])");
    row("batch_norm", img + ", %g: Tensor[(8), float32], %b: Tensor[(8), float32], %m: Tensor[(8), float32], %v: Tensor[(8), float32]",
        "%0 = abs(%v); %1 = nn.batch_norm(%x, %g, %b, %m, %0); %1.0");
    row("layer_norm", "%x: Tensor[(4, 16), float32], %g: Tensor[(16), float32], %b: Tensor[(16), float32]",
        "nn.layer_norm(%x, %g, %b)");
    row("softmax", "%x: Tensor[(4, 16), float32]", "nn.softmax(%x)");
    row("softmax channels", img, "nn.softmax(%x, axis=1)");
    row("log_softmax", "%x: Tensor[(4, 16), float32]", "nn.log_softmax(%x)");
    for (const char* op : {"nn.relu", "tanh", "sigmoid", "abs", "exp", "round", "negative", "copy"})
      row(op, img, std::string(op) + "(%x)");
    row("leaky_relu", img, "nn.leaky_relu(%x, alpha=0.2f)");
    row("clip", img, "clip(%x, a_min=-0.5f, a_max=0.25f)");
    row("sqrt", img, "%0 = abs(%x); sqrt(%0)");
    row("log", img, "%0 = exp(%x); log(%0)");
    const std::string two = img + ", %y: Tensor[(2, 8, 9, 9), float32]";
    for (const char* op : {"add", "multiply", "subtract", "maximum", "minimum"})
      row(op, two, std::string(op) + "(%x, %y)");
    row("divide", two, "%0 = exp(%y); divide(%x, %0)");
    row("bias_add", img + ", %y: Tensor[(8), float32]", "nn.bias_add(%x, %y)");
    row("bias_add last axis", "%x: Tensor[(4, 6), float32], %y: Tensor[(6), float32]", "nn.bias_add(%x, %y, axis=-1)");
    row("reshape views", img + ", %w: Tensor[(16, 8, 3, 3), float32], %v: Tensor[(10, 1296), float32]",
        "%0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]); %1 = reshape(%0, newshape=[2, -1]); %2 = nn.batch_flatten(%0);"
        " %3 = add(%1, %2); %4 = expand_dims(%3, axis=0); %5 = squeeze(%4, axis=[0]); nn.dense(%5, %v)");
    row("transpose", "%x: Tensor[(2, 3, 4, 5), float32]", "transpose(%x, axes=[0, 2, 3, 1])");
    row("transpose blocked input", img + ", %w: Tensor[(16, 8, 3, 3), float32]",
        "%0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]); transpose(%0)");
    row("add channel broadcast", img + ", %y: Tensor[(8, 1, 1), float32]", "add(%x, %y)");
    row("multiply scalar broadcast", img + ", %y: float32", "multiply(%x, %y)");
    row("add broadcast first operand", img + ", %y: Tensor[(8, 1, 1), float32]", "add(%y, %x)");
    // Operands of lower rank whose shape is the output's without its leading 1s (a decoder's
    // position embedding added to a batch of one), either way round.
    row("add lower rank, same elements", "%x: Tensor[(1, 6, 8), float32], %y: Tensor[(6, 8), float32]", "add(%x, %y)");
    row("add lower rank first, same elements", "%x: Tensor[(1, 6, 8), float32], %y: Tensor[(6, 8), float32]", "add(%y, %x)");
    row("multiply lower rank broadcast", "%x: Tensor[(2, 6, 8), float32], %y: Tensor[(6, 8), float32]", "multiply(%x, %y)");
    row("concatenate blocked", img + ", %w: Tensor[(16, 8, 3, 3), float32], %v: Tensor[(8, 8, 1, 1), float32]",
        "%0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]); %1 = nn.conv2d(%x, %v); concatenate((%0, %1), axis=1)");
    row("blocked chain", img + ", %w: Tensor[(16, 8, 3, 3), float32], %v: Tensor[(16, 16, 1, 1), float32], %y: Tensor[(16, 1, 1), float32]",
        "%0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]); %1 = nn.relu(%0); %2 = nn.max_pool2d(%1, pool_size=[2, 2], strides=[2, 2]);"
        " %3 = nn.conv2d(%2, %v); %4 = add(%3, %y); %5 = add(%4, %2); nn.softmax(%5, axis=1)");
    row("tuple results", img + ", %w: Tensor[(16, 8, 3, 3), float32]",
        "%0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]); %1 = nn.relu(%0); (%1, %0)");

    // Composites, lowered to one primitive with post-ops.
    for (const char* tail : {"relu", "tanh", "sigmoid"})
      row((std::string("conv2d_bias_") + tail).c_str(), kConvParams,
          composite(std::string("dnnl.conv2d_bias_") + tail, kConvInner, kConv + " " + (std::string(tail) == "relu" ? "nn.relu" : tail) + "(%1)", "%x, %w, %b"));
    row("conv2d_bias", kConvParams, composite("dnnl.conv2d_bias", kConvInner, kConv + " %1", "%x, %w, %b"));
    row("conv2d_relu", "%x: Tensor[(1, 8, 10, 10), float32], %w: Tensor[(16, 8, 3, 3), float32]",
        composite("dnnl.conv2d_relu", "%p0: Tensor[(1, 8, 10, 10), float32], %p1: Tensor[(16, 8, 3, 3), float32]",
                  "%0 = nn.conv2d(%p0, %p1, padding=[1, 1, 1, 1]); nn.relu(%0)", "%x, %w"));
    row("conv2d_bias_clip", kConvParams,
        composite("dnnl.conv2d_bias_clip", kConvInner, kConv + " clip(%1, a_min=0f, a_max=6f)", "%x, %w, %b"));
    row("conv2d_bias_gelu", kConvParams,
        composite("dnnl.conv2d_bias_gelu", kConvInner,
                  kConv + " %2 = divide(%1, 1.41421f); %3 = erf(%2); %4 = add(%3, 1f); %5 = multiply(%1, %4); multiply(%5, 0.5f)",
                  "%x, %w, %b"));
    row("conv2d_bias_swish", kConvParams,
        composite("dnnl.conv2d_bias_swish", kConvInner, kConv + " %2 = sigmoid(%1); multiply(%1, %2)", "%x, %w, %b"));
    // Swish runs as a host loop after the primitive: on a residual summed in place, on a dense
    // result, on a conv3d's; followed by another activation it stays oneDNN's post-op.
    row("conv2d_bias_sum_swish in place", kConvParams + ", %v: Tensor[(16, 8, 3, 3), float32]",
        "%7 = nn.conv2d(%x, %v, padding=[1, 1, 1, 1]); %8 = nn.relu(%7); " +
            composite("dnnl.conv2d_bias_sum_swish", sumInnerDecl(), kConv + " %2 = add(%1, %p3); %3 = sigmoid(%2); multiply(%2, %3)",
                      "%x, %w, %b, %8"));
    row("dense_bias_swish", "%x: Tensor[(4, 40), float32], %w: Tensor[(24, 40), float32], %b: Tensor[(24), float32]",
        composite("dnnl.dense_bias_swish", "%p0: Tensor[(4, 40), float32], %p1: Tensor[(24, 40), float32], %p2: Tensor[(24), float32]",
                  "%0 = nn.dense(%p0, %p1); %1 = add(%0, %p2); %2 = sigmoid(%1); multiply(%1, %2)", "%x, %w, %b"));
    row("conv3d_swish", "%x: Tensor[(1, 4, 5, 6, 7), float32], %w: Tensor[(20, 4, 3, 3, 3), float32]",
        composite("dnnl.conv3d_swish", "%p0: Tensor[(1, 4, 5, 6, 7), float32], %p1: Tensor[(20, 4, 3, 3, 3), float32]",
                  "%0 = nn.conv3d(%p0, %p1); %1 = sigmoid(%0); multiply(%0, %1)", "%x, %w"));
    row("conv2d_bias_swish_gelu", kConvParams,
        composite("dnnl.conv2d_bias_swish_gelu", kConvInner,
                  kConv + " %2 = sigmoid(%1); %3 = multiply(%1, %2); %4 = divide(%3, 1.41421f); %5 = erf(%4); %6 = add(%5, 1f); "
                          "%7 = multiply(%3, %6); multiply(%7, 0.5f)",
                  "%x, %w, %b"));
    // A zero pad that average pools take over (pad_folding.h), and pads they do not.
    const std::string padded = "%0 = nn.pad(%x, 0f, pad_width=[[0, 0], [0, 0], [1, 2], [2, 1]]); ";
    row("pad folded into avg_pool2d", img, padded + "nn.avg_pool2d(%0, pool_size=[3, 4])");
    row("pad folded into avg_pool2d counting its padding", img,
        padded + "nn.avg_pool2d(%0, pool_size=[5, 5], strides=[2, 2], padding=[1, 1, 2, 2], count_include_pad=True)");
    row("pad folded into two pools", img,
        padded + "%1 = nn.avg_pool2d(%0, pool_size=[3, 3]); %2 = nn.avg_pool2d(%0, pool_size=[2, 2], strides=[2, 2]); (%1, %2)");
    row("pad by nothing folded into avg_pool2d", img,
        "%0 = nn.pad(%x, 0f, pad_width=[[0, 0], [0, 0], [0, 0], [0, 0]]); nn.avg_pool2d(%0, pool_size=[2, 2], strides=[2, 2])");
    row("pad kept for a pool not counting padding", img, padded + "nn.avg_pool2d(%0, pool_size=[3, 3], padding=[1, 1, 1, 1])");
    row("pad kept for another reader", img, padded + "%1 = nn.avg_pool2d(%0, pool_size=[3, 3]); %2 = nn.relu(%0); (%1, %2)");
    row("conv2d_bias_mish", kConvParams,
        composite("dnnl.conv2d_bias_mish", kConvInner,
                  kConv + " %2 = exp(%1); %3 = add(%2, 1f); %4 = log(%3); %5 = tanh(%4); multiply(%1, %5)", "%x, %w, %b"));
    row("conv2d_bias_sum_relu winograd",
        "%x: Tensor[(1, 64, 14, 14), float32], %w: Tensor[(96, 64, 3, 3), float32], %b: Tensor[(96, 1, 1), float32], "
        "%s: Tensor[(1, 96, 14, 14), float32]",
        composite("dnnl.conv2d_bias_sum_relu",
                  "%p0: Tensor[(1, 64, 14, 14), float32], %p1: Tensor[(96, 64, 3, 3), float32], "
                  "%p2: Tensor[(96, 1, 1), float32], %p3: Tensor[(1, 96, 14, 14), float32]",
                  "%0 = nn.conv2d(%p0, %p1, padding=[1, 1, 1, 1]); %1 = add(%0, %p2); %2 = add(%1, %p3); nn.relu(%2)",
                  "%x, %w, %b, %s"));
    const std::string sumParams = kConvParams + ", %s: Tensor[(1, 16, 10, 10), float32]";
    const std::string sumInner = sumInnerDecl();
    row("conv2d_bias_sum_relu", sumParams,
        composite("dnnl.conv2d_bias_sum_relu", sumInner, kConv + " %2 = add(%1, %p3); nn.relu(%2)", "%x, %w, %b, %s"));
    row("conv2d_bias_sum in place", kConvParams + ", %v: Tensor[(16, 8, 3, 3), float32]",
        "%7 = nn.conv2d(%x, %v, padding=[1, 1, 1, 1]); %8 = nn.relu(%7); " +
            composite("dnnl.conv2d_bias_sum_relu", sumInner, kConv + " %2 = add(%1, %p3); nn.relu(%2)", "%x, %w, %b, %8"));
    row("conv2d_bias_sum residual is a view", kConvParams + ", %v: Tensor[(16, 8, 3, 3), float32]",
        "%7 = nn.conv2d(%x, %v, padding=[1, 1, 1, 1]); %8 = reshape(%7, newshape=[1, 16, 10, 10]); %100 = fn (" + sumInner +
            ", Composite=\"dnnl.conv2d_bias_sum\") { " + kConv + " add(%1, %p3) }; %9 = %100(%x, %w, %b, %8); add(%9, %7)");
    row("conv2d_bias_sum residual read later", kConvParams + ", %v: Tensor[(16, 8, 3, 3), float32]",
        "%7 = nn.conv2d(%x, %v, padding=[1, 1, 1, 1]); %8 = nn.relu(%7); %100 = fn (" + sumInner +
            ", Composite=\"dnnl.conv2d_bias_sum\") { " + kConv + " add(%1, %p3) }; %9 = %100(%x, %w, %b, %8); add(%9, %8)");
    const std::string reader = kConvParams + ", %v: Tensor[(16, 8, 3, 3), float32], %u: Tensor[(8, 16, 3, 3), float32]";
    row("conv2d_bias_sum residual read earlier", reader,
        "%7 = nn.conv2d(%x, %v, padding=[1, 1, 1, 1]); %8 = nn.relu(%7); %9 = nn.conv2d(%8, %u, padding=[1, 1, 1, 1]); " +
            composite("dnnl.conv2d_bias_sum_relu", sumInner, kConv + " %2 = add(%1, %p3); nn.relu(%2)", "%9, %w, %b, %8"));
    row("conv2d_bias_sum residual aliased earlier", reader,
        "%7 = nn.conv2d(%x, %v, padding=[1, 1, 1, 1]); %8 = nn.relu(%7); %10 = (%8,); %11 = %10.0; %100 = fn (" +
            sumInner + ", Composite=\"dnnl.conv2d_bias_sum\") { " + kConv +
            " add(%1, %p3) }; %9 = %100(%x, %w, %b, %8); add(%11, %9)");
    row("conv2d_bias_sum", sumParams, composite("dnnl.conv2d_bias_sum", sumInner, kConv + " add(%1, %p3)", "%x, %w, %b, %s"));
    row("deconv2d_bias_relu", "%x: Tensor[(1, 8, 5, 5), float32], %w: Tensor[(8, 6, 3, 3), float32], %b: Tensor[(6, 1, 1), float32]",
        composite("dnnl.deconv2d_bias_relu",
                  "%p0: Tensor[(1, 8, 5, 5), float32], %p1: Tensor[(8, 6, 3, 3), float32], %p2: Tensor[(6, 1, 1), float32]",
                  "%0 = nn.conv2d_transpose(%p0, %p1, strides=[2, 2]); %1 = add(%0, %p2); nn.relu(%1)", "%x, %w, %b"));
    row("layer_norm composite", "%x: Tensor[(6, 1, 32), float32]",
        composite("dnnl.layer_norm", "%p0: Tensor[(6, 1, 32), float32]",
                  "%0 = mean(%p0, axis=[-1], keepdims=True); %1 = subtract(%p0, %0); %2 = power(%1, 2f);"
                  " %3 = mean(%2, axis=[-1], keepdims=True); %4 = add(%3, 1e-05f); %5 = sqrt(%4); divide(%1, %5)",
                  "%x"));
    row("gelu composite", img,
        composite("dnnl.gelu", "%p0: Tensor[(2, 8, 9, 9), float32]",
                  "%0 = divide(%p0, 1.4142135f); %1 = erf(%0); %2 = add(%1, 1f); %3 = multiply(%p0, %2); multiply(%3, 0.5f)", "%x"));
    const std::string perChannel = img + ", %s: Tensor[(8, 1, 1), float32], %t: Tensor[(1, 8, 1, 1), float32]";
    const std::string perChannelInner =
        "%p0: Tensor[(2, 8, 9, 9), float32], %p1: Tensor[(8, 1, 1), float32], %p2: Tensor[(1, 8, 1, 1), float32]";
    row("scale_shift", perChannel,
        composite("dnnl.scale_shift", perChannelInner, "%0 = multiply(%p0, %p1); add(%0, %p2)", "%x, %s, %t"));
    row("scale_shift_relu", perChannel,
        composite("dnnl.scale_shift_relu", perChannelInner, "%0 = multiply(%p0, %p1); %1 = add(%0, %p2); nn.relu(%1)", "%x, %s, %t"));
    row("scale_shift_relu blocked input", perChannel + ", %w: Tensor[(8, 8, 3, 3), float32]",
        "%7 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]); " +
            composite("dnnl.scale_shift_relu", perChannelInner, "%0 = multiply(%p0, %p1); %1 = add(%0, %p2); nn.relu(%1)", "%7, %s, %t"));
    const std::string denseParams = "%x: Tensor[(4, 40), float32], %w: Tensor[(24, 40), float32], %b: Tensor[(24), float32]";
    const std::string denseInner = "%p0: Tensor[(4, 40), float32], %p1: Tensor[(24, 40), float32], %p2: Tensor[(24), float32]";
    row("dense_bias_relu", denseParams,
        composite("dnnl.dense_bias_relu", denseInner, "%0 = nn.dense(%p0, %p1); %1 = add(%0, %p2); nn.relu(%1)", "%x, %w, %b"));
    // TVM's patterns match add either way round: the bias may come first (as after
    // RewriteDenseBiasGeluReshapeLast), the residual too.
    row("dense_bias_gelu bias first", denseParams,
        composite("dnnl.dense_bias_gelu", denseInner,
                  "%0 = nn.dense(%p0, %p1); %1 = add(%p2, %0); %2 = divide(%1, 1.41421f); %3 = erf(%2); %4 = add(%3, 1f); "
                  "%5 = multiply(%1, %4); multiply(%5, 0.5f)",
                  "%x, %w, %b"));
    row("dense_bias_sum residual first", denseParams + ", %s: Tensor[(4, 24), float32]",
        composite("dnnl.dense_bias_sum", denseInner + ", %p3: Tensor[(4, 24), float32]",
                  "%0 = nn.dense(%p0, %p1); %1 = add(%p2, %0); add(%p3, %1)", "%x, %w, %b, %s"));
    row("dense_gelu", "%x: Tensor[(4, 40), float32], %w: Tensor[(24, 40), float32]",
        composite("dnnl.dense_gelu", "%p0: Tensor[(4, 40), float32], %p1: Tensor[(24, 40), float32]",
                  "%0 = nn.dense(%p0, %p1); %2 = divide(%0, 1.41421f); %3 = erf(%2); %4 = add(%3, 1f); %5 = multiply(%0, %4); multiply(%5, 0.5f)",
                  "%x, %w"));
    // The composites of TVM's table around the 1-D and 3-D convolutions, with bias and post-ops.
    row("conv1d_bias_tanh", "%x: Tensor[(2, 6, 11), float32], %w: Tensor[(4, 6, 3), float32], %b: Tensor[(4, 1), float32]",
        composite("dnnl.conv1d_bias_tanh", "%p0: Tensor[(2, 6, 11), float32], %p1: Tensor[(4, 6, 3), float32], %p2: Tensor[(4, 1), float32]",
                  "%0 = nn.conv1d(%p0, %p1, padding=[1, 1]); %1 = add(%0, %p2); tanh(%1)", "%x, %w, %b"));
    row("conv3d_bias_relu", "%x: Tensor[(1, 4, 5, 6, 7), float32], %w: Tensor[(8, 4, 3, 3, 3), float32], %b: Tensor[(8, 1, 1, 1), float32]",
        composite("dnnl.conv3d_bias_relu",
                  "%p0: Tensor[(1, 4, 5, 6, 7), float32], %p1: Tensor[(8, 4, 3, 3, 3), float32], %p2: Tensor[(8, 1, 1, 1), float32]",
                  "%0 = nn.conv3d(%p0, %p1, padding=[1, 1, 1, 1, 1, 1]); %1 = add(%0, %p2); nn.relu(%1)", "%x, %w, %b"));
    row("deconv3d_clip", "%x: Tensor[(1, 4, 5, 6, 7), float32], %w: Tensor[(4, 3, 2, 2, 2), float32]",
        composite("dnnl.deconv3d_clip", "%p0: Tensor[(1, 4, 5, 6, 7), float32], %p1: Tensor[(4, 3, 2, 2, 2), float32]",
                  "%0 = nn.conv3d_transpose(%p0, %p1, strides=[2, 2, 2]); clip(%0, a_min=0f, a_max=0.5f)", "%x, %w"));
    row("dense_bias_sum", denseParams + ", %s: Tensor[(4, 24), float32]",
        composite("dnnl.dense_bias_sum", denseInner + ", %p3: Tensor[(4, 24), float32]",
                  "%0 = nn.dense(%p0, %p1); %1 = add(%0, %p2); add(%1, %p3)", "%x, %w, %b, %s"));
  }
  void regionMatchesReference() {
    QFETCH(QString, params);
    QFETCH(QString, body);
    std::string error;
    const double excess = dnnlVersusReference(typedModule(regionModuleText("dnnl", params.toStdString(), body.toStdString())), &error);
    QVERIFY2(error.empty(), error.c_str());
    QCOMPARE(excess, 0.0);
  }

  void constantWeightsAreReorderedOnce() {
    // Weights bound as constants inside the region, as PartitionGraph's constant binding leaves them.
    const std::string text =
        "def @tvmgen_default_dnnl_main_0(%x: Tensor[(1, 2, 4, 4), float32], Compiler=\"dnnl\", global_symbol=\"s\", Primitive=1, Inline=1) {\n"
        "  nn.conv2d(%x, meta[relay.Constant][0])\n"
        "}\n"
        "def @main(%x: Tensor[(1, 2, 4, 4), float32]) { @tvmgen_default_dnnl_main_0(%x) }\n"
        "#[metadata]\n{\"relay.Constant\": [{\"name\": \"w\", \"dtype\": \"float32\", \"shape\": [2, 2, 1, 1], "
        "\"data\": \"AACAPwAAAEAAAEBAAACAQA==\"}]}\n";
    Module module = typedModule(text);
    std::string error;
    QCOMPARE(dnnlVersusReference(module, &error), 0.0);
    QVERIFY2(error.empty(), error.c_str());
    Result<std::unique_ptr<Executor>> executor = Executor::create(module);
    NDArray x = NDArray::zeros(DType::Float32, {1, 2, 4, 4});
    x.data<float>()[0] = 1;   // channel 0, (0, 0)
    x.data<float>()[16] = 1;  // channel 1, (0, 0)
    for (int run = 0; run < 2; ++run) {
      Result<Value> out = (*executor)->run(std::vector<Value>{x});
      QVERIFY(out.isOk());
      QCOMPARE(out->tensor().data<float>()[0], 3.0f);   // 1 + 2
      QCOMPARE(out->tensor().data<float>()[16], 7.0f);  // 3 + 4
    }
  }

  void partitionedMatchesUnpartitioned() {
    // Two dnnl regions around host code (reshape, transpose) against the same ops unpartitioned.
    const std::string partitioned =
        "def @tvmgen_default_dnnl_main_0(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32], "
        "%b: Tensor[(4, 1, 1), float32], Compiler=\"dnnl\", global_symbol=\"tvmgen_default_dnnl_main_0\", Primitive=1, Inline=1) {\n"
        "  %3 = fn (%p0: Tensor[(1, 3, 8, 8), float32], %p1: Tensor[(4, 3, 3, 3), float32], %p2: Tensor[(4, 1, 1), float32], "
        "Composite=\"dnnl.conv2d_bias_relu\") { %0 = nn.conv2d(%p0, %p1, padding=[1, 1, 1, 1]); %1 = add(%0, %p2); nn.relu(%1) };\n"
        "  %4 = %3(%x, %w, %b);\n"
        "  nn.max_pool2d(%4, pool_size=[2, 2], strides=[2, 2])\n"
        "}\n"
        "def @tvmgen_default_dnnl_main_2(%y: Tensor[(4, 16), float32], %v: Tensor[(10, 16), float32], Compiler=\"dnnl\", "
        "global_symbol=\"tvmgen_default_dnnl_main_2\", Primitive=1, Inline=1) {\n"
        "  %5 = nn.dense(%y, %v); nn.softmax(%5)\n"
        "}\n"
        "def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32], %b: Tensor[(4, 1, 1), float32], "
        "%v: Tensor[(10, 16), float32]) {\n"
        "  %6 = @tvmgen_default_dnnl_main_0(%x, %w, %b);\n"
        "  %7 = reshape(%6, newshape=[4, 16]);\n"
        "  %8 = transpose(%7, axes=[0, 1]);\n"
        "  @tvmgen_default_dnnl_main_2(%8, %v)\n"
        "}\n";
    const std::string plain =
        "def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32], %b: Tensor[(4, 1, 1), float32], "
        "%v: Tensor[(10, 16), float32]) {\n"
        "  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]); %1 = add(%0, %b); %2 = nn.relu(%1);\n"
        "  %3 = nn.max_pool2d(%2, pool_size=[2, 2], strides=[2, 2]); %4 = reshape(%3, newshape=[4, 16]);\n"
        "  %5 = transpose(%4, axes=[0, 1]); %6 = nn.dense(%5, %v); nn.softmax(%6)\n"
        "}\n";
    Result<std::unique_ptr<Executor>> offloaded = Executor::create(typedModule(partitioned));
    Result<std::unique_ptr<Executor>> reference = Executor::create(typedModule(plain));
    QVERIFY(offloaded.isOk() && reference.isOk());
    QCOMPARE((*offloaded)->regions().size(), std::size_t{2});
    QCOMPARE((*offloaded)->regions()[1].codegen, std::string("dnnl"));
    std::vector<Value> args;
    unsigned seed = 1;
    for (const Var& param : (*reference)->inputs()) args.push_back(randomTensorOf(*param->type()->as<TensorTypeNode>(), seed++));
    Result<Value> a = (*offloaded)->run(args);
    Result<Value> b = (*reference)->run(args);
    QVERIFY(a.isOk() && b.isOk());
    QCOMPARE(toleranceExcess(a->tensor(), b->tensor()), 0.0);
  }

  void regionsChainedDirectly() {
    // A blocked conv result leaves region 0 in plain layout, feeds region 1 (a conv that wants it
    // blocked again) and, as a second output, the host.
    const std::string text =
        "def @r0(%x: Tensor[(1, 8, 12, 12), float32], %w: Tensor[(16, 8, 3, 3), float32], Compiler=\"dnnl\", "
        "global_symbol=\"r0\") { %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]); %1 = nn.relu(%0); (%1, %0) }\n"
        "def @r1(%y: Tensor[(1, 16, 12, 12), float32], %v: Tensor[(16, 16, 1, 1), float32], Compiler=\"dnnl\", "
        "global_symbol=\"r1\") { %2 = nn.conv2d(%y, %v); nn.max_pool2d(%2, pool_size=[2, 2], strides=[2, 2]) }\n"
        "def @main(%x: Tensor[(1, 8, 12, 12), float32], %w: Tensor[(16, 8, 3, 3), float32], %v: Tensor[(16, 16, 1, 1), float32]) {\n"
        "  %3 = @r0(%x, %w); %4 = @r1(%3.0, %v); %5 = nn.max_pool2d(%3.1, pool_size=[2, 2], strides=[2, 2]); add(%4, %5)\n"
        "}\n";
    std::string error;
    QCOMPARE(dnnlVersusReference(typedModule(text), &error), 0.0);
    QVERIFY2(error.empty(), error.c_str());
  }

  void inlinedRegionLiteral() {
    // A region inlined at its call site (TVM's Inline on Inline=1) keeps its attributes and still runs on oneDNN.
    const std::string text =
        "def @main(%x: Tensor[(1, 8, 6, 6), float32], %w: Tensor[(4, 8, 3, 3), float32]) {\n"
        "  %1 = fn (%a: Tensor[(1, 8, 6, 6), float32], %b: Tensor[(4, 8, 3, 3), float32], Compiler=\"dnnl\", Primitive=1, Inline=1, "
        "global_symbol=\"tvmgen_default_dnnl_main_0\") { %0 = nn.conv2d(%a, %b); nn.relu(%0) };\n"
        "  %2 = %1(%x, %w);\n"
        "  negative(%2)\n"
        "}\n";
    Module module = typedModule(text);
    Result<std::unique_ptr<Executor>> executor = Executor::create(module);
    QVERIFY(executor.isOk());
    QCOMPARE((*executor)->regions().size(), std::size_t{1});
    QCOMPARE((*executor)->regions()[0].label(), std::string("tvmgen_default_dnnl_main_0"));
    QCOMPARE((*executor)->regions()[0].codegen, std::string("dnnl"));
    std::string error;
    QCOMPARE(dnnlVersusReference(module, &error), 0.0);
    QVERIFY2(error.empty(), error.c_str());
    Result<Value> out = (*executor)->run(std::vector<Value>{randomTensor({1, 8, 6, 6}, 1), randomTensor({4, 8, 3, 3}, 2)});
    QVERIFY(out.isOk());
    QCOMPARE((*executor)->regions()[0].calls, int64_t{1});
  }

  void demoLoopWithDnnlRegion() {
    // The demo loop with its conv → bias → relu body offloaded; the bias is reshaped on the host and
    // the weights scaled so that three layers keep values near 1 (as trained weights would).
    const std::string text =
        "def @tvmgen_default_dnnl_main_0(%d: Tensor[(1, 32, 56, 56), float32], %w: Tensor[(32, 32, 3, 3), float32], "
        "%b: Tensor[(32, 1, 1), float32], Compiler=\"dnnl\", global_symbol=\"tvmgen_default_dnnl_main_0\", Primitive=1, Inline=1) {\n"
        "  %0 = nn.conv2d(%d, %w, padding=[1, 1, 1, 1]); %2 = add(%0, %b); nn.relu(%2)\n"
        "}\n"
        "def @main(%data: Tensor[(1, 32, 56, 56), float32], %weight: Tensor[(32, 32, 3, 3), float32], %bias: Tensor[(32), float32]) {\n"
        "  %1 = reshape(%bias, newshape=[32, 1, 1]);\n"
        "  %4 = multiply(%weight, 0.06f);\n"
        "  let %while_loop = fn (%iter1: int32, %d1: Tensor[(1, 32, 56, 56), float32]) -> Tensor[(1, 56, 56, 32), float32] {\n"
        "    %3 = @tvmgen_default_dnnl_main_0(%d1, %4, %1);\n"
        "    if (less(%iter1, 2)) { %while_loop(add(%iter1, 1), %3) } else { reshape(%3, newshape=[1, 56, 56, 32]) }\n"
        "  };\n"
        "  %while_loop(0, %data)\n"
        "}\n";
    std::string error;
    QCOMPARE(dnnlVersusReference(typedModule(text), &error), 0.0);
    QVERIFY2(error.empty(), error.c_str());
  }

  void unsupportedOpNamesTheNode() {
    Result<std::unique_ptr<Executor>> rejected = Executor::create(typedModule(regionModuleText(
        "dnnl", "%x: Tensor[(2, 8), float32]", "%0 = nn.relu(%x);\n  split(%0, indices_or_sections=2)")));
    QVERIFY(!rejected.isOk());
    QCOMPARE(QString::fromStdString(rejected.error().str()),
             QString("in.relay:3:3: @tvmgen_default_dnnl_main_0 (dnnl): unsupported op split"));
  }

  void unsupportedLayoutIsAnError() {
    Result<std::unique_ptr<Executor>> executor = Executor::create(typedModule(regionModuleText(
        "dnnl", "%x: Tensor[(1, 6, 6, 2), float32], %w: Tensor[(3, 3, 2, 4), float32]",
        "nn.conv2d(%x, %w, data_layout=\"NHWC\", kernel_layout=\"HWIO\")")));
    QVERIFY(!executor.isOk());
    QCOMPARE(QString::fromStdString(executor.error().message),
             QString("@tvmgen_default_dnnl_main_0 (dnnl): nn.conv2d: only data_layout NCHW with kernel_layout OIHW is supported"));
  }

  void unsupportedLoweringIsAnError_data() {
    QTest::addColumn<QString>("params");
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("message");
    QTest::newRow("edge mode") << "%x: Tensor[(1, 2, 3, 3), float32]"
                               << "nn.pad(%x, 0f, pad_width=[[0, 0], [0, 0], [1, 1], [1, 1]], pad_mode=\"edge\")"
                               << "nn.pad: only pad_mode \"constant\" is supported";
    QTest::newRow("value not constant") << "%x: Tensor[(1, 2, 3, 3), float32], %v: float32"
                                        << "nn.pad(%x, %v, pad_width=[[0, 0], [0, 0], [1, 1], [1, 1]])"
                                        << "nn.pad: the pad value must be a constant";
    QTest::newRow("strided slice steps") << "%x: Tensor[(1, 2, 6, 6), float32]"
                                         << "strided_slice(%x, begin=[0], end=[6], strides=[2], axes=[3])"
                                         << "strided_slice: only unit strides are supported";
    QTest::newRow("layer_norm without epsilon") << "%x: Tensor[(2, 8), float32]"
                                                << composite("dnnl.layer_norm", "%p0: Tensor[(2, 8), float32]",
                                                             "%0 = mean(%p0, axis=[-1], keepdims=True); subtract(%p0, %0)", "%x").c_str()
                                                << "composite \"dnnl.layer_norm\" has no epsilon constant";
    QTest::newRow("scale_shift constant scale")
        << "%x: Tensor[(1, 2, 3, 3), float32], %y: Tensor[(2, 1, 1), float32]"
        << composite("dnnl.scale_shift", "%p0: Tensor[(1, 2, 3, 3), float32], %p1: Tensor[(2, 1, 1), float32]",
                     "%0 = multiply(%p0, 2f); add(%0, %p1)", "%x, %y").c_str()
        << "composite \"dnnl.scale_shift\": its data, scale and shift must be parameters of the composite";
    QTest::newRow("scale_shift broadcast data")
        << "%x: Tensor[(1, 2, 1, 1), float32], %y: Tensor[(1, 2, 3, 3), float32], %z: Tensor[(2, 1, 1), float32]"
        << composite("dnnl.scale_shift",
                     "%p0: Tensor[(1, 2, 1, 1), float32], %p1: Tensor[(1, 2, 3, 3), float32], %p2: Tensor[(2, 1, 1), float32]",
                     "%0 = multiply(%p0, %p1); add(%0, %p2)", "%x, %y, %z").c_str()
        << "composite \"dnnl.scale_shift\": the data must have the result's shape";
    QTest::newRow("negative width") << "%x: Tensor[(1, 2, 3, 3), float32]"
                                    << "nn.pad(%x, 0f, pad_width=[[0, 0], [0, 0], [-1, 1], [1, 1]])"
                                    << "nn.pad: negative pad widths are not supported";
  }
  void unsupportedLoweringIsAnError() {
    QFETCH(QString, params);
    QFETCH(QString, body);
    QFETCH(QString, message);
    Result<std::unique_ptr<Executor>> executor =
        Executor::create(typedModule(regionModuleText("dnnl", params.toStdString(), body.toStdString())));
    QVERIFY(!executor.isOk());
    QCOMPARE(QString::fromStdString(executor.error().message), "@tvmgen_default_dnnl_main_0 (dnnl): " + message);
  }

  // A target of its own on the dnnl codegen: its composites are named after it, and the codegen
  // reads the kernel after the prefix. A name it cannot read is said at its row before any run.
  void aTargetOfItsOwnRunsItsCompositesOnDnnl() {
    auto target = [](const std::string& rows) {
      Result<Target> parsed = parseTarget(R"js({"format": "byoc-studio-target", "version": 1, "name": "myaccel",
        "codegen": "dnnl", "op_rules": ["nn.max_pool2d"], "patterns": [)js" + rows + "]}", "myaccel.json");
      if (!parsed) qFatal("%s", parsed.error().str().c_str());
      return std::make_shared<const Target>(std::move(*parsed));
    };
    const auto unreadable = target(R"js({"name": "myaccel.conv2d_bias_relu", "pattern": "nn.relu(nn.bias_add(nn.conv2d(*, *), *))"},
                                       {"name": "myaccel.pattern_1", "pattern": "nn.relu(nn.conv2d(*, *))"})js");
    const std::vector<Diagnostic> problems = compositesTheCodegenCannotBuild(*unreadable);
    QCOMPARE(problems.size(), std::size_t{1});
    QVERIFY2(problems[0].message.starts_with("pattern 2 ('myaccel.pattern_1'): the dnnl codegen builds no composite called"),
             problems[0].message.c_str());
    // The kernel is read after the prefix, whatever the target is called.
    const std::optional<dnnl_backend::CompositeKind> mySum = dnnl_backend::compositeKind("dense_sum.conv2d_bias_relu");
    QVERIFY(mySum.has_value());
    QCOMPARE(mySum->anchorOp, std::string("nn.conv2d"));
    QVERIFY(mySum->bias && !mySum->sum);
    QCOMPARE(mySum->roles, (std::vector<std::string>{"data", "weight", "bias"}));
    Target onReference = *unreadable;
    onReference.codegen = "reference";
    QVERIFY(compositesTheCodegenCannotBuild(onReference).empty());

    const auto myaccel = target(R"js({"name": "myaccel.conv2d_bias_relu", "pattern": "nn.relu(nn.bias_add(nn.conv2d(*, *), *))"})js");
    const Module model = typedModule(
        "def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32], %b: Tensor[(4), float32]) {\n"
        "  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]); %1 = nn.bias_add(%0, %b); %2 = nn.relu(%1);\n"
        "  nn.max_pool2d(%2, pool_size=[2, 2], strides=[2, 2])\n"
        "}\n");
    Result<std::vector<PassPtr>> steps = partitionSteps({myaccel}, PartitionPipeline::Relay);
    QVERIFY(steps.isOk());
    Result<PassRun> run = runPasses(*steps, model);
    QVERIFY2(run.isOk(), run.isOk() ? "" : run.error().str().c_str());
    const Module& result = run->steps.back().module;
    QVERIFY(result.find("tvmgen_default_myaccel_main_0"));  // the region, its composite inside
    std::string error;
    const double excess = dnnlVersusReference(result, &error, "myaccel");
    QVERIFY2(excess <= 0, error.c_str());
  }

  void nonFloatRegionIsAnError() {
    Result<std::unique_ptr<Executor>> executor =
        Executor::create(typedModule(regionModuleText("dnnl", "%x: Tensor[(4), int64]", "nn.relu(%x)")));
    QVERIFY(!executor.isOk());
    QCOMPARE(QString::fromStdString(executor.error().message),
             QString("@tvmgen_default_dnnl_main_0 (dnnl): region input %x is int64; only float32, int8, uint8 and int32 "
                     "are supported"));
  }
};

QTEST_GUILESS_MAIN(TestDnnl)
#include "test_dnnl.moc"
