#include "pattern/pattern_json.h"

#include <nlohmann/json.hpp>
#include <unordered_map>

#include "ir/attr_json.h"
#include "ir/op.h"
#include "pattern/pattern_parser.h"
#include "pattern/pattern_printer.h"
#include "support/json_document.h"
#include "text/scalar_literal.h"

namespace byoc {

namespace {

using json = nlohmann::ordered_json;

constexpr const char* kFormat = "byoc-studio-pattern";
constexpr int kVersion = 1;

// ---------------------------------------------------------------------------------------------
// Writing

class Writer {
 public:
  Result<std::string> run(const Pattern& root) {
    std::vector<Pattern> order = patternPostOrder(root);
    for (std::size_t i = 0; i < order.size(); ++i) index_.emplace(order[i].get(), static_cast<int>(i));
    json nodes = json::array();
    for (const Pattern& node : order) {
      BYOC_ASSIGN_OR_RETURN(json entry, write(*node));
      if (!node->name().empty()) entry["label"] = node->name();
      nodes.push_back(std::move(entry));
    }
    json out;
    out["format"] = kFormat;
    out["version"] = kVersion;
    out["root"] = index_.at(root.get());
    out["nodes"] = std::move(nodes);
    return out.dump(2);
  }

 private:
  int ref(const Pattern& node) const { return index_.at(node.get()); }

  json refs(const std::vector<Pattern>& nodes) const {
    json list = json::array();
    for (const Pattern& node : nodes) list.push_back(ref(node));
    return list;
  }

  Result<json> write(const PatternNode& node) const {
    json entry;
    switch (node.kind()) {
      case PatternKind::Wildcard:
        entry["kind"] = "wildcard";
        if (const Pattern& target = node.as<WildcardPatternNode>()->redirect()) entry["redirect"] = ref(target);
        break;
      case PatternKind::Expr: {
        const Expr& expr = node.as<ExprPatternNode>()->expr;
        if (const auto* op = expr->as<OpNode>()) {
          entry["kind"] = "op";
          entry["name"] = op->name();
        } else if (const auto* global = expr->as<GlobalVarNode>()) {
          entry["kind"] = "global";
          entry["name"] = global->name;
        } else if (const auto* constant = expr->as<ConstantNode>(); constant && constantPatternText(constant->data)) {
          entry["kind"] = "literal";
          entry["value"] = *constantPatternText(constant->data);
        } else {
          return makeError("the JSON form holds expression patterns of ops, globals and literal constants only, found " +
                           std::string(exprKindName(expr->kind())));
        }
        break;
      }
      case PatternKind::Var: {
        entry["kind"] = "var";
        const std::string& name = node.as<VarPatternNode>()->varName;
        if (!name.empty()) entry["var"] = name;
        break;
      }
      case PatternKind::Constant: entry["kind"] = "constant"; break;
      case PatternKind::Call: {
        const auto& call = *node.as<CallPatternNode>();
        entry["kind"] = "call";
        entry["callee"] = ref(call.callee);
        if (call.args) entry["args"] = refs(*call.args);
        break;
      }
      case PatternKind::Function: {
        const auto& function = *node.as<FunctionPatternNode>();
        entry["kind"] = "function";
        if (function.params) entry["params"] = refs(*function.params);
        entry["body"] = ref(function.body);
        break;
      }
      case PatternKind::Tuple: {
        const auto& tuple = *node.as<TuplePatternNode>();
        entry["kind"] = "tuple";
        if (tuple.fields) entry["fields"] = refs(*tuple.fields);
        break;
      }
      case PatternKind::TupleGetItem: {
        const auto& item = *node.as<TupleGetItemPatternNode>();
        entry["kind"] = "tuple_get_item";
        entry["tuple"] = ref(item.tuple);
        if (item.index >= 0) entry["index"] = item.index;
        break;
      }
      case PatternKind::Alt: {
        const auto& either = *node.as<AltPatternNode>();
        entry["kind"] = "alt";
        entry["left"] = ref(either.left);
        entry["right"] = ref(either.right);
        break;
      }
      case PatternKind::Attr: {
        const auto& attr = *node.as<AttrPatternNode>();
        entry["kind"] = "attr";
        entry["pattern"] = ref(attr.pattern);
        entry["attrs"] = json::object();
        for (const auto& [key, value] : attr.attrs.entries()) entry["attrs"][key] = attrValueToJson(value);
        break;
      }
      case PatternKind::Type: {
        const auto& typed = *node.as<TypePatternNode>();
        entry["kind"] = "type";
        entry["pattern"] = ref(typed.pattern);
        entry["type"] = typeToString(typed.type);
        break;
      }
      case PatternKind::DType: {
        const auto& typed = *node.as<DTypePatternNode>();
        entry["kind"] = "dtype";
        entry["pattern"] = ref(typed.pattern);
        entry["dtype"] = std::string(dtypeName(typed.dtype));
        break;
      }
      case PatternKind::Shape: {
        const auto& shaped = *node.as<ShapePatternNode>();
        entry["kind"] = "shape";
        entry["pattern"] = ref(shaped.pattern);
        entry["shape"] = shaped.shape;
        break;
      }
      case PatternKind::Dominator: {
        const auto& dom = *node.as<DominatorPatternNode>();
        entry["kind"] = "dominator";
        entry["parent"] = ref(dom.parent);
        entry["path"] = ref(dom.path);
        entry["child"] = ref(dom.child);
        break;
      }
      case PatternKind::If: {
        const auto& branch = *node.as<IfPatternNode>();
        entry["kind"] = "if";
        entry["cond"] = ref(branch.cond);
        entry["then"] = ref(branch.thenBranch);
        entry["else"] = ref(branch.elseBranch);
        break;
      }
      case PatternKind::Let: {
        const auto& let = *node.as<LetPatternNode>();
        entry["kind"] = "let";
        entry["var"] = ref(let.var);
        entry["value"] = ref(let.value);
        entry["body"] = ref(let.body);
        break;
      }
    }
    return entry;
  }

