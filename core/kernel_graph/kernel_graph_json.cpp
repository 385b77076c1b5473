#include "kernel_graph/kernel_graph_json.h"

#include <limits>
#include <nlohmann/json.hpp>

#include "ir/attr_json.h"
#include "support/json_document.h"

namespace byoc::kernel_graph {

namespace {

using json = nlohmann::json;

/// The version of the kernel graph form this build writes and the newest it reads.
constexpr int kKernelGraphVersion = 2;

json specToJson(const TensorSpec& spec) { return {{"dtype", std::string(dtypeName(spec.dtype))}, {"shape", spec.shape}}; }

json entryToJson(const KernelEntry& entry) { return json::array({entry.node, entry.output}); }

/// Reads the fields of one artifact, naming the JSON pointer of a bad value.
class KernelGraphReader {
 public:
  /// A reader of `file`, which lists `nodeCount` nodes, with constants from `params` and kernels checked against `rules`.
  KernelGraphReader(const std::string& file, std::size_t nodeCount, const SafetensorsIndex& params, const std::string& paramsFile,
                    const KernelRules& rules)
      : file_(file), nodeCount_(nodeCount), params_(params), paramsFile_(paramsFile), rules_(rules) {}

  Result<KernelGraph> read(const json& root) {
    if (!root.is_object()) return fail("", "expected a JSON object");
    BYOC_ASSIGN_OR_RETURN(const json* format, member(root, "", "format", json::value_t::string));
    if (*format != kKernelGraphFormat && *format != kKernelGraphFormatV1)
      return fail("/format", "expected \"" + std::string(kKernelGraphFormat) + "\", found " + format->dump());
    BYOC_ASSIGN_OR_RETURN(const json* version, member(root, "", "version", json::value_t::number_integer));
    if (version->get<int64_t>() > kKernelGraphVersion)
      return fail("/version", "kernel graph version " + version->dump() + " is newer than this program reads (" +
                                  std::to_string(kKernelGraphVersion) + ")");
    if (*format == kKernelGraphFormatV1 && version->get<int64_t>() != 1)
      return fail("/format", "\"" + std::string(kKernelGraphFormatV1) + "\" names version 1 of the kernel graph, the file says version " +
                                 version->dump() + "; later versions are \"" + std::string(kKernelGraphFormat) + "\"");
    KernelGraph graph;
    graph.file = file_;
    BYOC_ASSIGN_OR_RETURN(const json* nodes, member(root, "", "nodes", json::value_t::array));
    for (std::size_t i = 0; i < nodes->size(); ++i) {
      BYOC_ASSIGN_OR_RETURN(KernelNode node, readNode((*nodes)[i], "/nodes/" + std::to_string(i), graph));
      graph.nodes.push_back(std::move(node));
    }
    BYOC_ASSIGN_OR_RETURN(const json* heads, member(root, "", "heads", json::value_t::array));
    for (std::size_t i = 0; i < heads->size(); ++i) {
      BYOC_ASSIGN_OR_RETURN(KernelEntry head, readEntry((*heads)[i], "/heads/" + std::to_string(i), graph, graph.nodes.size()));
      graph.heads.push_back(head);
    }
    BYOC_ASSIGN_OR_RETURN(const json* tuple, member(root, "", "tuple_result", json::value_t::boolean));
    graph.tupleResult = tuple->get<bool>();
    if (!graph.tupleResult && graph.heads.size() != 1)
      return fail("/heads", "a region that returns no tuple has one head, found " + std::to_string(graph.heads.size()));
    return graph;
  }

 private:
  Result<KernelNode> readNode(const json& value, const std::string& path, const KernelGraph& graph) {
    if (!value.is_object()) return fail(path, "expected an object");
    KernelNode node;
    node.jsonPath = path;
    BYOC_ASSIGN_OR_RETURN(const json* op, member(value, path, "op", json::value_t::string));
    if (*op == "input") {
      node.kind = KernelNodeKind::Input;
      BYOC_ASSIGN_OR_RETURN(node.name, string(value, path, "name"));
      BYOC_ASSIGN_OR_RETURN(TensorSpec spec, readSpec(value, path));
      node.outputs = {spec};
      return node;
    }
    if (*op == "const") return readConstant(value, path, std::move(node));
    if (*op != "kernel") return fail(path + "/op", "expected \"input\", \"const\" or \"kernel\", found " + op->dump());
    BYOC_ASSIGN_OR_RETURN(node.name, string(value, path, "name"));
    if (Status known = rules_.checkName(node.name); !known) return fail(path + "/name", known.error().message);
    if (value.contains("attrs")) {
      BYOC_ASSIGN_OR_RETURN(const json* attrs, member(value, path, "attrs", json::value_t::object));
      for (const auto& [name, attr] : attrs->items()) {
        BYOC_ASSIGN_OR_RETURN(AttrValue parsed, readAttr(attr, path + "/attrs/" + name));
        node.attrs.set(name, std::move(parsed));
      }
    }
    BYOC_ASSIGN_OR_RETURN(const json* inputs, member(value, path, "inputs", json::value_t::array));
    for (std::size_t i = 0; i < inputs->size(); ++i) {
      BYOC_ASSIGN_OR_RETURN(KernelEntry entry, readEntry((*inputs)[i], path + "/inputs/" + std::to_string(i), graph, graph.nodes.size()));
      node.inputs.push_back(entry);
    }
    BYOC_ASSIGN_OR_RETURN(const json* outputs, member(value, path, "outputs", json::value_t::array));
    for (std::size_t i = 0; i < outputs->size(); ++i) {
      BYOC_ASSIGN_OR_RETURN(TensorSpec spec, readSpec((*outputs)[i], path + "/outputs/" + std::to_string(i)));
      node.outputs.push_back(std::move(spec));
    }
    if (node.outputs.empty()) return fail(path + "/outputs", "a kernel has at least one output");
    BYOC_ASSIGN_OR_RETURN(node.origin, readOrigin(value, path));
    Result<Attrs> attrs = rules_.normalizeAttrs(node.name, node.attrs);
    if (!attrs) return fail(path + "/attrs", attrs.error().message);
    node.attrs = std::move(attrs).value();
    Status fits = rules_.checkKernel(graph, node);
    if (!fits) return fail(path, fits.error().message);
    return node;
  }

