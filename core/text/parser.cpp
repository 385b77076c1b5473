#include "text/parser.h"

#include <nlohmann/json.hpp>
#include <unordered_map>

#include "ir/op.h"
#include "support/base64.h"
#include "support/limits.h"
#include "text/lexer.h"
#include "text/scalar_literal.h"

namespace byoc {

namespace {

using text::Token;

/// Splits off the `#[metadata]` section and decodes its constants.
Result<std::vector<TensorData>> readMetadata(std::string_view json, std::string_view fileName, int line) {
  SourceLocation where{std::string(fileName), line, 1};
  // nlohmann's trees are walked recursively (printing, comparing): bound the depth first.
  if (limits::jsonNestingDepth(json) > limits::kMaxNestingDepth)
    return makeError("the metadata section nests JSON more than " + std::to_string(limits::kMaxNestingDepth) + " deep", where);
  auto root = nlohmann::json::parse(json, nullptr, false);
  if (root.is_discarded() || !root.is_object()) return makeError("the metadata section is not a JSON object", where);
  std::vector<TensorData> constants;
  if (!root.contains("relay.Constant")) return constants;
  const auto& list = root["relay.Constant"];
  if (!list.is_array()) return makeError("metadata: relay.Constant must be a list", where);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto& entry = list[i];
    std::string at = "metadata: relay.Constant[" + std::to_string(i) + "]: ";
    if (!entry.is_object() || !entry.contains("dtype") || !entry["dtype"].is_string() || !entry.contains("shape") ||
        !entry["shape"].is_array() || !entry.contains("data") || !entry["data"].is_string())
      return makeError(at + "expected {\"dtype\", \"shape\", \"data\"}", where);
    auto dtype = parseDType(entry["dtype"].get<std::string>());
    if (!dtype) return makeError(at + "unknown dtype \"" + entry["dtype"].get<std::string>() + "\"", where);
    Shape shape;
    for (const auto& dim : entry["shape"]) {
      if (!dim.is_number_integer() || (dim.is_number_unsigned() && dim.get<uint64_t>() > INT64_MAX))
        return makeError(at + "shape must list sizes, found " + dim.dump(), where);
      shape.push_back(dim.get<int64_t>());
    }
    if (std::string problem = limits::shapeProblem(shape); !problem.empty()) return makeError(at + "shape: " + problem, where);
    const int64_t count = *limits::elementCount(shape);
    auto bytes = base64Decode(entry["data"].get<std::string>());
    if (!bytes) return makeError(at + "data is not valid base64", where);
    if (static_cast<int64_t>(bytes->size()) != count * static_cast<int64_t>(dtypeSize(*dtype)))
      return makeError(at + "data holds " + std::to_string(bytes->size()) + " bytes, expected " +
                           std::to_string(count * static_cast<int64_t>(dtypeSize(*dtype))),
                       where);
    constants.push_back(TensorData::fromBytes(*dtype, std::move(shape), *bytes));
  }
  return constants;
}

/// Recursive-descent parser over the token list. Bodies (sequences of bindings) are parsed
/// in a loop, so long programs do not deepen the recursion; only written nesting does.
class Parser {
 public:
  Parser(text::TokenList tokens, std::string_view fileName, std::vector<TensorData> metadata)
      : list_(std::move(tokens)), fileName_(fileName), metadata_(std::move(metadata)),
        provenance_(std::make_shared<Provenance>()) {}

  Result<Module> parseModule() {
    if (peek().kind == Token::Kind::Attribute) {
      if (peek().text.find("version") == std::string::npos) return unexpected("#[version = \"0.0.5\"]");
      ++pos_;
    }
    Module module;
    if (isIdentifier("def")) {
      while (isIdentifier("def")) {
        ++pos_;
        if (peek().kind != Token::Kind::GlobalVar) return unexpected("a function name such as @main");
        std::string name(next().text);
        if (module.find(name)) return error(tokens_[pos_ - 1], "@" + name + " is defined twice");
        scopes_.clear();
        temps_ = decltype(temps_)();  // not clear(): it would cost the largest definition's bucket count each time
        BYOC_ASSIGN_OR_RETURN(Function function, parseFunctionRest());
        module.set(name, std::move(function));
      }
    } else {
      BYOC_ASSIGN_OR_RETURN(Expr expr, parseExpr());
      Function function = downcast<FunctionNode>(expr);
      if (!function) return error(tokens_[0], "expected a function (`fn (…) { … }`) or `def @name(…)` definitions");
      module.set("main", std::move(function));
    }
    if (peek().kind != Token::Kind::End) return unexpected("'def' or the end of the input");
    for (const auto& [name, token] : globalUses_)
      if (!module.find(name)) return error(token, "unknown global function @" + std::string(name));
    module.setProvenance(provenance_);
    return module;
  }