  std::unordered_map<const PatternNode*, int> index_;
};

// ---------------------------------------------------------------------------------------------
// Reading

class Reader {
 public:
  explicit Reader(std::string_view fileName) : fileName_(fileName) {}

  Result<Pattern> run(std::string_view text) {
    BYOC_ASSIGN_OR_RETURN(json root, parseJsonDocument<json>(text, fileName_));
    if (!root.is_object()) return fail("", "expected a JSON object");
    if (!root.contains("format") || root["format"] != kFormat)
      return fail("/format", std::string("expected \"") + kFormat + "\"");
    if (!root.contains("version") || !root["version"].is_number_integer())
      return fail("/version", "expected an integer");
    // Compared as JSON numbers: a version past int's range must not wrap around to an old one.
    if (root["version"] > kVersion)
      return fail("/version", "version " + root["version"].dump() +
                                  " is newer than this program reads (" + std::to_string(kVersion) + ")");
    if (!root.contains("nodes") || !root["nodes"].is_array()) return fail("/nodes", "expected an array of nodes");
    const json& nodes = root["nodes"];
    // Wildcards first, so that a redirect may point anywhere.
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const std::string path = "/nodes/" + std::to_string(i);
      if (!nodes[i].is_object() || !nodes[i].contains("kind") || !nodes[i]["kind"].is_string())
        return fail(path, "expected an object with a \"kind\"");
      std::string name;
      if (nodes[i].contains("label")) {
        if (!nodes[i]["label"].is_string()) return fail(path + "/label", "expected a string");
        name = nodes[i]["label"].get<std::string>();
      }
      names_.push_back(name);
      wildcards_.push_back(nodes[i]["kind"] == "wildcard" ? makeRef<WildcardPatternNode>(name) : nullptr);
    }
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      BYOC_ASSIGN_OR_RETURN(Pattern node, read(nodes[i], "/nodes/" + std::to_string(i), static_cast<int>(i)));
      built_.push_back(std::move(node));
    }
    std::vector<std::pair<std::size_t, int>> redirects;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (!wildcards_[i] || !nodes[i].contains("redirect")) continue;
      BYOC_ASSIGN_OR_RETURN(int target,
                            index(nodes[i], "/nodes/" + std::to_string(i), "redirect", static_cast<int>(nodes.size())));
      if (static_cast<std::size_t>(target) == i)
        return fail("/nodes/" + std::to_string(i) + "/redirect", "a wildcard cannot stand for itself");
      redirects.emplace_back(i, target);
    }
    if (!root.contains("root")) return fail("/root", "expected the index of the root node");
    BYOC_ASSIGN_OR_RETURN(int top, index(root, "", "root", static_cast<int>(nodes.size())));
    for (const auto& [wildcard, target] : redirects) wildcards_[wildcard]->redirectTo(built_[target]);
    // Nodes refer to earlier nodes, so the pattern may nest deeper than the JSON does. A refused
    // pattern's redirects are cleared, so that the cycles they close are freed.
    if (Status deep = checkPatternDepth(built_[top], SourceLocation{std::string(fileName_), 0, 0}); !deep) {
      for (const auto& [wildcard, target] : redirects) wildcards_[wildcard]->redirectTo({});
      return deep.error();
    }
    return built_[top];
  }

 private:
  Diagnostic fail(const std::string& path, const std::string& message) const {
    return makeError((path.empty() ? "" : path + ": ") + message, SourceLocation{std::string(fileName_), 0, 0});
  }

  /// `object[key]` as a node index below `limit`.
  Result<int> index(const json& object, const std::string& path, const std::string& key, int limit) const {
    if (!object.contains(key)) return fail(path + "/" + key, "expected the index of a node");
    const json& value = object[key];
    if (!value.is_number_integer() || value.get<int64_t>() < 0 || value.get<int64_t>() >= limit)
      return fail(path + "/" + key, "expected the index of a node (0 to " + std::to_string(limit - 1) + ")");
    return static_cast<int>(value.get<int64_t>());
  }

  /// A reference to node `at` from node `self`: an earlier node, or any wildcard.
  Result<Pattern> resolve(const json& value, const std::string& path, int self) const {
    const int64_t count = static_cast<int64_t>(wildcards_.size());
    if (value.is_number_integer()) {
      const int64_t at = value.get<int64_t>();
      if (at >= 0 && at < count && wildcards_[at]) return Pattern(wildcards_[at]);
      if (at >= 0 && at < self) return built_[at];
    }
    return fail(path, "expected the index of an earlier node or of a wildcard (0 to " + std::to_string(self - 1) + ")");
  }

  Result<Pattern> child(const json& object, const std::string& path, const std::string& key, int self) const {
    if (!object.contains(key)) return fail(path + "/" + key, "expected the index of a node");
    return resolve(object[key], path + "/" + key, self);
  }

  /// `object[key]` as a list of node references; absent means "any".
  Result<std::optional<std::vector<Pattern>>> children(const json& object, const std::string& path,
                                                       const std::string& key, int self) const {
    if (!object.contains(key)) return std::optional<std::vector<Pattern>>();
    const json& list = object[key];
    if (!list.is_array()) return fail(path + "/" + key, "expected an array of node indices");
    std::vector<Pattern> items;
    for (std::size_t i = 0; i < list.size(); ++i) {
      BYOC_ASSIGN_OR_RETURN(Pattern item, resolve(list[i], path + "/" + key + "/" + std::to_string(i), self));
      items.push_back(std::move(item));
    }
    return std::optional<std::vector<Pattern>>(std::move(items));
  }

  Result<std::string> string(const json& object, const std::string& path, const std::string& key) const {
    if (!object.contains(key) || !object[key].is_string()) return fail(path + "/" + key, "expected a string");
    return object[key].get<std::string>();
  }

  Result<AttrValue> attrValue(const json& value, const std::string& path) const {
    std::variant<AttrValue, AttrJsonMismatch> read = attrValueFromJson(value);
    if (const auto* mismatch = std::get_if<AttrJsonMismatch>(&read))
      return fail(path + mismatch->pointer, "expected an attribute value (number, string, bool, null or array)");
    return std::get<AttrValue>(std::move(read));
  }

  Result<Pattern> read(const json& node, const std::string& path, int self) const {
    const std::string kind = node["kind"].get<std::string>();
    const std::string& name = names_[self];
    if (kind == "wildcard") return Pattern(wildcards_[self]);
    if (kind == "op") {
      BYOC_ASSIGN_OR_RETURN(std::string op, string(node, path, "name"));
      Op handle = OpRegistry::global().get(op);
      if (!handle) return fail(path + "/name", "unknown op '" + op + "'");
      return Pattern(makeRef<ExprPatternNode>(handle, name));
    }
    if (kind == "global") {
      BYOC_ASSIGN_OR_RETURN(std::string global, string(node, path, "name"));
      return Pattern(makeRef<ExprPatternNode>(GlobalVarNode::make(global), name));
    }
    if (kind == "literal") {
      BYOC_ASSIGN_OR_RETURN(std::string text, string(node, path, "value"));
      Result<Pattern> literal = parsePattern(text);
      const ExprPatternNode* expr = literal ? (*literal)->as<ExprPatternNode>() : nullptr;
      if (!expr || expr->expr->kind() != ExprKind::Constant)
        return fail(path + "/value", "expected a literal such as \"1f\" or \"const([1f, 2f])\", found \"" + text + "\"");
      return Pattern(makeRef<ExprPatternNode>(expr->expr, name));
    }
    if (kind == "var") {
      std::string var;
      if (node.contains("var")) {
        BYOC_ASSIGN_OR_RETURN(var, string(node, path, "var"));
      }
      return Pattern(makeRef<VarPatternNode>(var, name));
    }
    if (kind == "constant") return Pattern(makeRef<ConstantPatternNode>(name));
    if (kind == "call") {
      BYOC_ASSIGN_OR_RETURN(Pattern callee, child(node, path, "callee", self));
      BYOC_ASSIGN_OR_RETURN(auto args, children(node, path, "args", self));
      return Pattern(makeRef<CallPatternNode>(callee, std::move(args), name));
    }
    if (kind == "function") {
      BYOC_ASSIGN_OR_RETURN(auto params, children(node, path, "params", self));
      BYOC_ASSIGN_OR_RETURN(Pattern body, child(node, path, "body", self));
      return Pattern(makeRef<FunctionPatternNode>(std::move(params), body, name));
    }
    if (kind == "tuple") {
      BYOC_ASSIGN_OR_RETURN(auto fields, children(node, path, "fields", self));
      return Pattern(makeRef<TuplePatternNode>(std::move(fields), name));
    }
    if (kind == "tuple_get_item") {
      BYOC_ASSIGN_OR_RETURN(Pattern tuple, child(node, path, "tuple", self));
      int at = -1;
      if (node.contains("index")) {
        if (!node["index"].is_number_integer() || node["index"].get<int64_t>() < 0)
          return fail(path + "/index", "expected a tuple index (an integer from 0)");
        at = static_cast<int>(node["index"].get<int64_t>());
      }
      return Pattern(makeRef<TupleGetItemPatternNode>(tuple, at, name));
    }
    if (kind == "alt") {
      BYOC_ASSIGN_OR_RETURN(Pattern left, child(node, path, "left", self));
      BYOC_ASSIGN_OR_RETURN(Pattern right, child(node, path, "right", self));
      return Pattern(makeRef<AltPatternNode>(left, right, name));
    }
    if (kind == "attr") {
      BYOC_ASSIGN_OR_RETURN(Pattern inner, child(node, path, "pattern", self));
      if (!node.contains("attrs") || !node["attrs"].is_object()) return fail(path + "/attrs", "expected an object");
      Attrs attrs;
      for (const auto& [key, value] : node["attrs"].items()) {
        BYOC_ASSIGN_OR_RETURN(AttrValue parsed, attrValue(value, path + "/attrs/" + key));
        attrs.set(key, std::move(parsed));
      }
      return Pattern(makeRef<AttrPatternNode>(inner, std::move(attrs), name));
    }
    if (kind == "type") {
      BYOC_ASSIGN_OR_RETURN(Pattern inner, child(node, path, "pattern", self));
      BYOC_ASSIGN_OR_RETURN(std::string text, string(node, path, "type"));
      Result<Type> type = parsePatternType(text);
      if (!type) return fail(path + "/type", type.error().message);
      return Pattern(makeRef<TypePatternNode>(inner, *type, name));
    }
    if (kind == "dtype") {
      BYOC_ASSIGN_OR_RETURN(Pattern inner, child(node, path, "pattern", self));
      BYOC_ASSIGN_OR_RETURN(std::string text, string(node, path, "dtype"));
      std::optional<DType> dtype = parseDType(text);
      if (!dtype) return fail(path + "/dtype", "unknown dtype \"" + text + "\"");
      return Pattern(makeRef<DTypePatternNode>(inner, *dtype, name));
    }
    if (kind == "shape") {
      BYOC_ASSIGN_OR_RETURN(Pattern inner, child(node, path, "pattern", self));
      if (!node.contains("shape") || !node["shape"].is_array())
        return fail(path + "/shape", "expected an array of dimensions");
      Shape shape;
      for (std::size_t i = 0; i < node["shape"].size(); ++i) {
        const json& dim = node["shape"][i];
        if (!dim.is_number_integer() || dim.get<int64_t>() < kAnyDim)
          return fail(path + "/shape/" + std::to_string(i), "expected a dimension (an integer from 0, or -1 for any)");
        shape.push_back(dim.get<int64_t>());
      }
      return Pattern(makeRef<ShapePatternNode>(inner, std::move(shape), name));
    }
    if (kind == "dominator") {
      BYOC_ASSIGN_OR_RETURN(Pattern parent, child(node, path, "parent", self));
      BYOC_ASSIGN_OR_RETURN(Pattern pathPattern, child(node, path, "path", self));
      BYOC_ASSIGN_OR_RETURN(Pattern childPattern, child(node, path, "child", self));
      return Pattern(makeRef<DominatorPatternNode>(parent, pathPattern, childPattern, name));
    }
    if (kind == "if") {
      BYOC_ASSIGN_OR_RETURN(Pattern cond, child(node, path, "cond", self));
      BYOC_ASSIGN_OR_RETURN(Pattern thenBranch, child(node, path, "then", self));
      BYOC_ASSIGN_OR_RETURN(Pattern elseBranch, child(node, path, "else", self));
      return Pattern(makeRef<IfPatternNode>(cond, thenBranch, elseBranch, name));
    }
    if (kind == "let") {
      BYOC_ASSIGN_OR_RETURN(Pattern var, child(node, path, "var", self));
      BYOC_ASSIGN_OR_RETURN(Pattern value, child(node, path, "value", self));
      BYOC_ASSIGN_OR_RETURN(Pattern body, child(node, path, "body", self));
      return Pattern(makeRef<LetPatternNode>(var, value, body, name));
    }
    return fail(path + "/kind", "unknown pattern kind \"" + kind + "\"");
  }

  std::string_view fileName_;
  std::vector<std::string> names_;
  std::vector<Ref<WildcardPatternNode>> wildcards_;
  std::vector<Pattern> built_;
};

}  // namespace

Result<std::string> serializePattern(const Pattern& pattern) { return Writer().run(pattern); }

Result<Pattern> parsePatternJson(std::string_view json, std::string_view fileName) {
  return Reader(fileName).run(json);
}

}  // namespace byoc
