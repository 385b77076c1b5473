/// \file
/// The module verifier and its instrument.

#include "pass/verifier.h"

#include <cctype>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/op.h"
#include "ir/traversal.h"
#include "pass/infer_type.h"

namespace byoc {

namespace {

/// "call of add", "variable %x", "function", … for messages.
std::string describe(const Expr& node) {
  switch (node->kind()) {
    case ExprKind::Var: return "variable %" + node->as<VarNode>()->name;
    case ExprKind::GlobalVar: return "global @" + node->as<GlobalVarNode>()->name;
    case ExprKind::Call: {
      const auto& call = *node->as<CallNode>();
      if (const OpDef* def = call.opDef()) return "call of " + def->name;
      return "call of a function";
    }
    default: {
      std::string kind = exprKindName(node->kind());
      for (char& c : kind) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return kind;
    }
  }
}

Diagnostic violation(const Module& module, const Expr& node, const std::string& function, const std::string& message) {
  Diagnostic error = makeError("verifier: " + message + " (" + describe(node) + " in @" + function + ")");
  if (auto location = module.locate(node)) error.location = *location;
  return error;
}

Status checkTypes(const Module& module) {
  for (const auto& [name, function] : module.functions()) {
    Status missing = Status::ok();
    postOrderVisit(function, [&, &name = name](const Expr& node) {
      if (missing.isOk() && node->kind() != ExprKind::Op && !node->type())
        missing = violation(module, node, name, "missing type");
    });
    BYOC_TRY(missing);
  }
  Result<Module> retyped = inferTypes(module, TypeReuse::RecomputeAll);
  if (!retyped) return makeError("verifier: the module does not type: " + retyped.error().message);
  for (const auto& [name, function] : module.functions())
    if (retyped->find(name) != function)
      return makeError("verifier: stale types in @" + name + ": InferType would change them");
  return Status::ok();
}

Status checkScoping(const Module& module) {
  for (const auto& [name, function] : module.functions()) {
    std::unordered_set<const ExprNode*> bound;
    postOrderVisit(function, [&](const Expr& node) {
      if (const auto* fn = node->as<FunctionNode>())
        for (const Var& param : fn->params) bound.insert(param.get());
      if (const auto* let = node->as<LetNode>()) bound.insert(let->var.get());
    });
    Status unbound = Status::ok();
    postOrderVisit(function, [&, &name = name](const Expr& node) {
      if (unbound.isOk() && node->kind() == ExprKind::Var && !bound.count(node.get()))
        unbound = violation(module, node, name, "variable used but not bound in its function");
    });
    BYOC_TRY(unbound);
  }
  return Status::ok();
}

Status checkOrigins(const Module& module) {
  for (const auto& [name, function] : module.functions()) {
    Status missing = Status::ok();
    postOrderVisit(function, [&, &name = name](const Expr& node) {
      if (missing.isOk() && node->kind() != ExprKind::Op && node->origin().empty())
        missing = violation(module, node, name, "missing origin");
    });
    BYOC_TRY(missing);
  }
  return Status::ok();
}

/// Region labels: which target's region a value is inside.
constexpr const char* kAnyRegion = "*";  ///< constants, globals and ops: fit anywhere
constexpr const char* kHost = "";        ///< outside every region

std::string regionName(const std::string& label) { return label == kHost ? "the host" : "a region of " + label; }

/// Labels every node of one function bottom-up and checks the annotation rules.
class AnnotationChecker {
 public:
  AnnotationChecker(const Module& module, const std::string& function) : module_(module), function_(function) {}

  Status check(const Function& root) {
    Status status = Status::ok();
    postOrderVisit(root, [&](const Expr& node) {
      if (!status) return;
      Result<std::string> label = labelOf(node);
      if (!label) {
        status = label.status();
        return;
      }
      labels_[node.get()] = *label;
      order_.push_back(node);
    });
    BYOC_TRY(status);
    return checkRegionCycles();
  }

