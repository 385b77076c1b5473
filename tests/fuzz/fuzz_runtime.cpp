/// \file
/// libFuzzer target: small ONNX models whose sizes and indices come from their data while they
/// run. The input chooses an op (ConstantOfShape, Expand, Tile, Reshape, Range, Gather, GatherND,
/// ScatterND, TopK, Slice, or a Loop growing its carried value), its attributes, and the values of
/// its int64 operand, which the model computes from an input (the input times 0, plus the values),
/// so that the importer cannot check them. The model runs on the reference interpreter (with and
/// without its dataflow fast path) and partitioned for dnnl, on random data: each run must give a
/// result or an error, never crash, abort or hang.

#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "frontend/onnx/onnx_import.h"
#include "pass/infer_type.h"
#include "pass/partition/partition_flow.h"
#include "runtime/executor.h"
#include "support/limits.h"
#include "support/result.h"
#include "target/target_library.h"
#include "dnnl_steps.h"
#include "test_onnx_builder.h"

namespace {

using byoc::testing::OnnxModelBuilder;

constexpr int64_t kInt64 = onnx::TensorProto::INT64;

/// A size or index as the fuzzer gives it: mostly small, sometimes any int64 or a power of two
/// from 2^31 (a size the runtime must refuse before allocating it, or an index far outside its
/// axis). Sizes between are left out: the limits allow them, and their gigabytes would only
/// trip the fuzzer's own memory limit.
int64_t fuzzedValue(FuzzedDataProvider& input) {
  switch (input.ConsumeIntegralInRange<int>(0, 7)) {
    case 0: return input.ConsumeIntegral<int64_t>();
    case 1: return int64_t{1} << input.ConsumeIntegralInRange<int>(31, 62);
    case 2: return -(int64_t{1} << input.ConsumeIntegralInRange<int>(31, 62));
    default: return input.ConsumeIntegralInRange<int64_t>(-9, 9);
  }
}

/// The input's shape: rank 0 to 3, sizes 0 to 4.
std::vector<int64_t> fuzzedShape(FuzzedDataProvider& input, int minRank) {
  std::vector<int64_t> shape(input.ConsumeIntegralInRange<std::size_t>(static_cast<std::size_t>(minRank), 3));
  for (int64_t& size : shape) size = input.ConsumeIntegralInRange<int64_t>(0, 4);
  return shape;
}

/// The model: float input "x" of a fuzzed shape, int64 input "k" (filled with random digits and
/// multiplied by 0), and "v" = k * 0 + the fuzzed values, the operand the chosen op reads.
class FuzzedModel {
 public:
  explicit FuzzedModel(FuzzedDataProvider& input) : input_(input) {}

  /// The last of the ops build() chooses from.
  static constexpr int kLoop = 10;

  /// `count` fuzzed values.
  std::vector<int64_t> fuzzedValues(std::size_t count) {
    std::vector<int64_t> values(count);
    for (int64_t& value : values) value = fuzzedValue(input_);
    return values;
  }

  /// Adds "v" holding `values` in `shape`.
  void runTimeValues(const std::vector<int64_t>& values, const std::vector<int64_t>& shape) {
    builder_.input("k", shape, kInt64);
    builder_.intInitializer("zero", {}, {0});
    builder_.intInitializer("values", shape, values);
    builder_.node("Mul", {"k", "zero"}, {"k0"});
    builder_.node("Add", {"k0", "values"}, {"v"});
  }

  /// Adds "v" holding `values` as a vector.
  void runTimeVector(const std::vector<int64_t>& values) {
    runTimeValues(values, {static_cast<int64_t>(values.size())});
  }

  /// Adds "v" holding fuzzed values in `shape`.
  void runTimeValuesOfShape(const std::vector<int64_t>& shape) {
    int64_t count = 1;
    for (int64_t size : shape) count *= size;
    runTimeValues(fuzzedValues(static_cast<std::size_t>(count)), shape);
  }

