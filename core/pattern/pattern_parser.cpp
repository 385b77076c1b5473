#include "pattern/pattern_parser.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <unordered_set>

#include "ir/op.h"
#include "pattern/pattern_lexer.h"
#include "support/limits.h"
#include "text/scalar_literal.h"

namespace byoc {

namespace {

using pattern_text::Token;

/// Words that cannot name a definition.
const std::set<std::string, std::less<>> kKeywords = {"var",       "const",    "fn",        "if",        "let",
                                                      "dominates", "has_type", "has_dtype", "has_shape", "optional",
                                                      "True",      "False",    "None",      "_"};

class Parser {
 public:
  Parser(std::vector<Token> tokens, std::string_view fileName) : tokens_(std::move(tokens)), fileName_(fileName) {}

  /// The whole input as one type.
  Result<Type> runType() {
    BYOC_ASSIGN_OR_RETURN(Type type, parseType());
    if (peek().kind != Token::Kind::End) return error(peek(), "expected the end of the type");
    return type;
  }

  /// The whole input as a pattern. Cycles closed by recursive definitions that the result does
  /// not reach (all of them, on an error) are broken so that nothing leaks.
  Result<ParsedPattern> run() {
    Result<ParsedPattern> result = program();
    std::unordered_set<const PatternNode*> kept;
    if (result)
      for (const Pattern& node : patternPostOrder(result->pattern)) kept.insert(node.get());
    std::vector<Pattern> definitions;
    for (const auto& [name, definition] : names_) definitions.push_back(definition);
    for (const Pattern& node : patternPostOrder(definitions))
      if (const auto* wild = node->as<WildcardPatternNode>(); wild && !kept.count(wild)) wild->redirectTo({});
    return result;
  }

 private:
  Result<ParsedPattern> program() {
    while (peek().kind == Token::Kind::Identifier && peekAt(1).is("=")) BYOC_TRY(definition());
    BYOC_ASSIGN_OR_RETURN(Pattern root, pattern());
    if (peek().kind != Token::Kind::End) {
      if (peek().is("="))
        return error(peek(), "expected ';' or the end of the pattern (a name is defined as 'name = pattern;')");
      return error(peek(), "expected '|', '(', '{', '.' or the end of the pattern");
    }
    // Names nest sub-patterns without brackets (`a = f(*); b = f(a); …`).
    const SourceLocation rootAt = locations_.count(root.get()) ? locations_.at(root.get()) : location(tokens_.front());
    BYOC_TRY(checkPatternDepth(root, rootAt));
    return ParsedPattern{std::move(root), std::move(locations_)};
  }

