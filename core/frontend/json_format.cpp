#include "frontend/json_format.h"

#include <nlohmann/json.hpp>
#include <unordered_map>

#include "ir/attr_json.h"
#include "ir/op.h"
#include "ir/traversal.h"
#include "support/base64.h"
#include "support/json_document.h"
#include "support/limits.h"

namespace byoc {

namespace {

using json = nlohmann::ordered_json;

constexpr const char* kFormatName = "byoc-studio-module";

// =============================================================================================
// Writing
// =============================================================================================

json typeToJson(const Type& type) {
  if (!type) return nullptr;
  switch (type->kind()) {
    case TypeNode::Kind::Tensor: {
      const auto* tensor = type->as<TensorTypeNode>();
      return json{{"shape", tensor->shape}, {"dtype", dtypeName(tensor->dtype)}};
    }
    case TypeNode::Kind::Tuple: {
      json fields = json::array();
      for (const Type& field : type->as<TupleTypeNode>()->fields) fields.push_back(typeToJson(field));
      return json{{"tuple", std::move(fields)}};
    }
    case TypeNode::Kind::Func: {
      const auto* func = type->as<FuncTypeNode>();
      json params = json::array();
      for (const Type& param : func->params) params.push_back(typeToJson(param));
      return json{{"params", std::move(params)}, {"ret", typeToJson(func->ret)}};
    }
  }
  return nullptr;
}

/// Attributes as [name, value] pairs, which keeps their order.
json attrsToJson(const Attrs& attrs) {
  json pairs = json::array();
  for (const auto& [name, value] : attrs.entries()) pairs.push_back(json::array({name, attrValueToJson(value)}));
  return pairs;
}

class ModuleWriter {
 public:
  json write(const Module& module) {
    json root;
    root["format"] = kFormatName;
    root["version"] = kJsonFormatVersion;
    root["attrs"] = attrsToJson(module.attrs());
    json functions = json::array();
    for (const auto& [name, function] : module.functions()) functions.push_back(writeFunction(name, function));
    root["functions"] = std::move(functions);
    root["constants"] = std::move(constants_);
    root["provenance"] = writeProvenance(module.provenance().get());
    return root;
  }

 private:
  json writeFunction(const std::string& name, const Function& function) {
    std::unordered_map<const ExprNode*, std::size_t> index;
    json nodes = json::array();
    postOrderVisit(function, [&](const Expr& node) {
      json entry = writeNode(node, index);
      index.emplace(node.get(), nodes.size());
      nodes.push_back(std::move(entry));
    });
    return json{{"name", name}, {"nodes", std::move(nodes)}};
  }

  json writeNode(const Expr& node, const std::unordered_map<const ExprNode*, std::size_t>& index) {
    auto ref = [&](const Expr& child) { return index.at(child.get()); };
    auto refs = [&](const auto& children) {
      json list = json::array();
      for (const auto& child : children) list.push_back(ref(child));
      return list;
    };
    json entry;
    switch (node->kind()) {
      case ExprKind::Var: {
        const auto& var = *node->as<VarNode>();
        entry = {{"kind", "var"}, {"name", var.name}, {"annotation", typeToJson(var.annotation)}};
        break;
      }
      case ExprKind::GlobalVar:
        entry = {{"kind", "global"}, {"name", node->as<GlobalVarNode>()->name}};
        break;
      case ExprKind::Constant:
        entry = {{"kind", "constant"}, {"index", addConstant(*node->as<ConstantNode>())}};
        break;
      case ExprKind::Op:
        entry = {{"kind", "op"}, {"name", node->as<OpNode>()->name()}};
        break;
      case ExprKind::Call: {
        const auto& call = *node->as<CallNode>();
        entry = {{"kind", "call"}, {"callee", ref(call.callee)}, {"args", refs(call.args)}, {"attrs", attrsToJson(call.attrs)}};
        break;
      }
      case ExprKind::Tuple:
        entry = {{"kind", "tuple"}, {"fields", refs(node->as<TupleNode>()->fields)}};
        break;
      case ExprKind::TupleGetItem: {
        const auto& item = *node->as<TupleGetItemNode>();
        entry = {{"kind", "tuple_get_item"}, {"tuple", ref(item.tuple)}, {"index", item.index}};
        break;
      }
      case ExprKind::Function: {
        const auto& function = *node->as<FunctionNode>();
        entry = {{"kind", "function"},
                 {"params", refs(function.params)},
                 {"body", ref(function.body)},
                 {"ret_type", typeToJson(function.retType)},
                 {"attrs", attrsToJson(function.attrs)}};
        break;
      }
      case ExprKind::If: {
        const auto& branch = *node->as<IfNode>();
        entry = {{"kind", "if"}, {"cond", ref(branch.cond)}, {"then", ref(branch.thenBranch)}, {"else", ref(branch.elseBranch)}};
        break;
      }
      case ExprKind::Let: {
        const auto& let = *node->as<LetNode>();
        entry = {{"kind", "let"}, {"var", ref(let.var)}, {"value", ref(let.value)}, {"body", ref(let.body)}};
        break;
      }
    }
    if (node->kind() != ExprKind::Constant && node->kind() != ExprKind::Op) entry["type"] = typeToJson(node->type());
    auto origin = node->origin().ids();
    entry["origin"] = std::vector<NodeId>(origin.begin(), origin.end());
    return entry;
  }

