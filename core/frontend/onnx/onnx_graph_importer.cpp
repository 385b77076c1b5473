#include "frontend/onnx/onnx_graph_importer.h"

#include <algorithm>
#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "frontend/onnx/onnx_control_flow.h"
#include "frontend/onnx/onnx_converters.h"
#include "frontend/onnx/onnx_tensor.h"
#include "support/limits.h"

namespace byoc::onnx_import {

namespace {

const OnnxImportProgress kNoProgress;

bool isDefaultDomain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

std::string qualifiedOpType(const onnx::NodeProto& node) {
  return isDefaultDomain(node.domain()) ? node.op_type() : node.domain() + "." + node.op_type();
}

/// "node 'conv1' (Conv)", or "node #3 (Conv)" for a node without a name: how errors name a node.
std::string nodeLabel(const onnx::NodeProto& node, int index) {
  return "node " + (node.name().empty() ? "#" + std::to_string(index) : "'" + node.name() + "'") + " (" +
         node.op_type() + ")";
}

/// The converters of the ops that hold subgraphs.
using ControlFlowConverter = Result<OnnxOutputs> (*)(const OnnxNodeContext&, SubgraphImporter&);
const std::map<std::string, ControlFlowConverter>& controlFlowConverters() {
  static const std::map<std::string, ControlFlowConverter> table = {
      {"If", importIf}, {"Loop", importLoop}, {"Scan", importScan}};
  return table;
}

class GraphImporter final : public SubgraphImporter {
 public:
  GraphImporter(const onnx::GraphProto& graph, int64_t opset, std::string fileName, std::string externalDataDir,
                const OnnxImportProgress& progress)
      : graph_(graph), opset_(opset), fileName_(std::move(fileName)), externalDataDir_(std::move(externalDataDir)),
        progress_(progress), provenance_(std::make_shared<Provenance>()), nextId_(&rootNextId_),
        convertedNodes_(&rootConvertedNodes_) {}

  /// The importer of `graph`, a subgraph of a node of `parent`: it sees the values of the
  /// enclosing graphs and records its nodes in the same provenance table.
  GraphImporter(const onnx::GraphProto& graph, const GraphImporter& parent)
      : graph_(graph), opset_(parent.opset_), fileName_(parent.fileName_), externalDataDir_(parent.externalDataDir_),
        progress_(kNoProgress), provenance_(parent.provenance_), nextId_(parent.nextId_),
        convertedNodes_(parent.convertedNodes_), parent_(&parent), depth_(parent.depth_ + 1) {}

  Result<std::vector<OnnxValue>> import(const onnx::GraphProto& graph, const std::vector<OnnxValue>& inputs) override {
    return GraphImporter(graph, *this).subgraphOutputs(inputs);
  }

  NodeId checkpoint() const override { return *nextId_; }

  void rollBack(NodeId mark) override {
    for (NodeId id = mark; id < *nextId_; ++id) {
      provenance_->locations.erase(id);
      provenance_->names.erase(id);
      provenance_->sourceOps.erase(id);
    }
    *nextId_ = mark;
  }

  Result<Module> run() {
    BYOC_TRY(checkSupport());
    BYOC_TRY(importInitializers());
    BYOC_ASSIGN_OR_RETURN(std::vector<Var> params, importInputs());
    auto total = static_cast<std::size_t>(graph_.node_size());
    for (int i = 0; i < graph_.node_size(); ++i) {
      BYOC_TRY(importNode(graph_.node(i), i));
      auto done = static_cast<std::size_t>(i) + 1;
      if (progress_ && !progress_(done, total))
        return error("import cancelled after " + std::to_string(done) + " of " + std::to_string(total) + " nodes");
    }
    BYOC_ASSIGN_OR_RETURN(Expr body, outputs());
    Module module;
    module.set("main", FunctionNode::make(std::move(params), std::move(body)));
    module.setProvenance(std::move(provenance_));
    return module;
  }

 private:
  Diagnostic error(const std::string& message) const { return makeError(message, {fileName_}); }