  std::string build() {
    const int op = input_.ConsumeIntegralInRange<int>(0, 10);
    // A loop's value starts as a vector of 2 or 4 elements: squared each iteration, it passes
    // from 65536 elements to 2^32, refused, without ever taking the seconds and gigabytes of a
    // size the limits allow (3 elements would reach 43 million).
    const std::vector<int64_t> shape =
        op == kLoop ? std::vector<int64_t>{input_.ConsumeBool() ? 2 : 4} : fuzzedShape(input_, 0);
    builder_.input("x", shape);
    const auto rank = static_cast<int64_t>(shape.size());
    switch (op) {
      case 0: {
        runTimeVector(fuzzedValues(input_.ConsumeIntegralInRange<std::size_t>(0, 3)));
        onnx::NodeProto& node = builder_.node("ConstantOfShape", {"v"}, {"y"});
        byoc::testing::attr(node, "value", OnnxModelBuilder::floatTensor("value", {1}, {2.5f}));
        break;
      }
      case 1:
        runTimeVector(fuzzedValues(input_.ConsumeIntegralInRange<std::size_t>(0, 4)));
        builder_.node("Expand", {"x", "v"}, {"y"});
        break;
      case 2:
        runTimeVector(fuzzedValues(static_cast<std::size_t>(rank)));
        builder_.node("Tile", {"x", "v"}, {"y"});
        break;
      case 3:
        runTimeVector(fuzzedValues(input_.ConsumeIntegralInRange<std::size_t>(0, 4)));
        builder_.node("Reshape", {"x", "v"}, {"y"});
        break;
      case 4: {
        // Range's start, limit and delta: the three values, each as a scalar. A length the limits
        // allow but of more than 2^20 elements becomes 1, for the reason fuzzedValue gives.
        std::vector<int64_t> bounds = fuzzedValues(3);
        if (bounds[2] != 0) {
          const __int128 length = (static_cast<__int128>(bounds[1]) - bounds[0]) / bounds[2];
          if (length > (1 << 20) && length <= byoc::limits::kMaxElements) bounds = {0, 1, 1};
        }
        runTimeVector(bounds);
        for (int i = 0; i < 3; ++i) {
          const std::string at = std::to_string(i);
          builder_.intInitializer("at" + at, {}, {i});
          builder_.node("Gather", {"v", "at" + at}, {"s" + at});
        }
        builder_.node("Range", {"s0", "s1", "s2"}, {"y"});
        break;
      }
      case 5: {
        runTimeValuesOfShape(fuzzedShape(input_, 0));
        onnx::NodeProto& node = builder_.node("Gather", {"x", "v"}, {"y"});
        byoc::testing::attr(node, "axis", input_.ConsumeIntegralInRange<int64_t>(-3, 3));
        break;
      }
      case 6: {
        std::vector<int64_t> indices = fuzzedShape(input_, 1);
        indices.back() = input_.ConsumeIntegralInRange<int64_t>(1, 3);
        runTimeValuesOfShape(indices);
        builder_.node("GatherND", {"x", "v"}, {"y"});
        break;
      }
      case 7: {
        std::vector<int64_t> indices = fuzzedShape(input_, 1);
        indices.back() = input_.ConsumeIntegralInRange<int64_t>(1, 3);
        runTimeValuesOfShape(indices);
        std::vector<int64_t> updates(indices.begin(), indices.end() - 1);
        for (auto i = static_cast<std::size_t>(indices.back()); i < shape.size(); ++i) updates.push_back(shape[i]);
        builder_.input("u", updates);
        builder_.node("ScatterND", {"x", "v", "u"}, {"y"});
        break;
      }
      case 8: {
        runTimeVector(fuzzedValues(1));
        onnx::NodeProto& node = builder_.node("TopK", {"x", "v"}, {"y", "yi"});
        byoc::testing::attr(node, "axis", input_.ConsumeIntegralInRange<int64_t>(-3, 3));
        byoc::testing::attr(node, "largest", input_.ConsumeIntegralInRange<int64_t>(0, 1));
        builder_.output("yi");
        break;
      }
      case 9: {
        runTimeVector(fuzzedValues(input_.ConsumeIntegralInRange<std::size_t>(1, 3)));
        builder_.intInitializer("starts", {1}, {fuzzedValue(input_)});
        builder_.intInitializer("axes", {1}, {input_.ConsumeIntegralInRange<int64_t>(-3, 3)});
        builder_.node("Slice", {"x", "starts", "v", "axes"}, {"y"});
        break;
      }
      case kLoop: loop(); break;
    }
    builder_.output("y");
    return builder_.bytes();
  }