  std::size_t addConstant(const ConstantNode& constant) {
    auto [it, inserted] = constantIndex_.emplace(&constant, constants_.size());
    if (inserted) {
      json entry;
      entry["name"] = constant.name;
      entry["dtype"] = dtypeName(constant.data.dtype());
      entry["shape"] = constant.data.shape();
      entry["data"] = base64Encode(constant.data.bytes());
      constants_.push_back(std::move(entry));
    }
    return it->second;
  }

  static json writeProvenance(const Provenance* provenance) {
    json locations = json::array();
    json names = json::array();
    if (provenance) {
      std::vector<std::pair<NodeId, SourceLocation>> sortedLocations(provenance->locations.begin(),
                                                                     provenance->locations.end());
      std::sort(sortedLocations.begin(), sortedLocations.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      for (const auto& [id, where] : sortedLocations)
        locations.push_back(json::array({id, where.file, where.line, where.column}));
      std::vector<std::pair<NodeId, std::string>> sortedNames(provenance->names.begin(), provenance->names.end());
      std::sort(sortedNames.begin(), sortedNames.end());
      for (const auto& [id, name] : sortedNames) names.push_back(json::array({id, name}));
    }
    return json{{"locations", std::move(locations)}, {"names", std::move(names)}};
  }

  json constants_ = json::array();
  std::unordered_map<const ConstantNode*, std::size_t> constantIndex_;
};

// =============================================================================================
// Reading
// =============================================================================================

/// Reads the JSON form back, checking every value; errors carry the JSON path.
class ModuleReader {
 public:
  explicit ModuleReader(std::string_view fileName) : fileName_(fileName) {}

  Result<Module> read(std::string_view text) {
    BYOC_ASSIGN_OR_RETURN(json root, parseJsonDocument<json>(text, fileName_));
    if (!root.is_object()) return fail("", "expected a JSON object");
    BYOC_ASSIGN_OR_RETURN(const json* format, field(root, "", "format", json::value_t::string));
    if (format->get<std::string>() != kFormatName)
      return fail("/format", "expected \"" + std::string(kFormatName) + "\", found \"" + format->get<std::string>() + "\"");
    BYOC_ASSIGN_OR_RETURN(const json* version, field(root, "", "version", json::value_t::number_unsigned));
    if (version->get<uint64_t>() > static_cast<uint64_t>(kJsonFormatVersion))
      return fail("/version", "version " + std::to_string(version->get<uint64_t>()) + " is newer than this program reads (" +
                                  std::to_string(kJsonFormatVersion) + ")");

    BYOC_ASSIGN_OR_RETURN(const json* constants, field(root, "", "constants", json::value_t::array));
    for (std::size_t i = 0; i < constants->size(); ++i) {
      const std::string path = "/constants/" + std::to_string(i);
      BYOC_ASSIGN_OR_RETURN(TensorData data, readConstant((*constants)[i], path));
      std::string name;
      if ((*constants)[i].contains("name")) {
        BYOC_ASSIGN_OR_RETURN(const json* nameValue, field((*constants)[i], path, "name", json::value_t::string));
        name = nameValue->get<std::string>();
      }
      constants_.push_back({std::move(data), std::move(name)});
    }

    Module module;
    BYOC_ASSIGN_OR_RETURN(const json* attrs, field(root, "", "attrs", json::value_t::array));
    BYOC_ASSIGN_OR_RETURN(Attrs moduleAttrs, readAttrs(*attrs, "/attrs"));
    module.setAttrs(std::move(moduleAttrs));
    BYOC_ASSIGN_OR_RETURN(const json* functions, field(root, "", "functions", json::value_t::array));
    for (std::size_t i = 0; i < functions->size(); ++i) {
      std::string path = "/functions/" + std::to_string(i);
      const json& entry = (*functions)[i];
      if (!entry.is_object()) return fail(path, "expected an object");
      BYOC_ASSIGN_OR_RETURN(const json* name, field(entry, path, "name", json::value_t::string));
      BYOC_ASSIGN_OR_RETURN(Function function, readFunction(entry, path));
      if (module.find(name->get<std::string>())) return fail(path + "/name", "@" + name->get<std::string>() + " appears twice");
      module.set(name->get<std::string>(), std::move(function));
    }
    if (root.contains("provenance")) {
      BYOC_ASSIGN_OR_RETURN(std::shared_ptr<Provenance> provenance, readProvenance(root["provenance"]));
      module.setProvenance(std::move(provenance));
    }
    return module;
  }

