#pragma once
/// \file
/// The synthetic models the benchmarks scale: a chain of conv2d → add → relu blocks built in
/// memory, and flat networks as Relay text (no name scopes, no functions) for the app to open.

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
