#include "target/predicate.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <vector>

#include "ir/op.h"
#include "support/limits.h"
#include "support/source_scanner.h"
#include "target/predicate_syntax.h"
#include "text/scalar_literal.h"

namespace byoc {

namespace predicate {

using NodePtr = std::shared_ptr<const Node>;

// ---------------------------------------------------------------------------------------------
// Lexer
// ---------------------------------------------------------------------------------------------

struct Token {
  enum class Kind { Name, Int, Float, String, Symbol, End };
  Kind kind;
  std::string text;
  int line;
  int column;
};

/// Splits the predicate text into tokens; reports unterminated strings and stray characters.
Result<std::vector<Token>> tokenize(std::string_view text, int firstColumn) {
  std::vector<Token> tokens;
  SourceScanner scan(text, 1, firstColumn);
  auto at = [](int line, int column) { return std::to_string(line) + ":" + std::to_string(column) + ": "; };
  while (true) {
    scan.skipSpace({});
    const int line = scan.line();
    const int column = scan.column();
    if (scan.atEnd()) break;
    const char c = scan.peek();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      const std::string_view name =
          scan.takeWhile([](char k) { return std::isalnum(static_cast<unsigned char>(k)) || k == '_' || k == '.'; });
      tokens.push_back({Token::Kind::Name, std::string(name), line, column});
    } else if (scan.atNumber()) {
      const NumberText number = scan.number({.suffix = false});
      tokens.push_back({number.isFloat ? Token::Kind::Float : Token::Kind::Int, std::string(number.digits), line, column});
    } else if (c == '"') {
      std::optional<std::string> value = scan.quotedString();
      if (!value) return makeError(at(line, column) + "unterminated string");
      tokens.push_back({Token::Kind::String, std::move(*value), line, column});
    } else {
      static constexpr std::string_view kSymbols[] = {"==", "!=", "<=", ">=", "<", ">", "(", ")", "[", "]", ",", ":"};
      const auto symbol = std::find_if(std::begin(kSymbols), std::end(kSymbols), [&](std::string_view s) { return scan.startsWith(s); });
      if (symbol == std::end(kSymbols)) return makeError(at(line, column) + "unexpected character '" + std::string(1, c) + "'");
      scan.advance(symbol->size());
      tokens.push_back({Token::Kind::Symbol, std::string(*symbol), line, column});
    }
  }
  tokens.push_back({Token::Kind::End, "", scan.line(), scan.column()});
  return tokens;
}

// ---------------------------------------------------------------------------------------------
// Parser (recursive over the nesting of the written condition, which the nesting limit bounds)
// ---------------------------------------------------------------------------------------------

/// The first node found deeper than the nesting limit, or null.
const Node* tooDeep(const Node& root) {
  std::vector<std::pair<const Node*, int>> stack{{&root, 1}};
  while (!stack.empty()) {
    const auto [node, depth] = stack.back();
    stack.pop_back();
    if (depth > limits::kMaxNestingDepth) return node;
    for (const NodePtr& child : node->children) stack.emplace_back(child.get(), depth + 1);
  }
  return nullptr;
}

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  Result<NodePtr> parseAll() {
    BYOC_ASSIGN_OR_RETURN(NodePtr root, parseExpr());
    if (peek().kind != Token::Kind::End) return unexpected("the end of the condition or an operator");
    // `a and b and c …` nests its tree deeper than its brackets; the evaluator recurses over the tree.
    if (const Node* deep = tooDeep(*root))
      return makeError(std::to_string(deep->line) + ":" + std::to_string(deep->column) + ": the condition nests more than " +
                       std::to_string(limits::kMaxNestingDepth) + " operations deep (the nesting limit)");
    return root;
  }

 private:
  const Token& peek() const { return tokens_[position_]; }
  const Token& next() { return tokens_[position_++]; }
  bool atName(std::string_view name) const { return peek().kind == Token::Kind::Name && peek().text == name; }
  bool atSymbol(std::string_view symbol) const { return peek().kind == Token::Kind::Symbol && peek().text == symbol; }

  Diagnostic unexpected(const std::string& expected) const {
    const Token& token = peek();
    std::string found = token.kind == Token::Kind::End ? "the end of the condition" : "'" + token.text + "'";
    return makeError(std::to_string(token.line) + ":" + std::to_string(token.column) + ": found " + found +
                     ", expected " + expected);
  }