 private:
  struct LoadedConstant {
    TensorData data;
    std::string name;
  };

  Diagnostic fail(const std::string& path, const std::string& message) const {
    return makeError(path.empty() ? message : "at " + path + ": " + message, {std::string(fileName_)});
  }

  static const char* typeName(json::value_t type) {
    switch (type) {
      case json::value_t::string: return "a string";
      case json::value_t::array: return "an array";
      case json::value_t::object: return "an object";
      case json::value_t::number_unsigned: return "a non-negative integer";
      case json::value_t::boolean: return "true or false";
      default: return "a value";
    }
  }

  static bool hasType(const json& value, json::value_t type) {
    if (type == json::value_t::number_unsigned) return value.is_number_unsigned();
    return value.type() == type;
  }

  Result<const json*> field(const json& object, const std::string& path, const char* key, json::value_t type) const {
    if (!object.contains(key)) return fail(path + "/" + key, "missing");
    const json& value = object[key];
    if (!hasType(value, type)) return fail(path + "/" + key, std::string("expected ") + typeName(type) + ", found " + value.dump());
    return &value;
  }

  Result<TensorData> readConstant(const json& entry, const std::string& path) const {
    if (!entry.is_object()) return fail(path, "expected an object");
    BYOC_ASSIGN_OR_RETURN(const json* dtypeText, field(entry, path, "dtype", json::value_t::string));
    auto dtype = parseDType(dtypeText->get<std::string>());
    if (!dtype) return fail(path + "/dtype", "unknown dtype \"" + dtypeText->get<std::string>() + "\"");
    BYOC_ASSIGN_OR_RETURN(Shape shape, readShape(entry, path));
    if (std::string problem = limits::shapeProblem(shape); !problem.empty()) return fail(path + "/shape", problem);
    const int64_t count = *limits::elementCount(shape);
    BYOC_ASSIGN_OR_RETURN(const json* data, field(entry, path, "data", json::value_t::string));
    auto bytes = base64Decode(data->get<std::string>());
    if (!bytes) return fail(path + "/data", "not valid base64");
    int64_t expected = count * static_cast<int64_t>(dtypeSize(*dtype));
    if (static_cast<int64_t>(bytes->size()) != expected)
      return fail(path + "/data", "holds " + std::to_string(bytes->size()) + " bytes, expected " + std::to_string(expected) +
                                      " for shape and dtype");
    return TensorData::fromBytes(*dtype, std::move(shape), *bytes);
  }

  /// The integers of `object["shape"]`; whether they make an allowed shape is the caller's to check.
  Result<Shape> readShape(const json& object, const std::string& path) const {
    BYOC_ASSIGN_OR_RETURN(const json* dims, field(object, path, "shape", json::value_t::array));
    Shape shape;
    for (std::size_t i = 0; i < dims->size(); ++i) {
      const json& dim = (*dims)[i];
      if (!dim.is_number_integer() || (dim.is_number_unsigned() && dim.get<uint64_t>() > INT64_MAX))
        return fail(path + "/shape/" + std::to_string(i), "expected a dimension size, found " + dim.dump());
      shape.push_back(dim.get<int64_t>());
    }
    return shape;
  }

