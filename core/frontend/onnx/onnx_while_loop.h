#pragma once
/// \file
/// Builds a loop in the form TVM's `while_loop` gives it, for ONNX Loop and Scan:
///
///   let %while_loop = fn (%v0, …, %vn, %scan0, …) -> (…) {
///     if (<condition of the variables>) {
///       <body>;
///       %while_loop(<next variables>, concatenate((%scan0, expand_dims(<value>))), …)
///     } else {
///       (%v0, …, %vn, %scan0, …)
///     }
///   };
///   %while_loop(<initial values>, <empty scan tensors>)
///
/// The call in the `then` branch is in tail position, so the interpreter runs the loop in one
/// frame. A variable whose shape changes between iterations gets `?` where it changes: the body
/// is imported with the initial types, then again with the joined ones until they no longer
/// change. A scan output starts empty and grows by one slice per iteration along its axis.

#include <functional>
#include <string>
#include <vector>

#include "frontend/onnx/onnx_control_flow.h"
#include "frontend/onnx/onnx_node_context.h"

namespace byoc::onnx_import {

/// One variable a loop carries from an iteration to the next.
struct LoopVariable {
  /// Its name in the loop function (the body's name for it).
  std::string name;
  /// The value it starts with.
  OnnxValue initial;
};

/// One value a loop collects from every iteration into a tensor.
struct ScanOutput {
  /// Its name in the loop function.
  std::string name;
  /// The axis of the result the iterations are stacked along (negative counts from the end of
  /// the result's rank).
  int64_t axis = 0;
  /// Whether each iteration's slice goes in front of the earlier ones.
  bool prepend = false;
};

/// A loop: its variables, its scan outputs, its condition and its body.
struct LoopSpec {
  std::vector<LoopVariable> variables;
  std::vector<ScanOutput> scans;
  /// Whether to run one more iteration, from the variables: a bool scalar.
  std::function<Result<OnnxValue>(const std::vector<OnnxValue>& variables)> condition;
  /// One iteration: from the variables, their next values followed by one slice per scan output.
  std::function<Result<std::vector<OnnxValue>>(const std::vector<OnnxValue>& variables)> body;
  /// How errors name what gives variable `index` its next value ("body output 1 ('y_out')").
  std::function<std::string(std::size_t index)> describeUpdate;
};

/// The loop's result: a tuple of its final variables followed by its scan outputs. The imports of
/// the body whose variable types were too narrow are rolled back in `subgraphs`.
Result<OnnxValue> whileLoop(const OnnxNodeContext& context, const LoopSpec& spec, SubgraphImporter& subgraphs);

}  // namespace byoc::onnx_import
