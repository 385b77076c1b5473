#pragma once
/// \file
/// The example program of seed 001, built node by node as the seed's Python builds it, with an
/// origin on every node (as a loader would give).

#include <cstring>
#include <vector>

#include "ir/module.h"
#include "ir/op.h"

namespace byoc::testing {

/// `fn (%x, %weight) { c = const; y = add(c, c) * 2f + conv2d(x, weight); (y + c) + (y + c) }`.
inline Module seed001Example() {
  const Shape shape{1, 64, 54, 54};
  std::vector<float> values(1 * 64 * 54 * 54);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 7) * 0.25f;
  std::vector<std::byte> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  NodeId next = 1;
  auto origin = [&next] { return Origin::single(next++); };
  auto call = [&origin](const char* op, std::vector<Expr> args) -> Expr {
    return makeOpCall(op, std::move(args), {}, origin()).value();
  };

  Expr c = ConstantNode::make(TensorData::fromBytes(DType::Float32, shape, bytes), origin());
  Var weight = VarNode::make("weight", tensorType({64, 64, 3, 3}, DType::Float32), origin());
  Var x = VarNode::make("x", tensorType({1, 64, 56, 56}, DType::Float32), origin());
  Expr conv = call("nn.conv2d", {x, weight});
  Expr y = call("add", {c, c});
  y = call("multiply", {y, ConstantNode::make(TensorData::scalar(DType::Float32, 2.0), origin())});
  y = call("add", {conv, y});
  Expr z = call("add", {y, c});
  Expr z1 = call("add", {y, c});
  Expr z2 = call("add", {z, z1});
  Module module;
  module.set("main", FunctionNode::make({x, weight}, z2, {}, {}, origin()));
  return module;
}

}  // namespace byoc::testing