  Result<Type> readType(const json& value, const std::string& path) const {
    if (value.is_null()) return Type();
    if (!value.is_object()) return fail(path, "expected a type object or null, found " + value.dump());
    if (value.contains("dtype")) {
      auto dtype = value["dtype"].is_string() ? parseDType(value["dtype"].get<std::string>()) : std::nullopt;
      if (!dtype) return fail(path + "/dtype", "unknown dtype " + value["dtype"].dump());
      BYOC_ASSIGN_OR_RETURN(Shape shape, readShape(value, path));
      if (std::string problem = limits::typeShapeProblem(shape); !problem.empty()) return fail(path + "/shape", problem);
      return tensorType(std::move(shape), *dtype);
    }
    if (value.contains("tuple")) {
      BYOC_ASSIGN_OR_RETURN(const json* fields, field(value, path, "tuple", json::value_t::array));
      std::vector<Type> types;
      for (std::size_t i = 0; i < fields->size(); ++i) {
        BYOC_ASSIGN_OR_RETURN(Type type, readType((*fields)[i], path + "/tuple/" + std::to_string(i)));
        types.push_back(std::move(type));
      }
      return tupleType(std::move(types));
    }
    if (value.contains("params")) {
      BYOC_ASSIGN_OR_RETURN(const json* params, field(value, path, "params", json::value_t::array));
      std::vector<Type> types;
      for (std::size_t i = 0; i < params->size(); ++i) {
        BYOC_ASSIGN_OR_RETURN(Type type, readType((*params)[i], path + "/params/" + std::to_string(i)));
        types.push_back(std::move(type));
      }
      if (!value.contains("ret")) return fail(path + "/ret", "missing");
      BYOC_ASSIGN_OR_RETURN(Type ret, readType(value["ret"], path + "/ret"));
      return funcType(std::move(types), std::move(ret));
    }
    return fail(path, "expected a tensor, tuple or function type");
  }

  Result<AttrValue> readAttrValue(const json& value, const std::string& path) const {
    std::variant<AttrValue, AttrJsonMismatch> read = attrValueFromJson(value);
    if (const auto* mismatch = std::get_if<AttrJsonMismatch>(&read))
      return fail(path + mismatch->pointer, "expected an attribute value, found " + mismatch->found);
    return std::get<AttrValue>(std::move(read));
  }

  Result<Attrs> readAttrs(const json& pairs, const std::string& path) const {
    Attrs attrs;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      std::string at = path + "/" + std::to_string(i);
      const json& pair = pairs[i];
      if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string())
        return fail(at, "expected a [name, value] pair, found " + pair.dump());
      BYOC_ASSIGN_OR_RETURN(AttrValue value, readAttrValue(pair[1], at + "/1"));
      attrs.set(pair[0].get<std::string>(), std::move(value));
    }
    return attrs;
  }

  Result<std::shared_ptr<Provenance>> readProvenance(const json& value) const {
    auto provenance = std::make_shared<Provenance>();
    if (!value.is_object()) return fail("/provenance", "expected an object");
    if (value.contains("locations")) {
      const json& list = value["locations"];
      for (std::size_t i = 0; list.is_array() && i < list.size(); ++i) {
        const json& row = list[i];
        if (!row.is_array() || row.size() != 4 || !row[0].is_number_unsigned() || !row[1].is_string() ||
            !row[2].is_number_integer() || !row[3].is_number_integer())
          return fail("/provenance/locations/" + std::to_string(i), "expected [id, file, line, column]");
        provenance->locations[row[0].get<NodeId>()] = {row[1].get<std::string>(), row[2].get<int>(), row[3].get<int>()};
      }
    }
    if (value.contains("names")) {
      const json& list = value["names"];
      for (std::size_t i = 0; list.is_array() && i < list.size(); ++i) {
        const json& row = list[i];
        if (!row.is_array() || row.size() != 2 || !row[0].is_number_unsigned() || !row[1].is_string())
          return fail("/provenance/names/" + std::to_string(i), "expected [id, name]");
        provenance->names[row[0].get<NodeId>()] = row[1].get<std::string>();
      }
    }
    return provenance;
  }

  Result<Function> readFunction(const json& entry, const std::string& path) {
    BYOC_ASSIGN_OR_RETURN(const json* nodes, field(entry, path, "nodes", json::value_t::array));
    if (nodes->empty()) return fail(path + "/nodes", "expected at least one node");
    std::vector<Expr> built;
    built.reserve(nodes->size());
    for (std::size_t i = 0; i < nodes->size(); ++i) {
      BYOC_ASSIGN_OR_RETURN(Expr node, readNode((*nodes)[i], path + "/nodes/" + std::to_string(i), built));
      built.push_back(std::move(node));
    }
    Function function = downcast<FunctionNode>(built.back());
    if (!function) return fail(path + "/nodes/" + std::to_string(nodes->size() - 1), "the last node must be the function");
    return function;
  }