  const Token& peek() const { return tokens_[pos_]; }
  const Token& peekAt(std::size_t ahead) const { return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)]; }
  const Token& next() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }

  Diagnostic error(const Token& token, const std::string& expected) const {
    return makeError("found " + token.describe() + ", " + expected, location(token));
  }
  SourceLocation location(const Token& token) const { return {std::string(fileName_), token.line, token.column}; }

  Diagnostic tooDeep(const Token& at) const {
    return error(at, "expected at most " + std::to_string(limits::kMaxNestingDepth) +
                         " nested brackets or sub-patterns (the nesting limit)");
  }

  Status expect(std::string_view punct, const std::string& what = {}) {
    if (peek().is(punct)) {
      next();
      return Status::ok();
    }
    return error(peek(), "expected '" + std::string(punct) + "'" + (what.empty() ? "" : " " + what));
  }

  Pattern located(Pattern node, const Token& at) {
    locations_.emplace(node.get(), location(at));
    return node;
  }

  Status definition() {
    const Token& nameToken = next();
    const std::string name = nameToken.text;
    if (kKeywords.count(name)) return error(nameToken, "expected a name that is not a keyword");
    if (names_.count(name)) return error(nameToken, "expected a name not defined before");
    next();  // '='
    auto placeholder = makeRef<WildcardPatternNode>(name);
    locations_.emplace(placeholder.get(), location(nameToken));
    pending_.emplace(name, Pending{placeholder, false});
    Result<Pattern> value = pattern();
    Pending pending = pending_.at(name);
    pending_.erase(name);
    if (!value) return value.status();
    if (value->get() == placeholder.get())
      return makeError("expected a pattern for '" + name + "', found only its own name", location(nameToken));
    Pattern bound = *value;
    if (pending.used) {
      placeholder->redirectTo(bound);
      bound = placeholder;
    } else {
      locations_.erase(placeholder.get());
      if (bound->name().empty()) {
        SourceLocation where = locations_.count(bound.get()) ? locations_.at(bound.get()) : location(nameToken);
        locations_.erase(bound.get());
        bound = withName(bound, name);
        locations_.emplace(bound.get(), where);
      }
    }
    names_.emplace(name, bound);
    return expect(";", "after a definition");
  }

  Result<Pattern> pattern() {
    const Token& start = peek();
    limits::NestingLevel level(depth_);
    if (level.tooDeep()) return tooDeep(start);
    BYOC_ASSIGN_OR_RETURN(Pattern left, postfix());
    while (peek().is("|")) {
      next();
      BYOC_ASSIGN_OR_RETURN(Pattern right, postfix());
      left = located(alt(left, right), start);
    }
    return left;
  }

  Result<Pattern> postfix() {
    const Token& start = peek();
    BYOC_ASSIGN_OR_RETURN(Pattern current, primary());
    while (true) {
      if (peek().is("(")) {
        next();
        BYOC_ASSIGN_OR_RETURN(std::optional<std::vector<Pattern>> args, list(")"));
        current = located(args ? isCall(current, std::move(*args)) : isCallAnyArgs(current), start);
      } else if (peek().is("{")) {
        next();
        BYOC_ASSIGN_OR_RETURN(Attrs attrs, attributes());
        current = located(hasAttr(current, std::move(attrs)), start);
      } else if (peek().is(".")) {
        next();
        if (peek().is("*")) {
          next();
          current = located(isTupleGetItem(current, -1), start);
        } else if (peek().kind == Token::Kind::Integer && peek().suffix.empty()) {
          std::optional<int64_t> index = parseIntegerLiteral(peek().text);
          if (!index || *index < 0 || *index > INT32_MAX) return error(peek(), "expected a tuple index from 0 to 2^31-1");
          next();
          current = located(isTupleGetItem(current, static_cast<int>(*index)), start);
        } else {
          return error(peek(), "expected a tuple index or '*' after '.'");
        }
      } else {
        return current;
      }
    }
  }

  /// `..` (absent) or a comma-separated list of patterns, up to and including `close`.
  Result<std::optional<std::vector<Pattern>>> list(std::string_view close) {
    if (peek().is("..")) {
      next();
      BYOC_TRY(expect(close, "after '..'"));
      return std::optional<std::vector<Pattern>>();
    }
    std::vector<Pattern> items;
    if (peek().is(close)) {
      next();
      return std::optional<std::vector<Pattern>>(std::move(items));
    }
    while (true) {
      BYOC_ASSIGN_OR_RETURN(Pattern item, pattern());
      items.push_back(std::move(item));
      if (peek().is(",")) {
        next();
        continue;
      }
      if (peek().is(close)) {
        next();
        return std::optional<std::vector<Pattern>>(std::move(items));
      }
      return error(peek(), "expected ',' or '" + std::string(close) + "'");
    }
  }

  Result<std::vector<Pattern>> exactly(std::size_t count, const std::string& what) {
    BYOC_TRY(expect("(", "after " + what));
    std::vector<Pattern> items;
    for (std::size_t i = 0; i < count; ++i) {
      if (i > 0) BYOC_TRY(expect(",", "(" + what + " takes " + std::to_string(count) + " patterns)"));
      BYOC_ASSIGN_OR_RETURN(Pattern item, pattern());
      items.push_back(std::move(item));
    }
    if (!peek().is(")"))
      return error(peek(), "expected ')' (" + what + " takes " + std::to_string(count) + " patterns)");
    next();
    return items;
  }

  Result<Pattern> primary() {
    const Token& token = peek();
    switch (token.kind) {
      case Token::Kind::Punct:
        if (token.is("*")) {
          next();
          return located(wildcard(), token);
        }
        if (token.is("(")) return parenthesized();
        return error(token, "expected a pattern");
      case Token::Kind::LocalVar: next(); return located(isVar(token.text), token);
      case Token::Kind::GlobalVar: next(); return located(isExpr(GlobalVarNode::make(token.text)), token);
      case Token::Kind::Integer:
      case Token::Kind::Float: {
        next();
        Result<TensorData> value = scalarFromLiteral(token.text, token.suffix, token.kind == Token::Kind::Float);
        if (!value) return makeError(value.error().message, location(token));
        return located(isExpr(ConstantNode::make(std::move(value).value())), token);
      }
      case Token::Kind::String: return error(token, "expected a pattern (strings appear only as attribute values)");
      case Token::Kind::End: return error(token, "expected a pattern");
      case Token::Kind::Identifier: return identifier();
    }
    return error(token, "expected a pattern");
  }

  /// `()`, `(..)`, `(p)` (grouping), `(p,)`, `(p, q, …)`.
  Result<Pattern> parenthesized() {
    const Token& open = next();
    if (peek().is("..") || peek().is(")")) {
      BYOC_ASSIGN_OR_RETURN(std::optional<std::vector<Pattern>> items, list(")"));
      return located(items ? isTuple(std::move(*items)) : isAnyTuple(), open);
    }
    BYOC_ASSIGN_OR_RETURN(Pattern first, pattern());
    if (peek().is(")")) {
      next();
      return first;
    }
    if (!peek().is(",")) return error(peek(), "expected ',' or ')'");
    next();
    std::vector<Pattern> items{first};
    while (!peek().is(")")) {
      BYOC_ASSIGN_OR_RETURN(Pattern item, pattern());
      items.push_back(std::move(item));
      if (peek().is(",")) {
        next();
      } else if (!peek().is(")")) {
        return error(peek(), "expected ',' or ')'");
      }
    }
    next();
    return located(isTuple(std::move(items)), open);
  }

  Result<Pattern> identifier() {
    const Token& token = next();
    const std::string& word = token.text;
    if (word == "var") return located(isVar(), token);
    if (word == "const") return peek().is("(") ? tensorLiteral(token) : located(isConstant(), token);
    if (word == "True" || word == "False")
      return located(isExpr(ConstantNode::make(TensorData::scalar(DType::Bool, word == "True" ? 1 : 0))), token);
    if (word == "_") {
      if (!underscore_) return error(token, "expected a pattern ('_' stands for the first pattern of optional(…))");
      return *underscore_;
    }
    if (word == "fn") return function(token);
    if (word == "if" || word == "let" || word == "dominates") {
      BYOC_ASSIGN_OR_RETURN(std::vector<Pattern> parts, exactly(3, word));
      if (word == "if") return located(isIf(parts[0], parts[1], parts[2]), token);
      if (word == "let") return located(isLet(parts[0], parts[1], parts[2]), token);
      return located(dominates(parts[0], parts[1], parts[2]), token);
    }
    if (word == "has_type" || word == "has_dtype" || word == "has_shape") return typed(token);
    if (word == "optional") return optionalSugar(token);
    // A name may also be an op's (`mean = mean(x)`, as TVM users name a capture after its op):
    // called, the word is the op; anywhere else, the name.
    if (peek().text == "(" && peek().kind == Token::Kind::Punct)
      if (Op op = OpRegistry::global().get(word)) return located(isExpr(op), token);
    if (auto it = pending_.find(word); it != pending_.end()) {
      it->second.used = true;
      return Pattern(it->second.placeholder);
    }
    if (auto it = names_.find(word); it != names_.end()) return it->second;
    if (Op op = OpRegistry::global().get(word)) return located(isExpr(op), token);
    return makeError("found '" + word + "', expected a registered op or a name defined before", location(token));
  }

  /// `const([[1f, 2f], [3f, 4f]])`: a tensor constant, matched by value. Nested lists give the
  /// shape (at most limits::kMaxRank deep, each level the same length throughout); the elements are
  /// numeric literals of one dtype. Read without recursion: the open lists are counted.
  Result<Pattern> tensorLiteral(const Token& at) {
    next();  // '('
    std::vector<int64_t> shape;           // each level's length, once a list of it closed
    std::vector<int64_t> counts;          // items of each open list
    std::optional<std::size_t> rank;      // fixed by the first element
    std::optional<DType> dtype;
    std::vector<std::byte> bytes;
    if (!peek().is("[")) return error(peek(), "expected '[' starting the tensor's values");
    do {
      const Token& token = next();
      if (token.is("[")) {
        if (rank && counts.size() >= *rank) return error(token, "expected a number (the lists nest " + std::to_string(*rank) + " deep)");
        if (counts.size() >= static_cast<std::size_t>(limits::kMaxRank))
          return error(token, "expected at most " + std::to_string(limits::kMaxRank) + " nested lists (the rank limit)");
        if (!counts.empty()) ++counts.back();
        counts.push_back(0);
        continue;
      }
      if (token.kind == Token::Kind::Integer || token.kind == Token::Kind::Float) {
        if (rank && counts.size() != *rank) return error(token, "expected a list (the lists nest " + std::to_string(*rank) + " deep)");
        Result<TensorData> value = scalarFromLiteral(token.text, token.suffix, token.kind == Token::Kind::Float);
        if (!value) return makeError(value.error().message, location(token));
        if (dtype && value->dtype() != *dtype)
          return error(token, "expected a " + std::string(dtypeName(*dtype)) + " literal like the first element");
        rank = counts.size();
        dtype = value->dtype();
        bytes.insert(bytes.end(), value->bytes().begin(), value->bytes().end());
        ++counts.back();
      } else if (token.is("]")) {
        const std::size_t level = counts.size() - 1;
        if (shape.size() <= level) shape.resize(level + 1, -1);
        if (shape[level] >= 0 && shape[level] != counts.back())
          return error(token, "expected " + std::to_string(shape[level]) + " items in this list, as in the others of its level");
        shape[level] = counts.back();
        counts.pop_back();
      } else {
        return error(token, "expected a number, '[' or ']'");
      }
      // An item ended: the list it is in goes on after ',' or ends.
      if (counts.empty()) break;
      if (peek().is(",")) {
        next();
        if (peek().is("]")) return error(peek(), "expected a number or '[' after ','");
      } else if (!peek().is("]")) {
        return error(peek(), "expected ',' or ']'");
      }
    } while (!counts.empty());
    if (!dtype) return error(at, "expected a tensor with at least one element");
    BYOC_TRY(expect(")", "after the tensor's values"));
    shape.resize(*rank);
    return located(isExpr(ConstantNode::make(TensorData::fromBytes(*dtype, Shape(shape.begin(), shape.end()), bytes))), at);
  }

  Result<Pattern> function(const Token& token) {
    BYOC_TRY(expect("(", "after 'fn'"));
    BYOC_ASSIGN_OR_RETURN(std::optional<std::vector<Pattern>> params, list(")"));
    BYOC_TRY(expect("{", "before the function body"));
    BYOC_ASSIGN_OR_RETURN(Pattern body, pattern());
    BYOC_TRY(expect("}", "after the function body"));
    return located(isFunction(std::move(params), body), token);
  }

  Result<Pattern> optionalSugar(const Token& token) {
    BYOC_TRY(expect("(", "after 'optional'"));
    BYOC_ASSIGN_OR_RETURN(Pattern base, pattern());
    BYOC_TRY(expect(",", "(optional takes a pattern and what may wrap it, with '_' for the pattern)"));
    std::optional<Pattern> outer = underscore_;
    underscore_ = base;
    Result<Pattern> wrapped = pattern();
    underscore_ = outer;
    if (!wrapped) return wrapped;
    BYOC_TRY(expect(")", "after optional's second pattern"));
    return located(alt(base, *wrapped), token);
  }

  Result<Pattern> typed(const Token& token) {
    const std::string& word = token.text;
    BYOC_TRY(expect("(", "after '" + word + "'"));
    Type type;
    DType dtype = DType::Float32;
    Shape shape;
    if (word == "has_type") {
      BYOC_ASSIGN_OR_RETURN(type, parseType());
    } else if (word == "has_dtype") {
      const Token& name = peek();
      std::optional<DType> parsed;
      if (name.kind == Token::Kind::Identifier || name.kind == Token::Kind::String) parsed = parseDType(name.text);
      if (!parsed) return error(name, "expected a dtype such as float32");
      next();
      dtype = *parsed;
    } else {
      BYOC_ASSIGN_OR_RETURN(shape, parseShape("[", "]"));
    }
    Pattern inner;
    if (peek().is(",")) {
      next();
      BYOC_ASSIGN_OR_RETURN(inner, pattern());
    } else {
      inner = located(wildcard(), token);
    }
    BYOC_TRY(expect(")", "after " + word + "'s arguments"));
    if (word == "has_type") return located(hasType(inner, type), token);
    if (word == "has_dtype") return located(hasDType(inner, dtype), token);
    return located(hasShape(inner, shape), token);
  }

  Result<Shape> parseShape(std::string_view open, std::string_view close) {
    BYOC_TRY(expect(open, "to start a shape"));
    Shape shape;
    if (peek().is(close)) {
      next();
      return shape;
    }
    while (true) {
      if (peek().is("?")) {
        next();
        shape.push_back(kAnyDim);
      } else if (peek().kind == Token::Kind::Integer && peek().suffix.empty()) {
        std::optional<int64_t> dim = parseIntegerLiteral(peek().text);
        if (!dim || *dim < 0) return error(peek(), "expected a dimension from 0 to 2^63-1");
        next();
        shape.push_back(*dim);
      } else {
        return error(peek(), "expected a dimension (an integer or '?')");
      }
      if (peek().is(",")) {
        next();
        if (peek().is(close)) break;
        continue;
      }
      if (peek().is(close)) break;
      return error(peek(), "expected ',' or '" + std::string(close) + "'");
    }
    next();
    return shape;
  }

  /// `Tensor[(d, …), dtype]`, a scalar dtype, a tuple of types `(T, …)`, or `fn (T, …) -> R`.
  Result<Type> parseType() {
    const Token& token = peek();
    limits::NestingLevel level(depth_);
    if (level.tooDeep()) return tooDeep(token);
    if (token.is("(")) {
      next();
      std::vector<Type> fields;
      while (!peek().is(")")) {
        BYOC_ASSIGN_OR_RETURN(Type field, parseType());
        fields.push_back(std::move(field));
        if (peek().is(",")) {
          next();
        } else if (!peek().is(")")) {
          return error(peek(), "expected ',' or ')' in a tuple type");
        }
      }
      next();
      return tupleType(std::move(fields));
    }
    if (token.kind == Token::Kind::Identifier && token.text == "fn") {
      next();
      BYOC_TRY(expect("(", "after 'fn' in a function type"));
      std::vector<Type> params;
      while (!peek().is(")")) {
        BYOC_ASSIGN_OR_RETURN(Type param, parseType());
        params.push_back(std::move(param));
        if (peek().is(",")) {
          next();
        } else if (!peek().is(")")) {
          return error(peek(), "expected ',' or ')' in a function type");
        }
      }
      next();
      BYOC_TRY(expect("->", "before the result type"));
      BYOC_ASSIGN_OR_RETURN(Type result, parseType());
      return funcType(std::move(params), std::move(result));
    }
    if (token.kind == Token::Kind::Identifier && token.text == "Tensor") {
      next();
      BYOC_TRY(expect("[", "after 'Tensor'"));
      BYOC_ASSIGN_OR_RETURN(Shape shape, parseShape("(", ")"));
      BYOC_TRY(expect(",", "between a tensor's shape and dtype"));
      const Token& name = peek();
      std::optional<DType> dtype = name.kind == Token::Kind::Identifier ? parseDType(name.text) : std::nullopt;
      if (!dtype) return error(name, "expected a dtype such as float32");
      next();
      BYOC_TRY(expect("]", "after a tensor type"));
      return tensorType(std::move(shape), *dtype);
    }
    if (token.kind == Token::Kind::Identifier) {
      if (std::optional<DType> dtype = parseDType(token.text)) {
        next();
        return scalarType(*dtype);
      }
    }
    return error(token, "expected a type (Tensor[(…), dtype], a dtype, a tuple of types or fn (…) -> T)");
  }

  Result<Attrs> attributes() {
    Attrs attrs;
    if (peek().is("}")) {
      next();
      return attrs;
    }
    while (true) {
      const Token& key = peek();
      if (key.kind != Token::Kind::Identifier) return error(key, "expected an attribute name");
      next();
      if (attrs.contains(key.text)) return error(key, "expected an attribute not given before");
      BYOC_TRY(expect("=", "after the attribute name"));
      BYOC_ASSIGN_OR_RETURN(AttrValue value, attrValue());
      attrs.set(key.text, std::move(value));
      if (peek().is(",")) {
        next();
        continue;
      }
      if (peek().is("}")) {
        next();
        return attrs;
      }
      return error(peek(), "expected ',' or '}'");
    }
  }

  Result<AttrValue> attrValue() {
    const Token& token = peek();
    limits::NestingLevel level(depth_);
    if (level.tooDeep()) return tooDeep(token);
    switch (token.kind) {
      case Token::Kind::Integer: {
        std::optional<int64_t> value = parseIntegerLiteral(token.text);
        if (!value) return error(token, "expected an integer from -2^63 to 2^63-1");
        next();
        return AttrValue(*value);
      }
      case Token::Kind::Float: {
        std::optional<double> value = parseFloatLiteral(token.text);
        if (!value) return error(token, "expected a float with a magnitude up to 1.79769e+308");
        next();
        return AttrValue(*value);
      }
      case Token::Kind::String: next(); return AttrValue(token.text);
      case Token::Kind::Identifier:
        if (token.text == "True" || token.text == "False") {
          next();
          return AttrValue(token.text == "True");
        }
        if (token.text == "None") {
          next();
          return AttrValue();
        }
        break;
      case Token::Kind::Punct:
        if (token.is("[")) {
          next();
          AttrValue::List items;
          while (!peek().is("]")) {
            BYOC_ASSIGN_OR_RETURN(AttrValue item, attrValue());
            items.push_back(std::move(item));
            if (peek().is(",")) {
              next();
            } else if (!peek().is("]")) {
              return error(peek(), "expected ',' or ']'");
            }
          }
          next();
          return AttrValue(std::move(items));
        }
        break;
      default: break;
    }
    return error(token, "expected an attribute value (a number, a string, True, False, None or a list)");
  }

  struct Pending {
    Ref<WildcardPatternNode> placeholder;
    bool used;
  };

  std::vector<Token> tokens_;
  std::string_view fileName_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  std::map<std::string, Pattern, std::less<>> names_;
  std::map<std::string, Pending, std::less<>> pending_;
  std::optional<Pattern> underscore_;
  std::unordered_map<const PatternNode*, SourceLocation> locations_;
};

}  // namespace

