#include "text/printer.h"

#include "text/lexer.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/op.h"
#include "ir/traversal.h"
#include "support/base64.h"
#include "text/scalar_literal.h"

namespace byoc {

namespace {

/// Prints the way TVM's Relay text printer does (see the file comment of printer.h):
///
/// * Var, GlobalVar, Op and Constant are always written inline.
/// * Any other expression is written once. Where it is used it is either inlined (when it is
///   the final expression of a scope and used at most once) or bound to a temporary `%N` by a
///   line `%N = …;` added to the scope that is current when the temporary is first needed.
/// * The text of dataflow nodes (calls, tuples, projections) is built in post-order over an
///   explicit stack, callee before arguments; a node's temporaries are allocated when its
///   parent's text is built, arguments left to right and callee last. This is what fixes TVM's
///   numbering, e.g. a callee function's body is numbered before the call's arguments.
///
/// Recording ranges, each node's text is wrapped in markers `\xFF B<i> \xFF` … `\xFF E<i> \xFF`
/// (0xFF never occurs in UTF-8) as it is built; `resolveRanges` removes them from the finished text
/// in one pass, reading off where each one was. The markers travel with the text through every
/// concatenation and indentation, so the layout code needs no position bookkeeping.
class RelayPrinter {
 public:
  RelayPrinter(const PrintOptions& options, bool recordRanges) : options_(options), recordRanges_(recordRanges) {}

  std::string printModule(const Module& module) {
    std::string out = "#[version = \"0.0.5\"]\n";
    for (const auto& [name, function] : module.functions()) {
      startDefinition(function);
      out += marked(function, printFunction("def @" + name, *function)) + "\n";
    }
    return out + metadataSection();
  }

  std::string printExpr(const Expr& expr) {
    startDefinition(expr);
    Scope scope;
    scopes_.push_back(&scope);
    std::string text = textOf(expr, true);
    scopes_.pop_back();
    std::string out = "#[version = \"0.0.5\"]\n";
    for (const std::string& line : scope.lines) out += line + "\n";
    return out + text + "\n" + metadataSection();
  }

  /// The text of `marked` without its markers, with the place of each; nothing if the text held
  /// other 0xFF bytes (a name that is not UTF-8), which would make the markers ambiguous.
  std::optional<PrintedText> resolveRanges(const std::string& marked) {
    PrintedText printed;
    printed.text.reserve(marked.size());
    std::size_t found = 0;
    int line = 1, column = 1;
    for (std::size_t i = 0; i < marked.size(); ++i) {
      const char c = marked[i];
      if (c != kMarker[0]) {
        printed.text += c;
        if (c == '\n') {
          ++line;
          column = 1;
        } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
          ++column;  // not a UTF-8 continuation byte
        }
        continue;
      }
      const std::size_t close = marked.find(kMarker[0], i + 1);
      if (close == std::string::npos || close < i + 3) return std::nullopt;
      const char kind = marked[i + 1];
      std::size_t index = 0;
      for (std::size_t d = i + 2; d < close; ++d) {
        if (marked[d] < '0' || marked[d] > '9') return std::nullopt;
        index = index * 10 + static_cast<std::size_t>(marked[d] - '0');
        if (index >= ranges_.size()) return std::nullopt;
      }
      TextRange& range = ranges_[index].range;
      if (kind == 'B') {
        range.line = line;
        range.column = column;
      } else if (kind == 'E') {
        range.endLine = line;
        range.endColumn = column;
      } else {
        return std::nullopt;
      }
      ++found;
      i = close;
    }
    if (found != 2 * ranges_.size()) return std::nullopt;
    printed.nodes = std::move(ranges_);
    return printed;
  }

 private:
  /// The lines bound so far in one `{ … }` block (or at the top of a printed expression).
  struct Scope {
    std::vector<std::string> lines;
  };

  /// Temporaries and names restart with each top-level definition, as in TVM's output.
  void startDefinition(const Expr& root) {
    nextTemp_ = 0;
    // Fresh tables rather than clear(), which costs the bucket count the largest definition left
    // (quadratic over a module of thousands of small functions after a large one).
    bound_ = decltype(bound_)();
    docs_ = decltype(docs_)();
    varNames_ = decltype(varNames_)();
    usedNames_ = decltype(usedNames_)();
    typeShown_ = decltype(typeShown_)();
    useCounts_ = decltype(useCounts_)();
    postOrderVisit(root, [this](const Expr& node) {
      for (const Expr& child : childrenOf(*node)) ++useCounts_[child.get()];
    });
  }

