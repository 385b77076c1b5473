#pragma once
/// \file
/// What an op converter sees while one ONNX node is imported: the node's inputs as IR values
/// (with their types, and their content when constant), its attributes, the opset, and builders
/// that create IR nodes carrying the node's origin and computing their types as they go.
///
/// Types are computed during import (through the ops' type relations) because several ONNX
/// ops need them: `Shape` folds to a constant, `MatMul` dispatches on ranks, `Flatten` and
/// `Resize` compute sizes. Errors from the builders name no node; the importer prefixes it.

#include <memory>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/onnx/onnx_attributes.h"
#include "ir/expr.h"
#include "support/result.h"

namespace byoc::onnx_import {

/// One value of the imported graph: its expression and its type.
struct OnnxValue {
  /// The IR expression computing the value.
  Expr expr;
  /// Its type, computed at import.
  Type type;
  /// For an integer tensor computed at run time from shapes (`Shape` of a tensor with unknown
  /// dimensions, and the integer arithmetic on it): its elements in order, each known at import
  /// or not (nullopt); null for any other value. Folding uses it to fold what is known
  /// (`Shape(x)[2]` of an x of shape (?, 1, 256) is 256) and Reshape to read a target with one
  /// unknown size as a static reshape with -1.
  std::shared_ptr<const std::vector<std::optional<int64_t>>> partial = nullptr;

  /// The content when the value is a constant, else null.
  const TensorData* constant() const;
  /// The tensor type, or null for a tuple.
  const TensorTypeNode* tensor() const;
  /// The shape of a tensor value (empty for a tuple).
  const Shape& shape() const;
  /// The rank of a tensor value.
  std::size_t rank() const { return shape().size(); }
};

/// Makes a fresh origin recorded as coming from the ONNX node being converted.
using OriginMaker = std::function<Origin()>;

/// The node being converted, and the builders a converter uses.
class OnnxNodeContext {
 public:
  /// The context of `node`, whose listed inputs are `inputs` (empty where the name is empty), in a
  /// model of `opset`. Every IR node built through it gets an origin of its own from
  /// `makeOrigin`, so that the calls one ONNX node becomes (Conv: conv2d and bias_add) are told
  /// apart wherever origins map passes' results back to the loaded graph.
  OnnxNodeContext(const onnx::NodeProto& node, std::vector<std::optional<OnnxValue>> inputs, int64_t opset,
                  OriginMaker makeOrigin)
      : node(node), attrs(node), opset(opset), inputs_(std::move(inputs)), makeOrigin_(std::move(makeOrigin)) {}

  /// The ONNX node being converted.
  const onnx::NodeProto& node;
  /// Its attributes, typed.
  const NodeAttributes attrs;
  /// The version of the default ONNX domain the model imports.
  const int64_t opset;

  /// Number of inputs listed (including empty optional ones).
  std::size_t inputCount() const { return inputs_.size(); }
  /// True when input `index` is listed and not empty.
  bool hasInput(std::size_t index) const { return index < inputs_.size() && inputs_[index].has_value(); }
  /// Input `index`; an error when it is absent.
  Result<OnnxValue> input(std::size_t index) const;
  /// The content of input `index`, which must be a constant (an initializer or folded value).
  Result<TensorData> constantInput(std::size_t index) const;
  /// Input `index` read as integers (a constant of any integer dtype).
  Result<std::vector<int64_t>> constantInts(std::size_t index) const;
  /// Input `index` read as floating-point numbers (a constant of any dtype; float32 values widened
  /// as `widenFloat` does).
  Result<std::vector<double>> constantFloats(std::size_t index) const;

  /// A call of the registered op `op`, typed by the op's relation.
  Result<OnnxValue> call(std::string_view op, std::vector<OnnxValue> args, const Attrs& attrs = {}) const;
  /// A constant holding `data`.
  OnnxValue constant(TensorData data, std::string name = {}) const;
  /// A scalar constant of `dtype`.
  OnnxValue scalar(DType dtype, double value) const { return constant(TensorData::scalar(dtype, value)); }
  /// A tuple of `fields`.
  OnnxValue tuple(std::vector<OnnxValue> fields) const;
  /// Field `index` of a tuple value.
  Result<OnnxValue> getItem(const OnnxValue& tuple, int index) const;
  /// A fresh origin for an IR node a converter builds itself.
  Origin newOrigin() const { return makeOrigin_(); }
  /// One origin for the node as a whole, made once: for the structure a converter builds around
  /// calls (a loop's function, variables and let), and for nodes built only to be looked at and
  /// dropped, which must leave no id behind.
  const Origin& nodeOrigin() const {
    if (!nodeOrigin_) nodeOrigin_ = makeOrigin_();
    return *nodeOrigin_;
  }
  /// A context for the same node whose every IR node gets this one's `nodeOrigin()`: control flow
  /// (If, Loop, Scan) builds and drops trial nodes while it types its bodies, and is one node.
  OnnxNodeContext withSharedOrigin() const {
    return OnnxNodeContext(node, inputs_, opset, [this] { return nodeOrigin(); });
  }

 private:
  std::vector<std::optional<OnnxValue>> inputs_;
  OriginMaker makeOrigin_;
  mutable std::optional<Origin> nodeOrigin_;
};

/// The result of converting a node: one value per ONNX output, in order.
using OnnxOutputs = std::vector<OnnxValue>;

/// Reads integers from a constant of any integer or bool dtype (exact for all int64 values).
std::vector<int64_t> tensorToInts(const TensorData& data);
/// A 1-D int64 tensor holding `values`.
TensorData intsToTensor(const std::vector<int64_t>& values, Shape shape);

}  // namespace byoc::onnx_import
