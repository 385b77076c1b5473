#pragma once
/// \file
/// The synthetic models the benchmarks scale: a chain of conv2d → add → relu blocks built in
/// memory, fragmented graphs (elementwise ops a young target supports, cut by ops it does not),
/// and flat networks as Relay text (no name scopes, no functions) for the app to open.

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "ir/module.h"
#include "ir/op.h"
#include "support/base64.h"

namespace byoc::bench {

/// `blocks` conv2d(3x3, 4 channels) → add(bias) → relu blocks in a chain, each block with its own
/// weight and bias constants, as in a real network.
inline Module syntheticChain(int blocks) {
  Var x = VarNode::make("x", tensorType({1, 4, 8, 8}, DType::Float32));
  Attrs convAttrs{{"padding", AttrValue::ints({1, 1, 1, 1})}, {"channels", 4}, {"kernel_size", AttrValue::ints({3, 3})}};
  Expr value = x;
  for (int i = 0; i < blocks; ++i) {
    Constant weight = ConstantNode::make(TensorData::zeros(DType::Float32, {4, 4, 3, 3}), {}, "w" + std::to_string(i));
    Constant bias = ConstantNode::make(TensorData::zeros(DType::Float32, {4, 1, 1}), {}, "b" + std::to_string(i));
    value = makeOpCall("nn.conv2d", {value, weight}, convAttrs).value();
    value = makeOpCall("add", {value, bias}).value();
    value = makeOpCall("nn.relu", {value}).value();
  }
  Module module;
  module.set("main", FunctionNode::make({x}, value));
  return module;
}

/// Where a fragmented graph's unsupported ops sit: one every so often, or in runs of ten.
enum class Unsupported { Interleaved, InRuns };
/// How a fragmented graph's values connect: each op reads the previous value and one a few ops
/// back, or pairs of ops branch from a value and join again.
enum class Wiring { SkipConnections, Diamonds };

/// Whether op `index` of a fragmented graph is one the target does not support.
inline bool isUnsupportedOp(int index, int percent, Unsupported placement) {
  if (percent <= 0) return false;
  const int period = std::max(1, 100 / percent);
  return placement == Unsupported::Interleaved ? index % period == period - 1 : (index / 10) % period == 0;
}

/// `nodes` elementwise ops on a 1×4 vector: `add`, `multiply` and `subtract` in turn, and
/// `maximum` (which the benchmark's target does not support) for `percent` % of them.
inline Module fragmentedGraph(int nodes, int percent, Unsupported placement, Wiring wiring) {
  Var x = VarNode::make("x", tensorType({1, 4}, DType::Float32));
  static const char* const kSupported[] = {"add", "multiply", "subtract"};
  std::vector<Expr> values{x};
  for (int i = 0; i < nodes; ++i) {
    const char* op = isUnsupportedOp(i, percent, placement) ? "maximum" : kSupported[i % 3];
    const int count = static_cast<int>(values.size());
    Expr lhs = values.back(), rhs = values[std::max(0, count - 2 - i % 4)];
    if (wiring == Wiring::Diamonds && i % 3 == 0) rhs = values[std::max(0, count - 2)];  // a = op(v, …)
    if (wiring == Wiring::Diamonds && i % 3 == 1) lhs = rhs = values[count - 2];         // b = op(v, v)
    if (wiring == Wiring::Diamonds && i % 3 == 2) rhs = values[count - 2];               // op(b, a)
    values.push_back(makeOpCall(op, {lhs, rhs}).value());
  }
  Module module;
  module.set("main", FunctionNode::make({x}, values.back()));
  return module;
}

/// Relay text of a flat network without scopes or functions: `layers` conv2d → bias_add → relu
/// layers in a chain (3 nodes each), or with `residual` layers of conv2d → bias_add → relu →
/// conv2d → bias_add → add(the layer's input) → relu (7 nodes each). All layers share one weight
/// and one bias constant of the metadata section, so the text stays small.
inline std::string flatNetworkText(int layers, bool residual) {
  std::string text = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1, 4, 8, 8), float32]) {\n";
  int next = 0;
  auto let = [&](const std::string& value) {
    const std::string name = "%" + std::to_string(next++);
    text += "  " + name + " = " + value + ";\n";
    return name;
  };
  auto convBias = [&](const std::string& input) {
    const std::string conv = let("nn.conv2d(" + input + ", meta[relay.Constant][0], padding=[1, 1, 1, 1])");
    return let("nn.bias_add(" + conv + ", meta[relay.Constant][1])");
  };
  std::string previous = "%x";
  for (int i = 0; i < layers; ++i) {
    std::string value = let("nn.relu(" + convBias(previous) + ")");
    if (residual) value = let("nn.relu(" + let("add(" + convBias(value) + ", " + previous + ")") + ")");
    previous = value;
  }
  const std::vector<std::byte> weight(4 * 4 * 3 * 3 * 4), bias(4 * 4);
  text += "  " + previous + "\n}\n#[metadata]\n{\"relay.Constant\": [{\"dtype\": \"float32\", \"shape\": [4, 4, 3, 3], \"data\": \"" +
          base64Encode(weight) + "\"}, {\"dtype\": \"float32\", \"shape\": [4], \"data\": \"" + base64Encode(bias) + "\"}]}\n";
  return text;
}

}  // namespace byoc::bench