 private:
  Result<std::string> labelOf(const Expr& node) {
    switch (node->kind()) {
      case ExprKind::Var:  // parameters and let-bound values come from outside every region
        return std::string(kHost);
      case ExprKind::GlobalVar:
      case ExprKind::Constant:
      case ExprKind::Op:
        return std::string(kAnyRegion);
      case ExprKind::Function: {
        const std::string& body = labels_.at(node->as<FunctionNode>()->body.get());
        if (body != kHost && body != kAnyRegion)
          return violation(module_, node, function_,
                           "the function returns a value still inside " + regionName(body) +
                               ": a compiler_end is missing");
        return std::string(kAnyRegion);
      }
      case ExprKind::Call:
        if (const OpDef* def = node->as<CallNode>()->opDef()) {
          if (def->name == "annotation.compiler_begin") return beginLabel(node);
          if (def->name == "annotation.compiler_end") return endLabel(node);
        }
        return merged(node);
      default:
        return merged(node);
    }
  }

  static std::string target(const Expr& node) {
    const AttrValue* compiler = node->as<CallNode>()->attrs.find("compiler");
    return compiler && compiler->isString() ? compiler->asString() : std::string();
  }

  Result<std::string> beginLabel(const Expr& node) {
    const std::string& input = labels_.at(node->as<CallNode>()->args[0].get());
    if (input != kHost && input != kAnyRegion)
      return violation(module_, node, function_,
                       "compiler_begin(" + target(node) + ") opens a region on a value still inside " +
                           regionName(input));
    return target(node);
  }

  Result<std::string> endLabel(const Expr& node) {
    std::string region = target(node);
    const std::string& input = labels_.at(node->as<CallNode>()->args[0].get());
    if (input != region && input != kAnyRegion)
      return violation(module_, node, function_,
                       "compiler_end(" + region + ") closes a value computed in " + regionName(input));
    return std::string(kHost);
  }

  /// The common label of a node's inputs; mixing two regions (or a region and the host) is an error.
  Result<std::string> merged(const Expr& node) {
    std::string label = kAnyRegion;
    // A call's callee is not a value flowing into it (AnnotateTarget leaves callees unannotated).
    // A Let's value is bound, not combined: AnnotateTarget wraps it in begin(end(value)) of the
    // value's own target, as TVM does, and the body reads it through the variable (a region that
    // way cannot be outlined, which MergeCompilerRegions reports).
    const auto* call = node->as<CallNode>();
    const auto* let = node->as<LetNode>();
    for (const Expr& child : call ? call->args : let ? std::vector<Expr>{let->body} : childrenOf(*node)) {
      const std::string& childLabel = labels_.at(child.get());
      if (childLabel == kAnyRegion || childLabel == label) continue;
      if (label != kAnyRegion)
        return violation(module_, node, function_,
                         "combines values of " + regionName(label) + " and " + regionName(childLabel) +
                             " without compiler_end/compiler_begin");
      label = childLabel;
    }
    if (node->kind() == ExprKind::If || node->kind() == ExprKind::Let) {
      if (label != kAnyRegion && label != kHost)
        return violation(module_, node, function_, "control flow inside " + regionName(label));
    }
    return label;
  }

  static bool isAnnotation(const Expr& node, const char* name) {
    const auto* call = node->as<CallNode>();
    const OpDef* def = call ? call->opDef() : nullptr;
    return def && def->name == name;
  }