  /// The outputs of this graph, a subgraph whose graph inputs take `inputs`.
  Result<std::vector<OnnxValue>> subgraphOutputs(const std::vector<OnnxValue>& inputs) {
    if (depth_ > limits::kMaxNestingDepth)
      return error("subgraphs nest deeper than " + std::to_string(limits::kMaxNestingDepth) + " levels");
    if (static_cast<std::size_t>(graph_.input_size()) != inputs.size())
      return error("declares " + std::to_string(graph_.input_size()) + " inputs; expected " + std::to_string(inputs.size()));
    BYOC_TRY(checkSupport());
    BYOC_TRY(importInitializers());
    for (int i = 0; i < graph_.input_size(); ++i) {
      const auto& input = graph_.input(i);
      BYOC_TRY(defineName(input.name(), "graph input #" + std::to_string(i)));
      const OnnxValue& value = inputs[static_cast<std::size_t>(i)];
      BYOC_TRY(checkDeclaredDtype(i, value));
      values_[input.name()] = value;
    }
    for (int i = 0; i < graph_.node_size(); ++i) BYOC_TRY(importNode(graph_.node(i), i));
    std::vector<OnnxValue> outputs;
    for (int i = 0; i < graph_.output_size(); ++i) {
      const OnnxValue* found = lookup(graph_.output(i).name());
      if (!found) return error("output '" + graph_.output(i).name() + "' is not produced by any node");
      outputs.push_back(*found);
    }
    return outputs;
  }

  /// The error for graph input `index` of a subgraph declaring another element type than `value`'s.
  Status checkDeclaredDtype(int index, const OnnxValue& value) const {
    const auto& input = graph_.input(index);
    const int declared = input.type().tensor_type().elem_type();
    if (declared == onnx::TensorProto::UNDEFINED || !value.tensor()) return Status::ok();
    Result<DType> dtype = dtypeFromOnnx(declared);
    if (dtype && *dtype == value.tensor()->dtype) return Status::ok();
    return error("graph input #" + std::to_string(index) + " ('" + input.name() + "') is declared as " +
                 (dtype ? std::string(dtypeName(*dtype)) : "element type " + std::to_string(declared)) + "; expected " +
                 std::string(dtypeName(value.tensor()->dtype)) + ", the element type of the value it takes");
  }

  /// A fresh origin for a model element, recorded with its name (and op type for nodes).
  Origin newOrigin(const std::string& name, const std::string& opType = {}) {
    NodeId id = (*nextId_)++;
    provenance_->locations[id] = SourceLocation{fileName_};
    if (!name.empty()) provenance_->names[id] = name;
    if (!opType.empty()) provenance_->sourceOps[id] = opType;
    return Origin::single(id);
  }