int patternDepth(const Pattern& pattern) {
  std::unordered_map<const PatternNode*, int> depthOf;
  int deepest = 0;
  for (const Pattern& node : patternPostOrder(pattern)) {
    int depth = 1;
    for (const Pattern& child : patternChildren(*node))
      if (auto found = depthOf.find(child.get()); found != depthOf.end()) depth = std::max(depth, found->second + 1);
    depthOf[node.get()] = depth;
    deepest = std::max(deepest, depth);
  }
  return deepest;
}

Status checkPatternDepth(const Pattern& pattern, const SourceLocation& where) {
  const int depth = patternDepth(pattern);
  if (depth <= limits::kMaxNestingDepth) return Status::ok();
  return makeError("the pattern nests " + std::to_string(depth) + " sub-patterns deep, more than the limit of " +
                       std::to_string(limits::kMaxNestingDepth),
                   where);
}

Result<ParsedPattern> parsePatternWithLocations(std::string_view text, std::string_view fileName, int firstLine,
                                                int firstColumn) {
  BYOC_ASSIGN_OR_RETURN(std::vector<Token> tokens, pattern_text::tokenize(text, fileName));
  for (Token& token : tokens) {
    if (token.line == 1) token.column += firstColumn - 1;
    token.line += firstLine - 1;
  }
  return Parser(std::move(tokens), fileName).run();
}

Result<Pattern> parsePattern(std::string_view text, std::string_view fileName) {
  BYOC_ASSIGN_OR_RETURN(ParsedPattern parsed, parsePatternWithLocations(text, fileName));
  return parsed.pattern;
}

Result<Type> parsePatternType(std::string_view text, std::string_view fileName) {
  BYOC_ASSIGN_OR_RETURN(std::vector<Token> tokens, pattern_text::tokenize(text, fileName));
  return Parser(std::move(tokens), fileName).runType();
}

}  // namespace byoc
