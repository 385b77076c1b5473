#include "pattern/replacement.h"

#include <map>
#include <unordered_map>
#include <unordered_set>

#include "ir/op.h"
#include "pattern/pattern_parser.h"

namespace byoc {

struct Replacement::Parts {
  Pattern pattern;       ///< what is replaced
  OwnedPattern built;    ///< the replacement's own pattern tree
  /// The replacement's nodes that stand for a name of the pattern → that node of the pattern.
  std::unordered_map<const PatternNode*, Pattern> captures;
  /// Calls written with attributes (`f(x){k=v}`): built once, by their attribute node.
  std::unordered_set<const PatternNode*> attributed;
  std::vector<Pattern> order;  ///< the replacement's nodes, children first
};

namespace {

/// The named nodes of `pattern`, by name (the first node carrying a name).
std::map<std::string, Pattern, std::less<>> namedNodes(const Pattern& pattern) {
  std::map<std::string, Pattern, std::less<>> named;
  for (const Pattern& node : patternPostOrder(pattern))
    if (!node->name().empty()) named.emplace(node->name(), node);
  return named;
}

/// Why `node` cannot be built, or "" when it can.
std::string unbuildable(const PatternNode& node) {
  switch (node.kind()) {
    case PatternKind::Wildcard: return "'*' (name the pattern's node to use what it matched)";
    case PatternKind::Expr: {
      const Expr& expr = node.as<ExprPatternNode>()->expr;
      return expr->kind() == ExprKind::Op || expr->kind() == ExprKind::Constant ? "" : "a global function";
    }
    case PatternKind::Call: {
      const auto& call = *node.as<CallPatternNode>();
      const auto* callee = call.callee->as<ExprPatternNode>();
      if (!callee || callee->expr->kind() != ExprKind::Op) return "a call of anything but an op";
      return call.args ? "" : "a call with any arguments '(..)'";
    }
    case PatternKind::Tuple: return node.as<TuplePatternNode>()->fields ? "" : "any tuple '(..)'";
    case PatternKind::TupleGetItem: return node.as<TupleGetItemPatternNode>()->index >= 0 ? "" : "any tuple item '.*'";
    case PatternKind::Attr: return node.as<AttrPatternNode>()->pattern->kind() == PatternKind::Call ? "" : "attributes of anything but a call";
    case PatternKind::Var: return "a variable pattern";
    case PatternKind::Constant: return "'const' (write the literal)";
    case PatternKind::Function: return "a function pattern";
    case PatternKind::Alt: return "an alternative '|'";
    default: return "a pattern that only matches (types, dominates, if, let)";
  }
}

}  // namespace

Result<Replacement> Replacement::parse(std::string_view text, const Pattern& pattern, std::string_view fileName) {
  // The pattern's names come first, each a plain wildcard standing for what it matched; they sit
  // on line 0 so that the replacement's own text starts at line 1.
  const std::map<std::string, Pattern, std::less<>> named = namedNodes(pattern);
  std::string program;
  for (const auto& [name, node] : named) program += name + " = *; ";
  program += "\n";
  program += text;
  BYOC_ASSIGN_OR_RETURN(ParsedPattern parsed, parsePatternWithLocations(program, fileName, 0, 1));

  auto parts = std::make_shared<Parts>();
  parts->pattern = pattern;
  parts->built = OwnedPattern(parsed.pattern);
  parts->order = patternPostOrder(parsed.pattern);
  std::unordered_set<const PatternNode*> callees;
  for (const Pattern& node : parts->order)
    if (const auto* call = node->as<CallPatternNode>()) callees.insert(call->callee.get());
  for (const Pattern& node : parts->order) {
    auto where = [&] {
      auto found = parsed.locations.find(node.get());
      return found == parsed.locations.end() ? SourceLocation{std::string(fileName), 1, 1} : found->second;
    };
    if (const auto* wild = node->as<WildcardPatternNode>(); wild && !wild->redirect()) {
      auto capture = named.find(node->name());
      if (capture != named.end()) {
        parts->captures.emplace(node.get(), capture->second);
        continue;
      }
    }
    if (const auto* wild = node->as<WildcardPatternNode>(); wild && wild->redirect())
      return makeError("a replacement cannot refer to itself ('" + node->name() + "')", where());
    if (node->kind() == PatternKind::Wildcard && !node->name().empty()) {
      std::string names;
      for (const auto& [name, each] : named) names += (names.empty() ? "" : ", ") + name;
      return makeError("'" + node->name() + "' is not a name of the pattern (" + (names.empty() ? "it has none" : "its names: " + names) + ")",
                       where());
    }
    if (const auto* expr = node->as<ExprPatternNode>(); expr && expr->expr->kind() == ExprKind::Op && !callees.count(node.get()))
      return makeError("a replacement cannot build the op " + expr->expr->as<OpNode>()->name() + " itself (call it)", where());
    if (std::string why = unbuildable(*node); !why.empty()) return makeError("a replacement cannot build " + why, where());
    if (const auto* attrs = node->as<AttrPatternNode>()) parts->attributed.insert(attrs->pattern.get());
  }
  return Replacement(std::move(parts));
}

Result<Expr> Replacement::build(const PatternNodeMap& nodes) const {
  std::unordered_map<const PatternNode*, Expr> built;
  auto of = [&](const Pattern& node) { return built.at(node.get()); };
  // Builds the op call `call` with `attrs`.
  auto makeCall = [&](const CallPatternNode& call, const Attrs& attrs) -> Result<Expr> {
    std::vector<Expr> args;
    for (const Pattern& arg : *call.args) args.push_back(of(arg));
    const std::string& op = call.callee->as<ExprPatternNode>()->expr->as<OpNode>()->name();
    BYOC_ASSIGN_OR_RETURN(Call result, makeOpCall(op, std::move(args), attrs));
    return Expr(result);
  };
  for (const Pattern& node : parts_->order) {
    Expr value;
    if (auto capture = parts_->captures.find(node.get()); capture != parts_->captures.end()) {
      auto matched = nodes.find(capture->second);
      if (matched == nodes.end() || matched->second.empty())
        return makeError("'" + node->name() + "' matched nothing here (it is in an alternative that did not match)");
      value = matched->second.front();
    } else if (const auto* expr = node->as<ExprPatternNode>()) {
      value = expr->expr;
    } else if (const auto* call = node->as<CallPatternNode>()) {
      if (parts_->attributed.count(node.get())) continue;  // built by its attribute node
      BYOC_ASSIGN_OR_RETURN(value, makeCall(*call, {}));
    } else if (const auto* attrs = node->as<AttrPatternNode>()) {
      BYOC_ASSIGN_OR_RETURN(value, makeCall(*attrs->pattern->as<CallPatternNode>(), attrs->attrs));
    } else if (const auto* tuple = node->as<TuplePatternNode>()) {
      std::vector<Expr> fields;
      for (const Pattern& field : *tuple->fields) fields.push_back(of(field));
      value = TupleNode::make(std::move(fields));
    } else if (const auto* item = node->as<TupleGetItemPatternNode>()) {
      value = TupleGetItemNode::make(of(item->tuple), item->index);
    }
    built.emplace(node.get(), std::move(value));
  }
  return built.at(parts_->built.get().get());
}

RewriteCallback Replacement::callback() const {
  Replacement self = *this;
  return {parts_->pattern, [self](const Expr&, const Expr&, const PatternNodeMap& nodes) { return self.build(nodes); }};
}

}  // namespace byoc