  /// One error listing every op type without a converter, with its number of nodes.
  Status checkSupport() const {
    std::map<std::string, int> unsupported;
    for (const auto& node : graph_.node()) {
      const std::string opType = qualifiedOpType(node);
      if (!controlFlowConverters().count(opType) && !onnxConverters().count(opType)) ++unsupported[opType];
    }
    if (unsupported.empty()) return Status::ok();
    std::vector<std::pair<std::string, int>> rows(unsupported.begin(), unsupported.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    int total = 0;
    std::string list;
    for (const auto& [opType, count] : rows) {
      list += (list.empty() ? "" : ", ") + opType + " (" + std::to_string(count) + ")";
      total += count;
    }
    return error("unsupported ONNX ops in " + std::to_string(total) + " node" + (total == 1 ? "" : "s") + ": " + list);
  }

  /// Checks that `name`, about to be defined by `what`, is not empty and not taken.
  Status defineName(const std::string& name, const std::string& what) const {
    if (name.empty()) return error(what + " has no name");
    if (values_.count(name))
      return error(what + " ('" + name + "') reuses the name of " + definitionOf(name) + "; expected unique names");
    return Status::ok();
  }

  /// What first defines the value `name`, for errors: an initializer, a graph input or a node.
  std::string definitionOf(const std::string& name) const {
    for (int i = 0; i < graph_.initializer_size(); ++i)
      if (graph_.initializer(i).name() == name) return "initializer #" + std::to_string(i);
    for (int i = 0; i < graph_.input_size(); ++i)
      if (graph_.input(i).name() == name) return "graph input #" + std::to_string(i);
    for (int i = 0; i < graph_.node_size(); ++i) {
      const auto& outputs = graph_.node(i).output();
      if (std::find(outputs.begin(), outputs.end(), name) != outputs.end()) return nodeLabel(graph_.node(i), i);
    }
    return "'" + name + "'";
  }

  /// "node 'dq' (DequantizeLinear): " for the first node reading `name`, or "" when none does.
  std::string consumerOf(const std::string& name) const {
    for (int i = 0; i < graph_.node_size(); ++i) {
      const auto& inputs = graph_.node(i).input();
      if (std::find(inputs.begin(), inputs.end(), name) != inputs.end()) return nodeLabel(graph_.node(i), i) + ": ";
    }
    return "";
  }

  Status importInitializers() {
    for (int i = 0; i < graph_.initializer_size(); ++i) {
      const auto& initializer = graph_.initializer(i);
      BYOC_TRY(defineName(initializer.name(), "initializer #" + std::to_string(i)));
      // An element type the import does not know (int4, float8) is named with the node reading it.
      if (Result<DType> dtype = dtypeFromOnnx(initializer.data_type()); !dtype)
        return error(consumerOf(initializer.name()) + "initializer '" + initializer.name() + "': " + dtype.error().message);
      Result<TensorData> data = tensorFromProto(initializer, externalDataDir_);
      if (!data) return error("initializer '" + initializer.name() + "': " + data.error().message);
      Type type = tensorType(data->shape(), data->dtype());
      Origin origin = newOrigin(initializer.name());
      initializerNames_.insert(initializer.name());
      values_[initializer.name()] = OnnxValue{ConstantNode::make(*data, origin, initializer.name()), type};
    }
    return Status::ok();
  }

  Result<Type> inputType(const onnx::ValueInfoProto& input) const {
    if (!input.type().has_tensor_type()) return error("graph input '" + input.name() + "' is not a tensor");
    const auto& tensor = input.type().tensor_type();
    Result<DType> dtype = dtypeFromOnnx(tensor.elem_type());
    if (!dtype) return error("graph input '" + input.name() + "': " + dtype.error().message);
    if (!tensor.has_shape()) return error("graph input '" + input.name() + "' has no shape");
    Shape shape;
    for (const auto& dim : tensor.shape().dim()) {
      if (dim.has_dim_value() && dim.dim_value() < 0)
        return error("graph input '" + input.name() + "': dimension " + std::to_string(shape.size()) + " is " +
                     std::to_string(dim.dim_value()) + ", expected 0 or more (or a symbolic dimension)");
      shape.push_back(dim.has_dim_value() ? dim.dim_value() : kAnyDim);
    }
    Status limited = checkShape(shape, true);
    if (!limited) return error("graph input '" + input.name() + "': " + limited.error().message);
    return tensorType(std::move(shape), *dtype);
  }

  /// Graph inputs that are not initializers (older exporters list both) become parameters.
  Result<std::vector<Var>> importInputs() {
    std::vector<Var> params;
    for (int i = 0; i < graph_.input_size(); ++i) {
      const auto& input = graph_.input(i);
      if (initializerNames_.count(input.name())) continue;
      BYOC_TRY(defineName(input.name(), "graph input #" + std::to_string(i)));
      BYOC_ASSIGN_OR_RETURN(Type type, inputType(input));
      Var var = VarNode::make(input.name(), type, newOrigin(input.name()));
      values_[input.name()] = OnnxValue{var, type};
      params.push_back(var);
    }
    return params;
  }

  /// The error for an input that names no value defined so far: a later node's output means a
  /// cycle or nodes out of order.
  Diagnostic undefinedInput(const std::string& label, const std::string& name, int index) const {
    for (int later = index; later < graph_.node_size(); ++later) {
      const auto& outputs = graph_.node(later).output();
      if (std::find(outputs.begin(), outputs.end(), name) != outputs.end())
        return error(label + ": input '" + name + "' is produced by " + nodeLabel(graph_.node(later), later) +
                     ", which does not come before it; expected nodes in topological order, without cycles");
    }
    return error(label + ": input '" + name + "' is not a graph input, an initializer or the output of an earlier node");
  }

  /// The value `name` of this graph or of an enclosing one, or null.
  const OnnxValue* lookup(const std::string& name) const {
    for (const GraphImporter* scope = this; scope; scope = scope->parent_) {
      auto found = scope->values_.find(name);
      if (found != scope->values_.end()) return &found->second;
    }
    return nullptr;
  }

  Status importNode(const onnx::NodeProto& node, int index) {
    std::string label = nodeLabel(node, index);
    if (++*convertedNodes_ > limits::kMaxConvertedNodes)
      return error(label + ": the import converts more than " + std::to_string(limits::kMaxConvertedNodes) +
                   " nodes (a loop body counts once per import of it), the limit of one import");
    std::vector<std::optional<OnnxValue>> inputs;
    for (const std::string& name : node.input()) {
      if (name.empty()) {
        inputs.emplace_back();
        continue;
      }
      const OnnxValue* found = lookup(name);
      if (!found) return undefinedInput(label, name, index);
      inputs.emplace_back(*found);
    }
    std::string provenanceName = node.name().empty() && node.output_size() > 0 ? node.output(0) : node.name();
    OnnxNodeContext context(node, std::move(inputs), opset_,
                            [this, name = provenanceName, opType = node.op_type()] { return newOrigin(name, opType); });
    Result<OnnxOutputs> outputs = OnnxOutputs{};
    if (auto control = controlFlowConverters().find(qualifiedOpType(node)); control != controlFlowConverters().end())
      outputs = control->second(context.withSharedOrigin(), *this);
    else if (auto folder = onnxFolders().find(node.op_type()); folder != onnxFolders().end()) outputs = folder->second(context);
    if (outputs && outputs->empty()) outputs = onnxConverters().find(qualifiedOpType(node))->second(context);
    if (!outputs) return error(label + ": " + outputs.error().message);
    for (int i = 0; i < node.output_size(); ++i) {
      if (node.output(i).empty()) continue;
      BYOC_TRY(defineName(node.output(i), label + ": output " + std::to_string(i)));
      if (static_cast<std::size_t>(i) >= outputs->size())
        return error(label + ": output " + std::to_string(i) + " ('" + node.output(i) + "') is not supported");
      values_[node.output(i)] = (*outputs)[static_cast<std::size_t>(i)];
    }
    return Status::ok();
  }

  Result<Expr> outputs() const {
    std::vector<Expr> fields;
    for (int i = 0; i < graph_.output_size(); ++i) {
      const auto& output = graph_.output(i);
      if (output.name().empty()) return error("graph output #" + std::to_string(i) + " has no name");
      auto found = values_.find(output.name());
      if (found == values_.end()) return error("graph output '" + output.name() + "' is not produced by any node");
      fields.push_back(found->second.expr);
    }
    if (fields.empty()) return error("the graph has no outputs");
    if (fields.size() == 1) return fields[0];
    return Expr(TupleNode::make(std::move(fields)));
  }

  const onnx::GraphProto& graph_;
  const int64_t opset_;
  const std::string fileName_;
  const std::string externalDataDir_;
  const OnnxImportProgress& progress_;
  std::shared_ptr<Provenance> provenance_;
  /// The next origin id: the root importer's counter, which branches share.
  NodeId rootNextId_ = 0;
  NodeId* nextId_;
  /// How many nodes the import converted so far, a loop body's as often as it was imported: the
  /// root importer's counter, which subgraphs share.
  int64_t rootConvertedNodes_ = 0;
  int64_t* convertedNodes_;
  /// The importer of the enclosing graph (null for the main graph).
  const GraphImporter* parent_ = nullptr;
  /// How many subgraphs enclose this graph.
  int depth_ = 0;
  std::unordered_map<std::string, OnnxValue> values_;
  /// Older exporters also list initializers as graph inputs; those are not parameters.
  std::unordered_set<std::string> initializerNames_;
};

}  // namespace

Result<Module> importGraph(const onnx::GraphProto& graph, int64_t opset, const std::string& fileName,
                           const std::string& externalDataDir, const OnnxImportProgress& progress) {
  return GraphImporter(graph, opset, fileName, externalDataDir, progress).run();
}

}  // namespace byoc::onnx_import