  /// A constant node: its key must name a tensor of the parameters with the node's dtype and shape.
  Result<KernelNode> readConstant(const json& value, const std::string& path, KernelNode node) {
    node.kind = KernelNodeKind::Constant;
    BYOC_ASSIGN_OR_RETURN(node.name, string(value, path, "param"));
    BYOC_ASSIGN_OR_RETURN(TensorSpec spec, readSpec(value, path));
    const SafetensorsEntry* tensor = params_.find(node.name);
    if (!tensor) return fail(path + "/param", "references constant '" + node.name + "', which " + paramsFile_ + " does not hold");
    if (safetensorsDType(dtypeName(spec.dtype)) != tensor->dtype || tensor->shape != spec.shape) {
      std::string shape;
      for (int64_t dim : tensor->shape) shape += (shape.empty() ? "" : ", ") + std::to_string(dim);
      return fail(path, "constant '" + node.name + "' is " + tensor->dtype + " [" + shape + "] in " + paramsFile_ +
                            ", the node declares " + spec.str());
    }
    const std::string_view bytes = params_.bytesOf(*tensor);
    node.data = TensorData::fromBytes(spec.dtype, spec.shape, std::span(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()));
    node.outputs = {std::move(spec)};
    return node;
  }

  /// The optional `origin` of a kernel: ids of the nodes of the exported model it was built from,
  /// which the provenance of the export's host module names.
  Result<Origin> readOrigin(const json& value, const std::string& path) const {
    if (!value.contains("origin")) return Origin();
    BYOC_ASSIGN_OR_RETURN(const json* ids, member(value, path, "origin", json::value_t::array));
    std::vector<Origin> parts;
    for (std::size_t i = 0; i < ids->size(); ++i) {
      const json& id = (*ids)[i];
      if (!id.is_number_unsigned() || id.get<uint64_t>() > std::numeric_limits<NodeId>::max())
        return fail(path + "/origin/" + std::to_string(i), "expected a node id (a non-negative integer), found " + id.dump());
      parts.push_back(Origin::single(id.get<NodeId>()));
    }
    return Origin::unite(parts);
  }

  /// A `[node, output]` reference to an output of one of the first `before` nodes.
  Result<KernelEntry> readEntry(const json& value, const std::string& path, const KernelGraph& graph, std::size_t before) const {
    if (!value.is_array() || value.size() != 2 || !value[0].is_number_integer() || !value[1].is_number_integer())
      return fail(path, "expected a [node, output] pair of integers");
    const int64_t node = value[0].get<int64_t>();
    const int64_t output = value[1].get<int64_t>();
    if (node < 0 || node >= static_cast<int64_t>(before)) {
      const bool later = node >= 0 && node < static_cast<int64_t>(nodeCount_);
      return fail(path, "refers to node " + std::to_string(node) + (later ? ", which comes later" : ", which does not exist"));
    }
    const std::size_t outputs = graph.nodes[static_cast<std::size_t>(node)].outputs.size();
    if (output < 0 || output >= static_cast<int64_t>(outputs))
      return fail(path, "refers to output " + std::to_string(output) + " of node " + std::to_string(node) + ", which has " +
                            std::to_string(outputs));
    return KernelEntry{static_cast<int>(node), static_cast<int>(output)};
  }

  Result<TensorSpec> readSpec(const json& value, const std::string& path) const {
    TensorSpec spec;
    BYOC_ASSIGN_OR_RETURN(std::string dtype, string(value, path, "dtype"));
    const std::optional<DType> parsed = parseDType(dtype);
    if (!parsed) return fail(path + "/dtype", "unknown dtype \"" + dtype + "\"");
    spec.dtype = *parsed;
    BYOC_ASSIGN_OR_RETURN(const json* shape, member(value, path, "shape", json::value_t::array));
    for (const json& dim : *shape) {
      if (!dim.is_number_integer() || dim.get<int64_t>() < 0) return fail(path + "/shape", "expected non-negative integers");
      spec.shape.push_back(dim.get<int64_t>());
    }
    return spec;
  }