  /// An earlier node referred to by `object[key]`, optionally of a required kind.
  Result<Expr> reference(const json& object, const std::string& path, const char* key, const std::vector<Expr>& built,
                         std::optional<ExprKind> kind = std::nullopt) const {
    if (!object.contains(key)) return fail(path + "/" + key, "missing");
    return referenceValue(object[key], path + "/" + key, built, kind);
  }

  Result<Expr> referenceValue(const json& value, const std::string& path, const std::vector<Expr>& built,
                              std::optional<ExprKind> kind = std::nullopt) const {
    if (!value.is_number_unsigned() || value.get<std::size_t>() >= built.size())
      return fail(path, "expected a node index below " + std::to_string(built.size()) + ", found " + value.dump());
    const Expr& node = built[value.get<std::size_t>()];
    if (kind && node->kind() != *kind)
      return fail(path, std::string("expected a ") + exprKindName(*kind) + " node, found a " + exprKindName(node->kind()));
    return node;
  }

  Result<std::vector<Expr>> references(const json& object, const std::string& path, const char* key,
                                       const std::vector<Expr>& built) const {
    BYOC_ASSIGN_OR_RETURN(const json* list, field(object, path, key, json::value_t::array));
    std::vector<Expr> nodes;
    for (std::size_t i = 0; i < list->size(); ++i) {
      BYOC_ASSIGN_OR_RETURN(Expr node, referenceValue((*list)[i], path + "/" + key + "/" + std::to_string(i), built));
      nodes.push_back(std::move(node));
    }
    return nodes;
  }

  Result<Origin> readOrigin(const json& entry, const std::string& path) const {
    if (!entry.contains("origin")) return Origin();
    const json& ids = entry["origin"];
    if (!ids.is_array()) return fail(path + "/origin", "expected a list of node ids");
    std::vector<Origin> parts;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (!ids[i].is_number_unsigned() || ids[i].get<uint64_t>() > UINT32_MAX)
        return fail(path + "/origin/" + std::to_string(i), "expected a node id, found " + ids[i].dump());
      parts.push_back(Origin::single(ids[i].get<NodeId>()));
    }
    return Origin::unite(parts);
  }