  Diagnostic nestedTooDeep() const {
    return unexpected("at most " + std::to_string(limits::kMaxNestingDepth) +
                      " nested conditions or brackets (the nesting limit)");
  }

  Status expectSymbol(std::string_view symbol) {
    if (!atSymbol(symbol)) return unexpected("'" + std::string(symbol) + "'");
    ++position_;
    return Status::ok();
  }

  static NodePtr make(Node::Kind kind, const Token& at, std::string name = {}, std::vector<NodePtr> children = {},
                      AttrValue literal = {}) {
    auto node = std::make_shared<Node>();
    node->kind = kind;
    node->name = std::move(name);
    node->children = std::move(children);
    node->literal = std::move(literal);
    node->line = at.line;
    node->column = at.column;
    return node;
  }

  Result<NodePtr> parseExpr() {
    limits::NestingLevel level(depth_);
    if (level.tooDeep()) return nestedTooDeep();
    if (!atName("if")) return parseOr();
    Token at = next();
    BYOC_ASSIGN_OR_RETURN(NodePtr condition, parseExpr());
    if (!atName("then")) return unexpected("'then'");
    ++position_;
    BYOC_ASSIGN_OR_RETURN(NodePtr thenValue, parseExpr());
    if (!atName("else")) return unexpected("'else'");
    ++position_;
    BYOC_ASSIGN_OR_RETURN(NodePtr elseValue, parseExpr());
    return make(Node::Kind::IfThenElse, at, {}, {condition, thenValue, elseValue});
  }

  Result<NodePtr> parseOr() {
    BYOC_ASSIGN_OR_RETURN(NodePtr left, parseAnd());
    while (atName("or")) {
      Token at = next();
      BYOC_ASSIGN_OR_RETURN(NodePtr right, parseAnd());
      left = make(Node::Kind::Or, at, {}, {left, right});
    }
    return left;
  }

  Result<NodePtr> parseAnd() {
    BYOC_ASSIGN_OR_RETURN(NodePtr left, parseNot());
    while (atName("and")) {
      Token at = next();
      BYOC_ASSIGN_OR_RETURN(NodePtr right, parseNot());
      left = make(Node::Kind::And, at, {}, {left, right});
    }
    return left;
  }

  Result<NodePtr> parseNot() {
    if (atName("not")) {
      limits::NestingLevel level(depth_);
      if (level.tooDeep()) return nestedTooDeep();
      Token at = next();
      BYOC_ASSIGN_OR_RETURN(NodePtr operand, parseNot());
      return make(Node::Kind::Not, at, {}, {operand});
    }
    return parseComparison();
  }

  Result<NodePtr> parseComparison() {
    BYOC_ASSIGN_OR_RETURN(NodePtr left, parseIndexed());
    static const char* const kOperators[] = {"==", "!=", "<=", ">=", "<", ">"};
    for (const char* op : kOperators) {
      if (atSymbol(op)) {
        Token at = next();
        BYOC_ASSIGN_OR_RETURN(NodePtr right, parseIndexed());
        return make(Node::Kind::Compare, at, op, {left, right});
      }
    }
    if (atName("in")) {
      Token at = next();
      BYOC_ASSIGN_OR_RETURN(NodePtr right, parseIndexed());
      return make(Node::Kind::Compare, at, "in", {left, right});
    }
    if (atName("not") && position_ + 1 < tokens_.size() && tokens_[position_ + 1].kind == Token::Kind::Name &&
        tokens_[position_ + 1].text == "in") {
      Token at = next();
      ++position_;
      BYOC_ASSIGN_OR_RETURN(NodePtr right, parseIndexed());
      return make(Node::Kind::Not, at, {}, {make(Node::Kind::Compare, at, "in", {left, right})});
    }
    return left;
  }

