#pragma once
/// \file
/// Builds small ONNX models in C++ with the protobuf classes, for the importer's tests: graph
/// inputs and outputs, initializers, and nodes with typed attributes.

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "onnx/onnx_pb.h"

namespace byoc::testing {

/// The size `OnnxModelBuilder::input` writes as a symbolic dimension (a dim_param).
inline constexpr int64_t kSymbolicDim = std::numeric_limits<int64_t>::min();

/// An ONNX model under construction (one graph, default domain at `opset`).
class OnnxModelBuilder {
 public:
  explicit OnnxModelBuilder(int64_t opset = 13) {
    model_.set_ir_version(8);
    model_.set_producer_name("byoc-tests");
    auto* entry = model_.add_opset_import();
    entry->set_domain("");
    entry->set_version(opset);
    model_.mutable_graph()->set_name("test");
  }

  /// A graph input of element type `elemType` (onnx::TensorProto::FLOAT, …); a size
  /// `kSymbolicDim` is a symbolic dimension (dim_param "d<i>", i its position).
  OnnxModelBuilder& input(const std::string& name, const std::vector<int64_t>& shape,
                          int elemType = onnx::TensorProto::FLOAT) {
    describe(model_.mutable_graph()->add_input(), name, shape, elemType);
    return *this;
  }

  /// A graph output (its type is left to the importer).
  OnnxModelBuilder& output(const std::string& name) {
    model_.mutable_graph()->add_output()->set_name(name);
    return *this;
  }

  /// A float initializer holding `values` (raw_data form).
  OnnxModelBuilder& initializer(const std::string& name, const std::vector<int64_t>& shape,
                                const std::vector<float>& values) {
    onnx::TensorProto* tensor = model_.mutable_graph()->add_initializer();
    *tensor = floatTensor(name, shape, values);
    return *this;
  }

  /// An int64 initializer holding `values` (typed int64_data form).
  OnnxModelBuilder& intInitializer(const std::string& name, const std::vector<int64_t>& shape,
                                   const std::vector<int64_t>& values) {
    onnx::TensorProto* tensor = model_.mutable_graph()->add_initializer();
    tensor->set_name(name);
    tensor->set_data_type(onnx::TensorProto::INT64);
    for (int64_t d : shape) tensor->add_dims(d);
    for (int64_t v : values) tensor->add_int64_data(v);
    return *this;
  }

  /// A float initializer of `shape` filled with 0.5, 1.5, 2.5, …
  OnnxModelBuilder& rampInitializer(const std::string& name, const std::vector<int64_t>& shape) {
    int64_t count = 1;
    for (int64_t d : shape) count *= d;
    std::vector<float> values(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) + 0.5f;
    return initializer(name, shape, values);
  }

  /// A node; set its attributes on the returned proto with the `attr` helpers.
  onnx::NodeProto& node(const std::string& opType, const std::vector<std::string>& inputs,
                        const std::vector<std::string>& outputs, const std::string& name = {}) {
    onnx::NodeProto* node = model_.mutable_graph()->add_node();
    node->set_op_type(opType);
    node->set_name(name.empty() ? opType + "_" + std::to_string(model_.graph().node_size() - 1) : name);
    for (const auto& input : inputs) node->add_input(input);
    for (const auto& output : outputs) node->add_output(output);
    return *node;
  }

  onnx::ModelProto& model() { return model_; }

  /// The serialised model.
  std::string bytes() const { return model_.SerializeAsString(); }

  /// A float tensor proto (raw_data form).
  static onnx::TensorProto floatTensor(const std::string& name, const std::vector<int64_t>& shape,
                                       const std::vector<float>& values) {
    onnx::TensorProto tensor;
    tensor.set_name(name);
    tensor.set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t d : shape) tensor.add_dims(d);
    std::string raw(values.size() * sizeof(float), '\0');
    if (!values.empty()) std::memcpy(raw.data(), values.data(), raw.size());
    tensor.set_raw_data(raw);
    return tensor;
  }

 private:
  static void describe(onnx::ValueInfoProto* info, const std::string& name, const std::vector<int64_t>& shape,
                       int elemType) {
    info->set_name(name);
    auto* tensor = info->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(elemType);
    auto* dims = tensor->mutable_shape();
    for (int64_t d : shape) {
      if (d == kSymbolicDim) dims->add_dim()->set_dim_param("d" + std::to_string(dims->dim_size()));
      else dims->add_dim()->set_dim_value(d);
    }
  }

  onnx::ModelProto model_;
};

/// Sets an INT attribute.
inline void attr(onnx::NodeProto& node, const std::string& name, int64_t value) {
  auto* a = node.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(value);
}

/// Sets a FLOAT attribute.
inline void attr(onnx::NodeProto& node, const std::string& name, float value) {
  auto* a = node.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(value);
}

/// Sets a STRING attribute.
inline void attr(onnx::NodeProto& node, const std::string& name, const char* value) {
  auto* a = node.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s(value);
}

/// Sets an INTS attribute.
inline void attr(onnx::NodeProto& node, const std::string& name, const std::vector<int64_t>& values) {
  auto* a = node.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t v : values) a->add_ints(v);
}

/// Sets a TENSOR attribute.
inline void attr(onnx::NodeProto& node, const std::string& name, const onnx::TensorProto& value) {
  auto* a = node.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::TENSOR);
  *a->mutable_t() = value;
}

/// Adds a GRAPH attribute (a subgraph named `name`, such as an If's branch) and returns the graph.
inline onnx::GraphProto* graphAttr(onnx::NodeProto& node, const std::string& name) {
  auto* a = node.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::GRAPH);
  onnx::GraphProto* graph = a->mutable_g();
  graph->set_name(name);
  return graph;
}

}  // namespace byoc::testing