  Result<Expr> readNode(const json& entry, const std::string& path, const std::vector<Expr>& built) {
    if (!entry.is_object()) return fail(path, "expected a node object");
    BYOC_ASSIGN_OR_RETURN(const json* kindValue, field(entry, path, "kind", json::value_t::string));
    BYOC_ASSIGN_OR_RETURN(Origin origin, readOrigin(entry, path));
    Type checked;
    if (entry.contains("type")) {
      BYOC_ASSIGN_OR_RETURN(checked, readType(entry["type"], path + "/type"));
    }
    const std::string kind = kindValue->get<std::string>();

    if (kind == "var") {
      BYOC_ASSIGN_OR_RETURN(const json* name, field(entry, path, "name", json::value_t::string));
      Type annotation;
      if (entry.contains("annotation")) {
      BYOC_ASSIGN_OR_RETURN(annotation, readType(entry["annotation"], path + "/annotation"));
    }
      return Expr(VarNode::make(name->get<std::string>(), annotation, origin, checked));
    }
    if (kind == "global") {
      BYOC_ASSIGN_OR_RETURN(const json* name, field(entry, path, "name", json::value_t::string));
      return Expr(GlobalVarNode::make(name->get<std::string>(), origin, checked));
    }
    if (kind == "constant") {
      BYOC_ASSIGN_OR_RETURN(const json* index, field(entry, path, "index", json::value_t::number_unsigned));
      if (index->get<std::size_t>() >= constants_.size())
        return fail(path + "/index", "expected a constant index below " + std::to_string(constants_.size()) + ", found " +
                                         index->dump());
      const LoadedConstant& constant = constants_[index->get<std::size_t>()];
      return Expr(ConstantNode::make(constant.data, origin, constant.name));
    }
    if (kind == "op") {
      BYOC_ASSIGN_OR_RETURN(const json* name, field(entry, path, "name", json::value_t::string));
      Op op = OpRegistry::global().get(name->get<std::string>());
      if (!op) return fail(path + "/name", "unknown op '" + name->get<std::string>() + "'");
      return Expr(op);
    }
    if (kind == "call") {
      BYOC_ASSIGN_OR_RETURN(Expr callee, reference(entry, path, "callee", built));
      BYOC_ASSIGN_OR_RETURN(std::vector<Expr> args, references(entry, path, "args", built));
      BYOC_ASSIGN_OR_RETURN(const json* attrsJson, field(entry, path, "attrs", json::value_t::array));
      BYOC_ASSIGN_OR_RETURN(Attrs attrs, readAttrs(*attrsJson, path + "/attrs"));
      if (const auto* op = callee->as<OpNode>()) {
        auto call = makeOpCall(op->name(), std::move(args), attrs, origin);
        if (!call) return fail(path, call.error().message);
        return checked ? withType(*call, checked) : Expr(*call);
      }
      return Expr(CallNode::make(std::move(callee), std::move(args), std::move(attrs), origin, checked));
    }
    if (kind == "tuple") {
      BYOC_ASSIGN_OR_RETURN(std::vector<Expr> fields, references(entry, path, "fields", built));
      return Expr(TupleNode::make(std::move(fields), origin, checked));
    }
    if (kind == "tuple_get_item") {
      BYOC_ASSIGN_OR_RETURN(Expr tuple, reference(entry, path, "tuple", built));
      BYOC_ASSIGN_OR_RETURN(const json* index, field(entry, path, "index", json::value_t::number_unsigned));
      if (index->get<uint64_t>() > INT32_MAX)
        return fail(path + "/index", "expected a tuple index up to " + std::to_string(INT32_MAX) + ", found " + index->dump());
      return Expr(TupleGetItemNode::make(std::move(tuple), index->get<int>(), origin, checked));
    }
    if (kind == "function") {
      BYOC_ASSIGN_OR_RETURN(const json* paramList, field(entry, path, "params", json::value_t::array));
      std::vector<Var> params;
      for (std::size_t i = 0; i < paramList->size(); ++i) {
        BYOC_ASSIGN_OR_RETURN(Expr param, referenceValue((*paramList)[i], path + "/params/" + std::to_string(i), built, ExprKind::Var));
        params.push_back(downcast<VarNode>(param));
      }
      BYOC_ASSIGN_OR_RETURN(Expr body, reference(entry, path, "body", built));
      Type retType;
      if (entry.contains("ret_type")) {
      BYOC_ASSIGN_OR_RETURN(retType, readType(entry["ret_type"], path + "/ret_type"));
    }
      BYOC_ASSIGN_OR_RETURN(const json* attrsJson, field(entry, path, "attrs", json::value_t::array));
      BYOC_ASSIGN_OR_RETURN(Attrs attrs, readAttrs(*attrsJson, path + "/attrs"));
      return Expr(FunctionNode::make(std::move(params), std::move(body), std::move(retType), std::move(attrs), origin, checked));
    }
    if (kind == "if") {
      BYOC_ASSIGN_OR_RETURN(Expr cond, reference(entry, path, "cond", built));
      BYOC_ASSIGN_OR_RETURN(Expr thenBranch, reference(entry, path, "then", built));
      BYOC_ASSIGN_OR_RETURN(Expr elseBranch, reference(entry, path, "else", built));
      return Expr(IfNode::make(std::move(cond), std::move(thenBranch), std::move(elseBranch), origin, checked));
    }
    if (kind == "let") {
      BYOC_ASSIGN_OR_RETURN(Expr var, reference(entry, path, "var", built, ExprKind::Var));
      BYOC_ASSIGN_OR_RETURN(Expr value, reference(entry, path, "value", built));
      BYOC_ASSIGN_OR_RETURN(Expr body, reference(entry, path, "body", built));
      return Expr(LetNode::make(downcast<VarNode>(var), std::move(value), std::move(body), origin, checked));
    }
    return fail(path + "/kind", "unknown node kind \"" + kind +
                                    "\"; expected var, global, constant, op, call, tuple, tuple_get_item, function, if or let");
  }

  std::string_view fileName_;
  std::vector<LoadedConstant> constants_;
};

}  // namespace

std::string saveModuleJson(const Module& module) { return ModuleWriter().write(module).dump(1) + "\n"; }

Result<Module> loadModuleJson(std::string_view text, std::string_view fileName) {
  return ModuleReader(fileName).read(text);
}

}  // namespace byoc