  /// An operand followed by any number of `[index]` and `[start:stop]`.
  Result<NodePtr> parseIndexed() {
    BYOC_ASSIGN_OR_RETURN(NodePtr value, parseOperand());
    while (atSymbol("[")) {
      limits::NestingLevel level(depth_);
      if (level.tooDeep()) return nestedTooDeep();
      Token at = next();
      BYOC_ASSIGN_OR_RETURN(NodePtr start, sliceBound(at, ":"));
      if (atSymbol(":")) {
        ++position_;
        BYOC_ASSIGN_OR_RETURN(NodePtr stop, sliceBound(at, "]"));
        BYOC_TRY(expectSymbol("]"));
        value = make(Node::Kind::Slice, at, {}, {value, start, stop});
        continue;
      }
      if (start->kind == Node::Kind::Literal && start->literal.isNone() && atSymbol("]"))
        return unexpected("an index or a slice such as 1:3");
      BYOC_TRY(expectSymbol("]"));
      value = make(Node::Kind::Index, at, {}, {value, start});
    }
    return value;
  }

  /// A bound of a slice, or a None literal when `end` comes first (`[:2]`, `[1:]`).
  Result<NodePtr> sliceBound(const Token& at, std::string_view end) {
    if (atSymbol(end) || atSymbol("]")) return make(Node::Kind::Literal, at, {}, {}, AttrValue());
    return parseExpr();
  }

  Result<NodePtr> parseOperand() {
    const Token& token = peek();
    switch (token.kind) {
      case Token::Kind::Int: {
        std::optional<int64_t> value = parseIntegerLiteral(token.text);
        if (!value) return unexpected("an integer from -2^63 to 2^63-1");
        ++position_;
        return make(Node::Kind::Literal, token, {}, {}, AttrValue(*value));
      }
      case Token::Kind::Float: {
        std::optional<double> value = parseFloatLiteral(token.text);
        if (!value) return unexpected("a float with a magnitude up to 1.79769e+308");
        ++position_;
        return make(Node::Kind::Literal, token, {}, {}, AttrValue(*value));
      }
      case Token::Kind::String:
        ++position_;
        return make(Node::Kind::Literal, token, {}, {}, AttrValue(token.text));
      case Token::Kind::Symbol:
        if (token.text == "(") {
          ++position_;
          BYOC_ASSIGN_OR_RETURN(NodePtr inner, parseExpr());
          BYOC_TRY(expectSymbol(")"));
          return inner;
        }
        if (token.text == "[") return parseList();
        return unexpected("a value, a name or '('");
      case Token::Kind::Name:
        return parseName();
      case Token::Kind::End:
        return unexpected("a value, a name or '('");
    }
    return unexpected("a value");
  }

  Result<NodePtr> parseList() {
    Token at = next();
    std::vector<NodePtr> items;
    if (!atSymbol("]")) {
      while (true) {
        BYOC_ASSIGN_OR_RETURN(NodePtr item, parseExpr());
        items.push_back(std::move(item));
        if (atSymbol("]")) break;
        BYOC_TRY(expectSymbol(","));
      }
    }
    ++position_;
    return make(Node::Kind::List, at, {}, std::move(items));
  }

  Result<NodePtr> parseName() {
    Token at = next();
    if (at.text == "True" || at.text == "False") return make(Node::Kind::Literal, at, {}, {}, AttrValue(at.text == "True"));
    if (at.text == "None") return make(Node::Kind::Literal, at, {}, {}, AttrValue());
    static const char* const kReserved[] = {"and", "or", "not", "in", "if", "then", "else"};
    for (const char* word : kReserved)
      if (at.text == word) {
        --position_;
        return unexpected("a value, a name or '('");
      }
    if (!atSymbol("(")) return make(Node::Kind::Attribute, at, at.text);
    ++position_;
    std::vector<NodePtr> args;
    if (!atSymbol(")")) {
      while (true) {
        BYOC_ASSIGN_OR_RETURN(NodePtr arg, parseExpr());
        args.push_back(std::move(arg));
        if (atSymbol(")")) break;
        BYOC_TRY(expectSymbol(","));
      }
    }
    ++position_;
    return make(Node::Kind::Call, at, at.text, std::move(args));
  }

  std::vector<Token> tokens_;
  std::size_t position_ = 0;
  int depth_ = 0;
};

std::string functionList() {
  std::string list;
  const std::size_t count = std::size(kFunctions);
  for (std::size_t i = 0; i < count; ++i) list += std::string(i == 0 ? "" : i + 1 == count ? " or " : ", ") + std::string(kFunctions[i].name);
  return list;
}

