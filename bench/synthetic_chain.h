#pragma once
/// \file
/// The synthetic model the benchmarks scale: a chain of conv2d → add → relu blocks.

#include <string>

#include "ir/module.h"
#include "ir/op.h"

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

}  // namespace byoc::bench