 private:
  /// A Loop of a fuzzed trip count whose carried value grows each iteration (tiled by its own
  /// shape, or concatenated with itself; the run stops it after kLoopIterations).
  void loop() {
    builder_.intInitializer("m", {}, {fuzzedValue(input_)});
    onnx::NodeProto& node = builder_.node("Loop", {"m", "", "x"}, {"y"});
    onnx::GraphProto* body = byoc::testing::graphAttr(node, "body");
    auto add = [&](const std::string& op, std::vector<std::string> inputs, const std::string& output) {
      onnx::NodeProto* step = body->add_node();
      step->set_op_type(op);
      for (const std::string& in : inputs) step->add_input(in);
      step->add_output(output);
      return step;
    };
    auto declare = [](onnx::ValueInfoProto* info, const std::string& name, int elemType, int rank) {
      info->set_name(name);
      auto* tensor = info->mutable_type()->mutable_tensor_type();
      tensor->set_elem_type(elemType);
      auto* dims = tensor->mutable_shape();
      for (int i = 0; i < rank; ++i) dims->add_dim()->set_dim_param("d" + std::to_string(i));
    };
    declare(body->add_input(), "i", kInt64, 0);
    declare(body->add_input(), "c_in", onnx::TensorProto::BOOL, 0);
    body->add_input()->set_name("v_in");
    add("Identity", {"c_in"}, "c_out");
    if (input_.ConsumeBool()) {
      add("Shape", {"v_in"}, "reps");
      add("Tile", {"v_in", "reps"}, "v_out");
    } else {
      onnx::NodeProto* concat = add("Concat", {"v_in", "v_in"}, "v_out");
      byoc::testing::attr(*concat, "axis", int64_t{0});
    }
    body->add_output()->set_name("c_out");
    body->add_output()->set_name("v_out");
  }

  FuzzedDataProvider& input_;
  OnnxModelBuilder builder_;
};

/// Most iterations of a run's loops: a value doubling each iteration stays below a few megabytes.
constexpr int64_t kLoopIterations = 16;

/// Runs `module` on random inputs; any error is a clean end.
void run(const byoc::Module& module, bool fastPath) {
  byoc::ExecutorOptions options;
  options.fastPath = fastPath;
  options.maxLoopIterations = kLoopIterations;
  byoc::Result<std::unique_ptr<byoc::Executor>> executor = byoc::Executor::create(module, options);
  if (!executor) return;
  std::map<std::string, byoc::NDArray> inputs;
  uint64_t seed = 0;
  for (const byoc::Var& param : (*executor)->inputs()) {
    const auto* type = param->type() ? param->type()->as<byoc::TensorTypeNode>() : nullptr;
    if (!type) return;
    byoc::Result<byoc::NDArray> array = byoc::NDArray::allocate(type->dtype, type->shape);
    if (!array) return;
    byoc::fillRandom(*array, seed++);
    inputs.emplace(param->name, std::move(array).value());
  }
  byoc::Result<std::vector<byoc::Value>> args = (*executor)->bindInputs(inputs);
  if (!args) return;
  (void)(*executor)->run(*args);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider input(data, size);
  const std::string bytes = FuzzedModel(input).build();
  byoc::Result<byoc::Module> imported = byoc::importOnnxModel(bytes, "model.onnx", "");
  if (!imported) return 0;
  byoc::Result<byoc::Module> typed = byoc::inferTypes(*imported);
  if (!typed) return 0;
  run(*typed, true);
  run(*typed, false);
  byoc::Module partitioned = *typed;
  byoc::PassContext context;
  for (const byoc::PassPtr& step : byoc::fuzzing::dnnlSteps()) {
    byoc::Result<byoc::PassResult> ran = (*step)(partitioned, context);
    if (!ran) return 0;
    partitioned = ran->module;
  }
  run(partitioned, true);
  return 0;
}