Result<Function> resolveCall(const Node& call) {
  const std::string& name = call.name;
  const auto* spec = std::find_if(std::begin(kFunctions), std::end(kFunctions), [&](const FunctionSpec& known) { return known.name == name; });
  if (spec == std::end(kFunctions)) return makeError("unknown function '" + name + "'; expected " + functionList());
  if (call.children.size() > spec->maxArgs)
    return makeError(name + "() takes at most " + std::to_string(spec->maxArgs) + " argument(s)");
  if (spec->function == Function::Attr &&
      (call.children.size() != 2 || call.children[1]->kind != Node::Kind::Literal || !call.children[1]->literal.isString()))
    return makeError("attr() takes a path and an attribute name in quotes");
  return spec->function;
}

std::optional<std::vector<std::size_t>> parsePath(std::string_view name) {
  std::vector<std::size_t> steps;
  if (name == "self" || name == "result") return steps;
  while (true) {
    std::size_t dot = name.find('.');
    std::string_view step = name.substr(0, dot);
    if (step.substr(0, 3) != "arg" || step.size() == 3) return std::nullopt;
    std::size_t index = 0;
    for (char c : step.substr(3)) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
      index = index * 10 + static_cast<std::size_t>(c - '0');
    }
    steps.push_back(index);
    if (dot == std::string_view::npos) return steps;
    name = name.substr(dot + 1);
  }
}

// ---------------------------------------------------------------------------------------------
// Evaluator
// ---------------------------------------------------------------------------------------------

class Evaluator {
 public:
  explicit Evaluator(const Expr& self) : self_(self) {}

  Result<AttrValue> eval(const Node& node) {
    switch (node.kind) {
      case Node::Kind::Literal:
        return node.literal;
      case Node::Kind::List: {
        AttrValue::List items;
        for (const NodePtr& child : node.children) {
          BYOC_ASSIGN_OR_RETURN(AttrValue item, eval(*child));
          items.push_back(std::move(item));
        }
        return AttrValue(std::move(items));
      }
      case Node::Kind::Attribute:
        return attribute(self_, node.name);
      case Node::Kind::Call:
        return callFunction(node);
      case Node::Kind::Not: {
        BYOC_ASSIGN_OR_RETURN(bool value, evalBool(*node.children[0]));
        return AttrValue(!value);
      }
      case Node::Kind::And: {
        BYOC_ASSIGN_OR_RETURN(bool left, evalBool(*node.children[0]));
        if (!left) return AttrValue(false);
        BYOC_ASSIGN_OR_RETURN(bool right, evalBool(*node.children[1]));
        return AttrValue(right);
      }
      case Node::Kind::Or: {
        BYOC_ASSIGN_OR_RETURN(bool left, evalBool(*node.children[0]));
        if (left) return AttrValue(true);
        BYOC_ASSIGN_OR_RETURN(bool right, evalBool(*node.children[1]));
        return AttrValue(right);
      }
      case Node::Kind::Compare:
        return compare(node);
      case Node::Kind::IfThenElse: {
        BYOC_ASSIGN_OR_RETURN(bool condition, evalBool(*node.children[0]));
        return eval(*node.children[condition ? 1 : 2]);
      }
      case Node::Kind::Index:
        return index(node);
      case Node::Kind::Slice:
        return slice(node);
    }
    return error(node, "cannot evaluate");
  }

  Result<bool> evalBool(const Node& node) {
    BYOC_ASSIGN_OR_RETURN(AttrValue value, eval(node));
    if (!value.isBool()) return error(node, "expected a condition (True or False), found " + value.str());
    return value.asBool();
  }

 private:
  static Diagnostic error(const Node& node, const std::string& message) {
    return makeError(std::to_string(node.line) + ":" + std::to_string(node.column) + ": " + message);
  }

  /// The list `node.children[0]` gives; an error naming what it gave instead.
  Result<AttrValue::List> listOperand(const Node& node) {
    BYOC_ASSIGN_OR_RETURN(AttrValue value, eval(*node.children[0]));
    if (!value.isList()) return error(node, "expected a list to index, found " + value.str());
    return value.asList();
  }

  /// `node.children[i]` as an integer, or nothing when it is None; an error for anything else.
  Result<std::optional<int64_t>> integerOperand(const Node& node, std::size_t i) {
    BYOC_ASSIGN_OR_RETURN(AttrValue value, eval(*node.children[i]));
    if (value.isNone()) return std::optional<int64_t>();
    if (!value.isInt()) return error(*node.children[i], "expected an integer index, found " + value.str());
    return std::optional<int64_t>(value.asInt());
  }