  static bool alwaysInline(const Expr& expr) {
    ExprKind kind = expr->kind();
    return kind == ExprKind::Var || kind == ExprKind::GlobalVar || kind == ExprKind::Op || kind == ExprKind::Constant;
  }

  static bool isDataflow(const Expr& expr) {
    ExprKind kind = expr->kind();
    return kind == ExprKind::Call || kind == ExprKind::Tuple || kind == ExprKind::TupleGetItem;
  }

  /// ` /* ty=T */` the first time a typed node is printed; at every use for constants, as TVM does.
  std::string typeInfo(const Expr& expr) {
    if (!options_.showTypes || !expr->type() || expr->kind() == ExprKind::Op || expr->kind() == ExprKind::GlobalVar ||
        expr->kind() == ExprKind::If || expr->kind() == ExprKind::Let)
      return {};
    if (!typeShown_.insert(expr.get()).second && expr->kind() != ExprKind::Constant) return {};
    return " /* ty=" + typeToString(expr->type()) + " */";
  }

  /// How `expr` is written where it is used (TVM's PrintExpr).
  std::string textOf(const Expr& expr, bool tryInline) {
    if (alwaysInline(expr)) return inlineText(expr);
    if (auto it = bound_.find(expr.get()); it != bound_.end()) return it->second;
    std::string doc = docOf(expr) + typeInfo(expr);
    auto uses = useCounts_.find(expr.get());
    bool usedOnce = uses == useCounts_.end() || uses->second <= 1;
    if (tryInline && usedOnce) return marked(expr, std::move(doc));
    if (expr->kind() == ExprKind::Let) doc = "(\n" + indent(doc) + "\n)";
    std::string temp = "%" + std::to_string(nextTemp_++);
    bound_.emplace(expr.get(), temp);
    scopes_.back()->lines.push_back(marked(expr, temp + " = " + doc) + ";");
    return temp;
  }

  std::string inlineText(const Expr& expr) {
    switch (expr->kind()) {
      case ExprKind::Var: {
        const auto* var = expr->as<VarNode>();
        if (auto it = varNames_.find(var); it != varNames_.end()) return it->second;
        std::string declaration = declareVar(*var, expr);  // a free variable
        scopes_.back()->lines.push_back("free_var " + declaration + ";");
        return varNames_.at(var);
      }
      case ExprKind::GlobalVar:
        return "@" + expr->as<GlobalVarNode>()->name;
      case ExprKind::Op:
        return expr->as<OpNode>()->name();
      case ExprKind::Constant: {
        std::string text = constantText(expr) + typeInfo(expr);
        if (!recordRanges_ || !constantsMarked_.insert(expr.get()).second) return text;
        return marked(expr, std::move(text));
      }
      default:
        return {};
    }
  }

  std::string constantText(const Expr& expr) {
    const auto* constant = expr->as<ConstantNode>();
    if (auto literal = scalarLiteralText(constant->data)) return *literal;
    return "meta[relay.Constant][" + std::to_string(metaIndexOf(constant)) + "]";
  }

  /// The constant's entry in the metadata section. Constants that share their bytes, dtype and
  /// shape share one entry: the parser makes a node per `meta[…]` reference, where TVM has one
  /// object, so a weight used a thousand times is written once.
  std::size_t metaIndexOf(const ConstantNode* constant) {
    if (auto known = metaIndex_.find(constant); known != metaIndex_.end()) return known->second;
    const std::byte* storage = constant->data.bytes().data();
    auto shared = storage ? metaIndexOfStorage_.find(storage) : metaIndexOfStorage_.end();
    std::size_t index = metaConstants_.size();
    if (shared != metaIndexOfStorage_.end() && metaConstants_[shared->second]->data.dtype() == constant->data.dtype() &&
        metaConstants_[shared->second]->data.shape() == constant->data.shape()) {
      index = shared->second;
    } else {
      metaConstants_.push_back(Constant(constant));
      if (storage) metaIndexOfStorage_.emplace(storage, index);
    }
    metaIndex_.emplace(constant, index);
    return index;
  }

  /// `name` as the lexer reads a name after `%` (text/lexer.h): a letter first, then name
  /// characters, with `-` or `.` only before a letter; anything else becomes `_` (a target called
  /// `my+acc-2` names the parameters of its regions `my+acc-2_0_i0`, printed `%my_acc_2_0_i0`).
  static std::string readableName(const std::string& name) {
    std::string text;
    for (std::size_t i = 0; i < name.size(); ++i) {
      const char c = name[i];
      const bool joiner = (c == '-' || c == '.') && !text.empty() && i + 1 < name.size() && text::isNameStart(name[i + 1]);
      text += text::isNameChar(c) || joiner ? c : '_';
    }
    return text.empty() || !std::isalpha(static_cast<unsigned char>(text[0])) ? "v" + text : text;
  }