  Result<AttrValue> readAttr(const json& value, const std::string& path) const {
    std::variant<AttrValue, AttrJsonMismatch> read = attrValueFromJson(value);
    if (const auto* mismatch = std::get_if<AttrJsonMismatch>(&read))
      return fail(path + mismatch->pointer, "expected an attribute value, found " + mismatch->found);
    return std::get<AttrValue>(std::move(read));
  }

  Result<std::string> string(const json& object, const std::string& path, const char* key) const {
    BYOC_ASSIGN_OR_RETURN(const json* value, member(object, path, key, json::value_t::string));
    return value->get<std::string>();
  }

  Result<const json*> member(const json& object, const std::string& path, const char* key, json::value_t type) const {
    if (!object.is_object()) return fail(path, "expected an object");
    auto found = object.find(key);
    if (found == object.end()) return fail(path + "/" + key, "missing");
    const bool matches = type == json::value_t::number_integer ? found->is_number_integer() : found->type() == type;
    if (!matches) {
      static const std::map<json::value_t, const char*> names = {{json::value_t::string, "a string"},
                                                                  {json::value_t::number_integer, "an integer"},
                                                                  {json::value_t::array, "an array"},
                                                                  {json::value_t::object, "an object"},
                                                                  {json::value_t::boolean, "true or false"}};
      return fail(path + "/" + key, std::string("expected ") + names.at(type));
    }
    return &*found;
  }

  Diagnostic fail(const std::string& path, const std::string& message) const {
    return makeError((path.empty() ? std::string() : path + ": ") + message, {file_});
  }

  std::string file_;
  /// How many nodes the file lists (to tell a later node from a missing one).
  std::size_t nodeCount_;
  const SafetensorsIndex& params_;
  std::string paramsFile_;
  const KernelRules& rules_;
};

}  // namespace

bool isKernelGraphJson(std::string_view text) {
  const json root = json::parse(text, nullptr, /*allow_exceptions=*/false);
  return root.is_object() && root.contains("format") && (root["format"] == kKernelGraphFormat || root["format"] == kKernelGraphFormatV1);
}

Result<std::string> writeKernelGraphJson(const KernelGraph& graph, ParamCollector& params) {
  json nodes = json::array();
  for (const KernelNode& node : graph.nodes) {
    json entry;
    switch (node.kind) {
      case KernelNodeKind::Input:
        entry = specToJson(node.outputs.front());
        entry["op"] = "input";
        entry["name"] = node.name;
        break;
      case KernelNodeKind::Constant: {
        entry = specToJson(node.outputs.front());
        entry["op"] = "const";
        const std::span<const std::byte> bytes = node.data.bytes();
        BYOC_ASSIGN_OR_RETURN(entry["param"], params.add(std::string(dtypeName(node.data.dtype())), node.data.shape(),
                                                         std::vector<std::byte>(bytes.begin(), bytes.end())));
        break;
      }
      case KernelNodeKind::Kernel: {
        entry["op"] = "kernel";
        entry["name"] = node.name;
        json attrs = json::object();
        for (const auto& [name, value] : node.attrs.entries()) attrs[name] = attrValueToJson(value);
        entry["attrs"] = std::move(attrs);
        entry["inputs"] = json::array();
        for (const KernelEntry& input : node.inputs) entry["inputs"].push_back(entryToJson(input));
        entry["outputs"] = json::array();
        for (const TensorSpec& output : node.outputs) entry["outputs"].push_back(specToJson(output));
        break;
      }
    }
    if (node.kind == KernelNodeKind::Kernel && !node.origin.empty())
      entry["origin"] = std::vector<NodeId>(node.origin.ids().begin(), node.origin.ids().end());
    nodes.push_back(std::move(entry));
  }
  json heads = json::array();
  for (const KernelEntry& head : graph.heads) heads.push_back(entryToJson(head));
  // One node per line: the file reads (and diffs) as the list of kernels it is.
  std::string text = "{\n  \"format\": " + json(kKernelGraphFormat).dump() + ",\n  \"version\": " +
                     std::to_string(kKernelGraphVersion) + ",\n  \"nodes\": [";
  for (std::size_t i = 0; i < nodes.size(); ++i) text += (i ? ",\n    " : "\n    ") + nodes[i].dump();
  text += "\n  ],\n  \"heads\": " + heads.dump() + ",\n  \"tuple_result\": " + json(graph.tupleResult).dump() + "\n}\n";
  return text;
}

Result<KernelGraph> readKernelGraphJson(std::string_view text, const std::string& file, const SafetensorsIndex& params,
                                        const std::string& paramsFile, const KernelRules& rules) {
  BYOC_ASSIGN_OR_RETURN(json root, parseJsonDocument(text, file));
  const bool listsNodes = root.is_object() && root.contains("nodes") && root["nodes"].is_array();
  return KernelGraphReader(file, listsNodes ? root["nodes"].size() : 0, params, paramsFile, rules).read(root);
}

}  // namespace byoc::kernel_graph