  /// `list[i]`, counting from the end when `i` is negative, as Python does.
  Result<AttrValue> index(const Node& node) {
    BYOC_ASSIGN_OR_RETURN(AttrValue::List list, listOperand(node));
    BYOC_ASSIGN_OR_RETURN(std::optional<int64_t> position, integerOperand(node, 1));
    if (!position) return error(*node.children[1], "expected an integer index, found None");
    const auto size = static_cast<int64_t>(list.size());
    const int64_t at = *position < 0 ? *position + size : *position;
    if (at < 0 || at >= size)
      return error(node, "index " + std::to_string(*position) + " is out of range for a list of " + std::to_string(size));
    return list[static_cast<std::size_t>(at)];
  }

  /// `list[start:stop]` with Python's meaning: negative bounds count from the end, bounds past
  /// either end are clamped, and a missing bound is the end it stands for.
  Result<AttrValue> slice(const Node& node) {
    BYOC_ASSIGN_OR_RETURN(AttrValue::List list, listOperand(node));
    BYOC_ASSIGN_OR_RETURN(std::optional<int64_t> start, integerOperand(node, 1));
    BYOC_ASSIGN_OR_RETURN(std::optional<int64_t> stop, integerOperand(node, 2));
    const auto size = static_cast<int64_t>(list.size());
    auto clamp = [size](int64_t bound) { return std::clamp(bound < 0 ? bound + size : bound, int64_t{0}, size); };
    const int64_t from = start ? clamp(*start) : 0;
    const int64_t to = stop ? clamp(*stop) : size;
    if (from >= to) return AttrValue(AttrValue::List{});
    return AttrValue(AttrValue::List(list.begin() + from, list.begin() + to));
  }

  static Result<AttrValue> attribute(const Expr& expr, const std::string& name) {
    const auto* call = expr->as<CallNode>();
    if (!call) return AttrValue();
    const AttrValue* value = call->attrs.find(name);
    return value ? *value : AttrValue();
  }

  /// Follows `self` / `result` / `argN(.argM)*` from the call under test.
  Result<Expr> resolvePath(const Node& node) {
    if (node.kind != Node::Kind::Attribute) return error(node, "expected a path such as self, arg0 or arg1.arg0");
    std::optional<std::vector<std::size_t>> steps = parsePath(node.name);
    if (!steps) return error(node, "expected a path such as self, arg0 or arg1.arg0, found '" + node.name + "'");
    Expr current = self_;
    for (std::size_t index : *steps) {
      const auto* call = current->as<CallNode>();
      if (!call || index >= call->args.size()) return error(node, "'" + node.name + "' does not exist here");
      current = call->args[index];
    }
    return current;
  }

  Result<Expr> pathArgument(const Node& call, std::size_t position) {
    if (call.children.size() <= position) return self_;
    return resolvePath(*call.children[position]);
  }

  static const TensorTypeNode* tensorTypeOf(const Expr& expr) {
    return expr->type() ? expr->type()->as<TensorTypeNode>() : nullptr;
  }

  /// Whether `target` and its arguments (when it is a call) have types without unknown dimensions.
  Result<AttrValue> staticShape(const Node& node, const Expr& target) {
    std::vector<Expr> typed = {target};
    if (const auto* call = target->as<CallNode>()) typed.insert(typed.end(), call->args.begin(), call->args.end());
    for (const Expr& expr : typed) {
      if (!expr->type()) return error(node, "static_shape() needs typed values; run type inference first");
      for (const TypeNode* part : flattenTupleTypes(expr->type())) {
        const auto* tensor = part ? part->as<TensorTypeNode>() : nullptr;
        if (tensor && std::find(tensor->shape.begin(), tensor->shape.end(), kAnyDim) != tensor->shape.end())
          return AttrValue(false);
      }
    }
    return AttrValue(true);
  }