 private:
  // ------------------------------------------------------------------ tokens and errors
  const Token& peek(std::size_t ahead = 0) const { return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)]; }
  const Token& next() { return tokens_[pos_++]; }
  bool isPunct(std::string_view p, std::size_t ahead = 0) const {
    return peek(ahead).kind == Token::Kind::Punct && peek(ahead).text == p;
  }
  bool isIdentifier(std::string_view name) const {
    return peek().kind == Token::Kind::Identifier && peek().text == name;
  }

  Diagnostic error(const Token& at, const std::string& message) const {
    return makeError(message, {std::string(fileName_), at.line, at.column});
  }
  /// The value of integer `token`, which must lie in [low, high]; the error names it as `what`.
  Result<int64_t> integerIn(const Token& token, const std::string& what, int64_t low, int64_t high) const {
    std::optional<int64_t> value = parseIntegerLiteral(token.text);
    if (!value || *value < low || *value > high)
      return error(token, what + " " + token.describe() + " is out of range; expected " + std::to_string(low) + " to " +
                              std::to_string(high));
    return *value;
  }

  /// Runs `rule`, one level of written nesting deeper; refuses to go deeper than
  /// `limits::kMaxNestingDepth` (the rules recurse, and the stack must not run out).
  /// `what` names what is nested in the error.
  template <typename Rule>
  auto nested(const char* what, Rule rule) -> decltype(rule()) {
    limits::NestingLevel level(depth_);
    if (level.tooDeep())
      return error(peek(), std::string(what) + " are nested more than " + std::to_string(limits::kMaxNestingDepth) + " deep");
    return rule();
  }

  Diagnostic unexpected(const std::string& expected) const {
    return error(peek(), "found " + peek().describe() + ", expected " + expected);
  }
  Status expect(std::string_view punct) {
    if (!isPunct(punct)) return unexpected("'" + std::string(punct) + "'");
    ++pos_;
    return Status::ok();
  }

  /// A fresh origin for a node written at `at`, recorded in the provenance table.
  Origin originAt(const Token& at) {
    NodeId id = nextId_++;
    provenance_->locations[id] = SourceLocation{std::string(fileName_), at.line, at.column};
    return Origin::single(id);
  }

  // ------------------------------------------------------------------ names
  Expr lookupLocal(std::string_view name) const {
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope)
      if (auto it = scope->find(name); it != scope->end()) return it->second;
    if (auto it = temps_.find(name); it != temps_.end()) return it->second;
    return {};
  }

  // ------------------------------------------------------------------ types
  Result<Type> parseType() {
    return nested("types", [this] { return parseTypeAtThisDepth(); });
  }

  Result<Type> parseTypeAtThisDepth() {
    const Token& at = peek();
    if (isIdentifier("Tensor")) {
      ++pos_;
      BYOC_TRY(expect("["));
      BYOC_TRY(expect("("));
      Shape shape;
      while (!isPunct(")")) {
        if (isPunct("?")) {
          ++pos_;
          shape.push_back(kAnyDim);
        } else if (peek().kind == Token::Kind::Integer && peek().suffix.empty()) {
          // Sizes beyond int64 are refused here, the others with the whole shape below.
          std::optional<int64_t> dim = parseIntegerLiteral(peek().text);
          if (!dim)
            return error(peek(), "dimension " + peek().describe() + " is out of range; expected 0 to " +
                                     std::to_string(limits::kMaxElements));
          ++pos_;
          shape.push_back(*dim);
        } else {
          return unexpected("a dimension size");
        }
        if (isPunct(",")) ++pos_;
        else if (!isPunct(")")) return unexpected("',' or ')'");
      }
      ++pos_;
      if (std::string problem = limits::typeShapeProblem(shape); !problem.empty()) return error(at, "tensor shape: " + problem);
      BYOC_TRY(expect(","));
      BYOC_ASSIGN_OR_RETURN(DType dtype, parseDTypeName());
      BYOC_TRY(expect("]"));
      return tensorType(std::move(shape), dtype);
    }
    if (isIdentifier("fn")) {
      ++pos_;
      BYOC_TRY(expect("("));
      std::vector<Type> params;
      while (!isPunct(")")) {
        BYOC_ASSIGN_OR_RETURN(Type param, parseType());
        params.push_back(std::move(param));
        if (isPunct(",")) ++pos_;
        else if (!isPunct(")")) return unexpected("',' or ')'");
      }
      ++pos_;
      BYOC_TRY(expect("->"));
      BYOC_ASSIGN_OR_RETURN(Type ret, parseType());
      return funcType(std::move(params), std::move(ret));
    }
    if (isPunct("(")) {
      ++pos_;
      std::vector<Type> fields;
      while (!isPunct(")")) {
        BYOC_ASSIGN_OR_RETURN(Type field, parseType());
        fields.push_back(std::move(field));
        if (isPunct(",")) ++pos_;
        else if (!isPunct(")")) return unexpected("',' or ')'");
      }
      ++pos_;
      return tupleType(std::move(fields));
    }
    if (at.kind == Token::Kind::Identifier) {
      BYOC_ASSIGN_OR_RETURN(DType dtype, parseDTypeName());
      return scalarType(dtype);
    }
    return unexpected("a type");
  }

  Result<DType> parseDTypeName() {
    if (peek().kind != Token::Kind::Identifier) return unexpected("a dtype such as float32");
    auto dtype = parseDType(peek().text);
    if (!dtype) return error(peek(), "unknown dtype '" + std::string(peek().text) + "'");
    ++pos_;
    return *dtype;
  }

  // ------------------------------------------------------------------ attribute values
  Result<AttrValue> parseAttrValue() {
    return nested("attribute lists", [this] { return parseAttrValueAtThisDepth(); });
  }

  Result<AttrValue> parseAttrValueAtThisDepth() {
    const Token& at = peek();
    switch (at.kind) {
      case Token::Kind::Integer: {
        BYOC_ASSIGN_OR_RETURN(int64_t value, integerIn(at, "integer", INT64_MIN, INT64_MAX));
        ++pos_;
        return AttrValue(value);
      }
      case Token::Kind::Float: {
        std::optional<double> value = parseFloatLiteral(at.text);
        if (!value) return error(at, "float " + at.describe() + " is out of range; expected a magnitude up to 1.79769e+308");
        ++pos_;
        return AttrValue(*value);
      }
      case Token::Kind::String:
        ++pos_;
        return AttrValue(std::string(at.text));
      case Token::Kind::Identifier:
        if (at.text == "True" || at.text == "False") {
          ++pos_;
          return AttrValue(at.text == "True");
        }
        if (at.text == "None") {
          ++pos_;
          return AttrValue();
        }
        break;
      case Token::Kind::Punct:
        if (at.text == "[") {
          ++pos_;
          AttrValue::List items;
          while (!isPunct("]")) {
            BYOC_ASSIGN_OR_RETURN(AttrValue item, parseAttrValue());
            items.push_back(std::move(item));
            if (isPunct(",")) ++pos_;
            else if (!isPunct("]")) return unexpected("',' or ']'");
          }
          ++pos_;
          return AttrValue(std::move(items));
        }
        break;
      default:
        break;
    }
    return unexpected("an attribute value");
  }

  /// `name=value` at the current position?
  bool atAttribute() const { return peek().kind == Token::Kind::Identifier && isPunct("=", 1); }

  // ------------------------------------------------------------------ functions and bodies
  /// `(params, Attr=value) -> T { body }` after `fn` or `def @name`.
  Result<Function> parseFunctionRest() {
    const Token& at = peek();
    BYOC_TRY(expect("("));
    scopes_.emplace_back();
    std::vector<Var> params;
    Attrs attrs;
    while (!isPunct(")")) {
      if (peek().kind == Token::Kind::LocalVar) {
        const Token& nameToken = next();
        Type annotation;
        if (isPunct(":")) {
          ++pos_;
          BYOC_ASSIGN_OR_RETURN(annotation, parseType());
        }
        Var param = VarNode::make(std::string(nameToken.text), annotation, originAt(nameToken));
        scopes_.back()[nameToken.text] = param;
        params.push_back(std::move(param));
      } else if (atAttribute()) {
        std::string name(next().text);
        ++pos_;
        BYOC_ASSIGN_OR_RETURN(AttrValue value, parseAttrValue());
        attrs.set(std::move(name), std::move(value));
      } else {
        return unexpected("a parameter such as %x: T, an attribute, or ')'");
      }
      if (isPunct(",")) ++pos_;
      else if (!isPunct(")")) return unexpected("',' or ')'");
    }
    ++pos_;
    Type retType;
    if (isPunct("->")) {
      ++pos_;
      BYOC_ASSIGN_OR_RETURN(retType, parseType());
    }
    BYOC_ASSIGN_OR_RETURN(Expr body, parseBlock());
    scopes_.pop_back();
    return FunctionNode::make(std::move(params), std::move(body), std::move(retType), std::move(attrs), originAt(at));
  }

  /// `{ bindings; expr }`
  Result<Expr> parseBlock() {
    BYOC_TRY(expect("{"));
    scopes_.emplace_back();
    BYOC_ASSIGN_OR_RETURN(Expr body, parseBody());
    scopes_.pop_back();
    BYOC_TRY(expect("}"));
    return body;
  }

  /// Bindings `%N = e;`, `let %v: T = e;`, `free_var %v: T;`, then the final expression.
  /// Lets nest what follows them; they are collected and assembled from the end.
  Result<Expr> parseBody() {
    struct PendingLet {
      Var var;
      Expr value;
      Origin origin;
    };
    std::vector<PendingLet> lets;
    while (true) {
      if (isIdentifier("let")) {
        const Token& at = next();
        if (peek().kind != Token::Kind::LocalVar) return unexpected("a variable such as %x");
        const Token& nameToken = next();
        Type annotation;
        if (isPunct(":")) {
          ++pos_;
          BYOC_ASSIGN_OR_RETURN(annotation, parseType());
        }
        Var var = VarNode::make(std::string(nameToken.text), annotation, originAt(nameToken));
        BYOC_TRY(expect("="));
        // Only a function sees its own name (a recursive function); any other value that used it
        // would be defined by itself.
        const bool recursive = isIdentifier("fn");
        if (recursive) scopes_.back()[nameToken.text] = var;
        BYOC_ASSIGN_OR_RETURN(Expr value, parseExpr());
        if (!recursive) scopes_.back()[nameToken.text] = var;
        BYOC_TRY(expect(";"));
        lets.push_back({std::move(var), std::move(value), originAt(at)});
      } else if (isIdentifier("free_var")) {
        ++pos_;
        if (peek().kind != Token::Kind::LocalVar) return unexpected("a variable such as %x");
        const Token& nameToken = next();
        BYOC_TRY(expect(":"));
        BYOC_ASSIGN_OR_RETURN(Type annotation, parseType());
        BYOC_TRY(expect(";"));
        scopes_.back()[nameToken.text] = VarNode::make(std::string(nameToken.text), annotation, originAt(nameToken));
      } else if (peek().kind == Token::Kind::LocalVar && isPunct("=", 1)) {
        const Token& nameToken = next();
        ++pos_;
        BYOC_ASSIGN_OR_RETURN(Expr value, parseExpr());
        BYOC_TRY(expect(";"));
        temps_[nameToken.text] = std::move(value);
      } else {
        break;
      }
    }
    BYOC_ASSIGN_OR_RETURN(Expr result, parseExpr());
    for (auto it = lets.rbegin(); it != lets.rend(); ++it)
      result = LetNode::make(it->var, it->value, result, it->origin);
    return result;
  }

  // ------------------------------------------------------------------ expressions
  Result<Expr> parseExpr() {
    return nested("expressions", [this] { return parsePostfix(); });
  }

  Result<Expr> parsePostfix() {
    const Token& start = peek();
    BYOC_ASSIGN_OR_RETURN(Expr expr, parsePrimary());
    while (true) {
      if (isPunct("(")) {
        BYOC_ASSIGN_OR_RETURN(expr, parseCall(std::move(expr), start));
      } else if (isPunct(".") && peek(1).kind == Token::Kind::Integer) {
        const Token& at = next();
        BYOC_ASSIGN_OR_RETURN(int64_t index, integerIn(peek(), "tuple index", 0, INT32_MAX));
        ++pos_;
        expr = TupleGetItemNode::make(std::move(expr), static_cast<int>(index), originAt(at));
      } else {
        return expr;
      }
    }
  }

  Result<Expr> parseCall(Expr callee, const Token& at) {
    ++pos_;
    std::vector<Expr> args;
    Attrs attrs;
    while (!isPunct(")")) {
      if (atAttribute()) {
        std::string name(next().text);
        ++pos_;
        BYOC_ASSIGN_OR_RETURN(AttrValue value, parseAttrValue());
        attrs.set(std::move(name), std::move(value));
      } else {
        if (!attrs.empty()) return unexpected("an attribute such as name=value (arguments come first)");
        BYOC_ASSIGN_OR_RETURN(Expr arg, parseExpr());
        args.push_back(std::move(arg));
      }
      if (isPunct(",")) {
        ++pos_;
        if (isPunct(")")) return unexpected("an expression");
      } else if (!isPunct(")")) {
        return unexpected("',' or ')'");
      }
    }
    ++pos_;
    if (const auto* op = callee->as<OpNode>()) {
      auto call = makeOpCall(op->name(), std::move(args), attrs, originAt(at));
      if (!call) return error(at, call.error().message);
      return Expr(std::move(call).value());
    }
    if (!attrs.empty()) return error(at, "only op calls take attributes");
    return Expr(CallNode::make(std::move(callee), std::move(args), {}, originAt(at)));
  }

  Result<Expr> parsePrimary() {
    const Token& at = peek();
    switch (at.kind) {
      case Token::Kind::LocalVar: {
        ++pos_;
        Expr found = lookupLocal(at.text);
        if (!found) return error(at, "undefined variable %" + std::string(at.text));
        return found;
      }
      case Token::Kind::GlobalVar:
        ++pos_;
        globalUses_.emplace(at.text, at);
        return Expr(GlobalVarNode::make(std::string(at.text), originAt(at)));
      case Token::Kind::Integer:
      case Token::Kind::Float:
        return parseLiteral();
      case Token::Kind::Identifier:
        return parseIdentifier();
      case Token::Kind::Punct:
        if (at.text == "(") return parseParenthesized();
        break;
      default:
        break;
    }
    return unexpected("an expression");
  }

  Result<Expr> parseLiteral() {
    const Token& at = next();
    Result<TensorData> value = scalarFromLiteral(at.text, at.suffix, at.kind == Token::Kind::Float);
    if (!value) return error(at, value.error().message);
    return Expr(ConstantNode::make(std::move(value).value(), originAt(at)));
  }

  Result<Expr> parseIdentifier() {
    const Token& at = peek();
    if (at.text == "fn") {
      ++pos_;
      BYOC_ASSIGN_OR_RETURN(Function function, parseFunctionRest());
      return Expr(std::move(function));
    }
    if (at.text == "if") return parseIf();
    if (at.text == "True" || at.text == "False") {
      ++pos_;
      return Expr(ConstantNode::make(TensorData::scalar(DType::Bool, at.text == "True"), originAt(at)));
    }
    if (at.text == "meta") return parseMetaReference();
    if (at.text == "let") {
      // A let in expression position, e.g. inside parentheses: it scopes the rest of the block.
      scopes_.emplace_back();
      Result<Expr> body = parseBody();
      scopes_.pop_back();
      return body;
    }
    if (const OpDef* def = OpRegistry::global().find(at.text)) {
      ++pos_;
      return Expr(def->handle);
    }
    return error(at, "unknown op '" + std::string(at.text) + "'");
  }

  Result<Expr> parseIf() {
    const Token& at = next();
    BYOC_TRY(expect("("));
    BYOC_ASSIGN_OR_RETURN(Expr cond, parseExpr());
    BYOC_TRY(expect(")"));
    BYOC_ASSIGN_OR_RETURN(Expr thenBranch, parseBlock());
    if (!isIdentifier("else")) return unexpected("'else'");
    ++pos_;
    BYOC_ASSIGN_OR_RETURN(Expr elseBranch, parseBlock());
    return Expr(IfNode::make(std::move(cond), std::move(thenBranch), std::move(elseBranch), originAt(at)));
  }

  /// `meta[relay.Constant][i]`
  Result<Expr> parseMetaReference() {
    const Token& at = next();
    BYOC_TRY(expect("["));
    if (!isIdentifier("relay.Constant")) return unexpected("relay.Constant");
    ++pos_;
    BYOC_TRY(expect("]"));
    BYOC_TRY(expect("["));
    if (peek().kind != Token::Kind::Integer) return unexpected("a constant index");
    const Token& indexToken = next();
    BYOC_TRY(expect("]"));
    std::optional<int64_t> index = parseIntegerLiteral(indexToken.text);
    if (!index || *index < 0 || static_cast<uint64_t>(*index) >= metadata_.size())
      return error(indexToken, "meta[relay.Constant][" + std::string(indexToken.text) + "] does not exist: the metadata section has " +
                                   std::to_string(metadata_.size()) + " constant(s)");
    return Expr(ConstantNode::make(metadata_[static_cast<std::size_t>(*index)], originAt(at)));
  }

  /// `(e)`, `(a, b)`, `(a,)`, `()`.
  Result<Expr> parseParenthesized() {
    const Token& at = next();
    std::vector<Expr> fields;
    bool sawComma = false;
    while (!isPunct(")")) {
      BYOC_ASSIGN_OR_RETURN(Expr field, parseExpr());
      fields.push_back(std::move(field));
      if (isPunct(",")) {
        ++pos_;
        sawComma = true;
      } else if (!isPunct(")")) {
        return unexpected("',' or ')'");
      }
    }
    ++pos_;
    if (fields.size() == 1 && !sawComma) return fields[0];
    return Expr(TupleNode::make(std::move(fields), originAt(at)));
  }

  text::TokenList list_;
  const std::vector<Token>& tokens_ = list_.tokens;
  std::size_t pos_ = 0;
  std::string_view fileName_;
  std::vector<TensorData> metadata_;
  std::shared_ptr<Provenance> provenance_;
  NodeId nextId_ = 0;
  int depth_ = 0;
  // Names are keyed by views of the source text, which outlives the parser.
  std::vector<std::unordered_map<std::string_view, Expr>> scopes_;  ///< parameters and lets, innermost last
  std::unordered_map<std::string_view, Expr> temps_;                ///< `%N = …` bindings of the definition
  std::unordered_map<std::string_view, Token> globalUses_;          ///< first use of each @name
};

}  // namespace

Result<std::vector<TensorData>> parseMetadataConstants(std::string_view source, std::string_view fileName) {
  std::size_t marker = source.find("#[metadata]");
  if (marker == std::string_view::npos) return std::vector<TensorData>{};
  int line = 1;
  for (char c : source.substr(0, marker)) line += c == '\n';
  return readMetadata(source.substr(marker + 11), fileName, line);
}

Result<Module> parseModule(std::string_view source, std::string_view fileName) {
  BYOC_ASSIGN_OR_RETURN(std::vector<TensorData> metadata, parseMetadataConstants(source, fileName));
  std::string_view program = source.substr(0, source.find("#[metadata]"));
  BYOC_ASSIGN_OR_RETURN(text::TokenList tokens, text::tokenize(program, fileName));
  return Parser(std::move(tokens), fileName, std::move(metadata)).parseModule();
}

}  // namespace byoc