  /// Gives a variable its unique printed name and returns its declaration `%x: T /* ty */`.
  std::string declareVar(const VarNode& var, const Expr& expr) {
    const std::string base = readableName(var.name);
    std::string name = "%" + base;
    for (int suffix = 1; usedNames_.count(name); ++suffix) name = "%" + base + std::to_string(suffix);
    usedNames_.insert(name);
    varNames_[&var] = name;
    std::string declaration = name;
    if (var.annotation) declaration += ": " + typeToString(var.annotation);
    return marked(expr, declaration + typeInfo(expr));
  }

  /// The text of `expr` itself (TVM's VisitExpr), built iteratively for dataflow chains.
  std::string docOf(const Expr& expr) {
    if (auto it = docs_.find(expr.get()); it != docs_.end()) return it->second;
    // Post-order over dataflow nodes that have neither a doc nor a temporary yet.
    struct Frame {
      Expr node;
      bool expanded;
    };
    std::vector<Frame> stack{{expr, false}};
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (docs_.count(top.node.get()) || bound_.count(top.node.get()) || alwaysInline(top.node)) {
        stack.pop_back();
        continue;
      }
      if (!top.expanded && isDataflow(top.node)) {
        top.expanded = true;
        std::vector<Expr> children = dataflowChildren(*top.node);
        for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back({*it, false});
        continue;
      }
      Expr node = std::move(top.node);
      stack.pop_back();
      docs_.emplace(node.get(), buildDoc(node));
    }
    return docs_.at(expr.get());
  }

  /// Children in TVM's expansion order: the callee first, then the arguments.
  static std::vector<Expr> dataflowChildren(const ExprNode& node) {
    if (const auto* call = node.as<CallNode>()) {
      std::vector<Expr> children{call->callee};
      children.insert(children.end(), call->args.begin(), call->args.end());
      return children;
    }
    if (const auto* tuple = node.as<TupleNode>()) return tuple->fields;
    return {node.as<TupleGetItemNode>()->tuple};
  }

  std::string buildDoc(const Expr& expr) {
    switch (expr->kind()) {
      case ExprKind::Call: return callDoc(*expr->as<CallNode>());
      case ExprKind::Tuple: {
        const auto& fields = expr->as<TupleNode>()->fields;
        std::string doc = "(";
        for (std::size_t i = 0; i < fields.size(); ++i) doc += (i ? ", " : "") + textOf(fields[i], false);
        return doc + (fields.size() == 1 ? ",)" : ")");
      }
      case ExprKind::TupleGetItem: {
        const auto& item = *expr->as<TupleGetItemNode>();
        return textOf(item.tuple, false) + "." + std::to_string(item.index);
      }
      case ExprKind::Function: return printFunction("fn ", *expr->as<FunctionNode>());
      case ExprKind::If: {
        const auto& branch = *expr->as<IfNode>();
        // Built in steps: the order of evaluation fixes the numbering of temporaries.
        std::string cond = textOf(branch.cond, false);
        std::string thenText = body(branch.thenBranch);
        std::string elseText = body(branch.elseBranch);
        return "if (" + cond + ") " + thenText + " else " + elseText;
      }
      case ExprKind::Let: return letDoc(expr);
      default: return inlineText(expr);
    }
  }

  std::string callDoc(const CallNode& call) {
    std::vector<std::string> parts;
    for (const Expr& arg : call.args) parts.push_back(textOf(arg, false));
    if (const OpDef* def = call.opDef()) {
      for (const AttrField& field : def->attrs) {
        const AttrValue* value = call.attrs.find(field.name);
        if (value && (field.requiredByTvm || !(*value == field.defaultValue))) parts.push_back(field.name + "=" + value->str());
      }
    }
    std::string doc = textOf(call.callee, false) + "(";
    for (std::size_t i = 0; i < parts.size(); ++i) doc += (i ? ", " : "") + parts[i];
    return doc + ")";
  }

  /// `let %v = value;` lines for a chain of lets, then the final body, in the current scope.
  std::string letDoc(const Expr& expr) {
    Scope scope;
    scopes_.push_back(&scope);
    Expr current = expr;
    while (const auto* let = current->as<LetNode>()) {
      std::string declaration = declareVar(*let->var, let->var);
      std::string value = textOf(let->value, true);
      scope.lines.push_back("let " + declaration + " = " + value + ";");
      current = let->body;
    }
    std::string result = textOf(current, true);
    scopes_.pop_back();
    std::string doc;
    for (const std::string& line : scope.lines) doc += line + "\n";
    return doc + result;
  }