  Result<AttrValue> callFunction(const Node& node) {
    Result<Function> function = resolveCall(node);
    if (!function) return error(node, function.error().message);
    BYOC_ASSIGN_OR_RETURN(Expr target, pathArgument(node, 0));
    const auto* call = target->as<CallNode>();
    switch (*function) {
      case Function::Attr: return attribute(target, node.children[1]->literal.asString());
      case Function::Op: {
        const OpDef* def = call ? call->opDef() : nullptr;
        return AttrValue(def ? def->name : std::string());
      }
      case Function::IsConstant: return AttrValue(target->kind() == ExprKind::Constant);
      case Function::NumArgs: return AttrValue(static_cast<int64_t>(call ? call->args.size() : 0));
      case Function::ArgDTypes: {
        AttrValue::List dtypes;
        if (call) {
          for (const Expr& arg : call->args)
            if (const auto* tensor = tensorTypeOf(arg)) dtypes.emplace_back(std::string(dtypeName(tensor->dtype)));
        }
        return AttrValue(std::move(dtypes));
      }
      case Function::StaticShape: return staticShape(node, target);
      case Function::DType:
      case Function::Shape:
      case Function::Rank:
      case Function::Numel: return tensorProperty(node, *function, target);
    }
    return error(node, "unknown function '" + node.name + "'");  // every function is handled above
  }

  /// dtype(), shape(), rank() or numel() of `target`'s tensor type.
  Result<AttrValue> tensorProperty(const Node& node, Function function, const Expr& target) {
    const TensorTypeNode* tensor = tensorTypeOf(target);
    if (!tensor) return error(node, node.name + "() needs a typed tensor; run type inference first");
    if (function == Function::DType) return AttrValue(std::string(dtypeName(tensor->dtype)));
    if (function == Function::Shape) return AttrValue::ints(tensor->shape);
    if (function == Function::Rank) return AttrValue(static_cast<int64_t>(tensor->shape.size()));
    return AttrValue(tensor->numElements());
  }

  Result<AttrValue> compare(const Node& node) {
    BYOC_ASSIGN_OR_RETURN(AttrValue left, eval(*node.children[0]));
    BYOC_ASSIGN_OR_RETURN(AttrValue right, eval(*node.children[1]));
    const std::string& op = node.name;
    if (op == "in") {
      if (!right.isList()) return error(node, "'in' needs a list on its right, found " + right.str());
      for (const AttrValue& item : right.asList())
        if (sameValue(left, item)) return AttrValue(true);
      return AttrValue(false);
    }
    if (op == "==") return AttrValue(sameValue(left, right));
    if (op == "!=") return AttrValue(!sameValue(left, right));
    bool numeric = (left.isInt() || left.isFloat()) && (right.isInt() || right.isFloat());
    if (!numeric) return error(node, "'" + op + "' compares numbers, found " + left.str() + " and " + right.str());
    double a = left.asFloat();
    double b = right.asFloat();
    if (op == "<") return AttrValue(a < b);
    if (op == "<=") return AttrValue(a <= b);
    if (op == ">") return AttrValue(a > b);
    return AttrValue(a >= b);
  }

  /// Equality where 1 == 1.0 and lists compare element by element.
  static bool sameValue(const AttrValue& a, const AttrValue& b) {
    if ((a.isInt() || a.isFloat()) && (b.isInt() || b.isFloat())) return a.asFloat() == b.asFloat();
    if (a.isList() && b.isList()) {
      if (a.asList().size() != b.asList().size()) return false;
      for (std::size_t i = 0; i < a.asList().size(); ++i)
        if (!sameValue(a.asList()[i], b.asList()[i])) return false;
      return true;
    }
    return a == b;
  }

  Expr self_;
};

}  // namespace predicate

Result<Predicate> Predicate::parse(std::string_view text, std::string_view where, int firstColumn) {
  auto withWhere = [&](Diagnostic error) {
    if (!where.empty()) error.message = std::string(where) + ": " + error.message;
    return error;
  };
  auto tokens = predicate::tokenize(text, firstColumn);
  if (!tokens) return withWhere(tokens.error());
  auto root = predicate::Parser(std::move(tokens).value()).parseAll();
  if (!root) return withWhere(root.error());
  Predicate result;
  result.root_ = std::move(root).value();
  result.text_ = std::string(text);
  return result;
}

Result<bool> Predicate::evaluate(const Expr& call) const {
  return predicate::Evaluator(call).evalBool(*root_);
}

}  // namespace byoc