  /// Groups the nodes into regions (nodes of one target connected without an end/begin pair
  /// between them, plus the compiler_end closing them; every other node alone) and fails when
  /// the graph of regions has a cycle: a region whose output flows back into it, which no
  /// outlining can express.
  Status checkRegionCycles() {
    std::unordered_map<const ExprNode*, std::size_t> index;
    for (std::size_t i = 0; i < order_.size(); ++i) index.emplace(order_[i].get(), i);
    std::vector<std::size_t> parent(order_.size());
    for (std::size_t i = 0; i < parent.size(); ++i) parent[i] = i;
    auto find = [&parent](std::size_t i) {
      while (parent[i] != i) i = parent[i] = parent[parent[i]];
      return i;
    };
    for (std::size_t i = 0; i < order_.size(); ++i) {
      const std::string& label = labels_.at(order_[i].get());
      bool end = isAnnotation(order_[i], "annotation.compiler_end");
      if (!end && (label == kHost || label == kAnyRegion)) continue;
      for (const Expr& child : childrenOf(*order_[i])) {
        if (child->kind() == ExprKind::Op) continue;  // ops are shared by every call of them
        if (end || labels_.at(child.get()) == label) parent[find(index.at(child.get()))] = find(i);
        if (end) break;  // an end joins the region of its input only
      }
    }
    std::vector<std::vector<std::size_t>> successors(order_.size());
    std::vector<std::size_t> incoming(order_.size(), 0);
    for (std::size_t i = 0; i < order_.size(); ++i) {
      for (const Expr& child : childrenOf(*order_[i])) {
        std::size_t from = find(index.at(child.get()));
        std::size_t to = find(i);
        if (from == to) continue;
        successors[from].push_back(to);
        ++incoming[to];
      }
    }
    std::vector<std::size_t> ready;
    for (std::size_t i = 0; i < order_.size(); ++i)
      if (find(i) == i && incoming[i] == 0) ready.push_back(i);
    while (!ready.empty()) {
      std::size_t region = ready.back();
      ready.pop_back();
      for (std::size_t next : successors[region])
        if (--incoming[next] == 0) ready.push_back(next);
    }
    for (std::size_t i = order_.size(); i-- > 0;) {  // the latest begin of a region on a cycle: the re-entry
      if (incoming[find(i)] == 0 || !isAnnotation(order_[i], "annotation.compiler_begin")) continue;
      return violation(module_, order_[i], function_,
                       "the region of " + labels_.at(order_[i].get()) +
                           " takes a value computed from its own output: outlining it would create a cycle");
    }
    return Status::ok();
  }

  const Module& module_;
  const std::string& function_;
  std::unordered_map<const ExprNode*, std::string> labels_;
  /// The function's nodes in post-order.
  std::vector<Expr> order_;
};

Status checkAnnotations(const Module& module) {
  for (const auto& [name, function] : module.functions()) BYOC_TRY(AnnotationChecker(module, name).check(function));
  return Status::ok();
}

class VerifierInstrument final : public PassInstrument {
 public:
  explicit VerifierInstrument(VerifyOptions options) : options_(options) {}
  std::string name() const override { return "Verifier"; }
  void beforePass(const Module& module, const PassInfo& /*info*/) override { inputs_.push_back(module); }
  void afterPassFailed(const Module&, const PassInfo&, const Diagnostic&) override { inputs_.pop_back(); }

  Status afterPass(const PassResult& result, const PassInfo& info) override {
    Module input = std::move(inputs_.back());
    inputs_.pop_back();
    if (!result.changed && !result.module.sameNodes(input))
      return makeError("after " + info.name + ": the pass reported no change but returned a different module");
    Status status = verifyModule(result.module, options_);
    if (status) return status;
    Diagnostic error = status.error();
    error.message = "after " + info.name + ": " + error.message;
    return error;
  }

 private:
  VerifyOptions options_;
  std::vector<Module> inputs_;  ///< the input of each invocation still running, outermost first
};

}  // namespace

Status verifyModule(const Module& module, const VerifyOptions& options) {
  if (options.scoping) BYOC_TRY(checkScoping(module));
  if (options.types) BYOC_TRY(checkTypes(module));
  if (options.origins) BYOC_TRY(checkOrigins(module));
  if (options.annotations) BYOC_TRY(checkAnnotations(module));
  return Status::ok();
}

std::shared_ptr<PassInstrument> makeVerifierInstrument(VerifyOptions options) {
  return std::make_shared<VerifierInstrument>(options);
}

}  // namespace byoc