  /// `{`, the scope's lines and final expression indented, `}`.
  std::string body(const Expr& expr) {
    Scope scope;
    scopes_.push_back(&scope);
    std::string result = textOf(expr, true);
    scopes_.pop_back();
    std::string inner;
    for (const std::string& line : scope.lines) inner += line + "\n";
    inner += result;
    return "{\n" + indent(inner) + "\n}";
  }

  std::string printFunction(const std::string& prefix, const FunctionNode& function) {
    std::vector<std::string> parts;
    for (const Var& param : function.params) parts.push_back(declareVar(*param, param));
    for (const auto& [name, value] : function.attrs.entries()) parts.push_back(name + "=" + value.str());
    std::string doc = prefix + "(";
    for (std::size_t i = 0; i < parts.size(); ++i) doc += (i ? ", " : "") + parts[i];
    doc += ") ";
    if (function.retType) doc += "-> " + typeToString(function.retType) + " ";
    return doc + body(function.body);
  }

  static std::string indent(const std::string& text) {
    std::string out = "  ";
    for (char c : text) {
      out += c;
      if (c == '\n') out += "  ";
    }
    return out;
  }

  std::string metadataSection() const {
    if (metaConstants_.empty() || !options_.showMetadata) return {};
    nlohmann::ordered_json constants = nlohmann::ordered_json::array();
    for (const Constant& constant : metaConstants_) {
      nlohmann::ordered_json entry;
      if (!constant->name.empty()) entry["name"] = constant->name;
      entry["dtype"] = dtypeName(constant->data.dtype());
      entry["shape"] = constant->data.shape();
      entry["data"] = base64Encode(constant->data.bytes());
      constants.push_back(std::move(entry));
    }
    nlohmann::ordered_json root;
    root["relay.Constant"] = std::move(constants);
    return "#[metadata]\n" + root.dump() + "\n";
  }

  /// `text` wrapped in the markers of a new range for `expr`, when recording ranges.
  std::string marked(const Expr& expr, std::string text) {
    if (!recordRanges_) return text;
    const std::string index = std::to_string(ranges_.size());
    ranges_.push_back({expr.get(), {}});
    std::string out;
    out.reserve(text.size() + 2 * index.size() + 6);
    out.append(kMarker).append(1, 'B').append(index).append(kMarker);
    out += text;
    out.append(kMarker).append(1, 'E').append(index).append(kMarker);
    return out;
  }

  static constexpr char kMarker[] = "\xFF";

  PrintOptions options_;
  bool recordRanges_ = false;
  std::vector<PrintedNode> ranges_;                    ///< indexed by marker number
  std::unordered_set<const ExprNode*> constantsMarked_;  ///< constants whose first use is marked
  int nextTemp_ = 0;
  std::vector<Scope*> scopes_;
  std::unordered_map<const ExprNode*, std::string> bound_;  ///< expression → its temporary
  std::unordered_map<const ExprNode*, std::string> docs_;   ///< expression → its own text
  std::unordered_map<const VarNode*, std::string> varNames_;
  std::unordered_set<std::string> usedNames_;
  std::unordered_set<const ExprNode*> typeShown_;
  std::unordered_map<const ExprNode*, int> useCounts_;
  std::unordered_map<const ConstantNode*, std::size_t> metaIndex_;  ///< shared by the whole print
  std::unordered_map<const std::byte*, std::size_t> metaIndexOfStorage_;
  std::vector<Constant> metaConstants_;
};

}  // namespace

std::string printModule(const Module& module, const PrintOptions& options) {
  return RelayPrinter(options, false).printModule(module);
}

std::string printExpr(const Expr& expr, const PrintOptions& options) {
  return RelayPrinter(options, false).printExpr(expr);
}

PrintedText printModuleWithRanges(const Module& module, const PrintOptions& options) {
  RelayPrinter printer(options, true);
  if (std::optional<PrintedText> printed = printer.resolveRanges(printer.printModule(module))) return std::move(*printed);
  return {printModule(module, options), {}};
}

PrintedText printExprWithRanges(const Expr& expr, const PrintOptions& options) {
  RelayPrinter printer(options, true);
  if (std::optional<PrintedText> printed = printer.resolveRanges(printer.printExpr(expr))) return std::move(*printed);
  return {printExpr(expr, options), {}};
}

}  // namespace byoc
