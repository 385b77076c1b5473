/// \file
/// GraphModel::build: an iterative walk of each function body, one function at a time.

#include "graph/graph_model.h"

#include "graph/branch_groups.h"

#include <QStringBuilder>
#include <algorithm>
#include <optional>
#include <limits>
#include <map>
#include <unordered_set>

#include "ir/function_attrs.h"
#include "ir/op.h"
#include "ir/traversal.h"
#include "pass/analysis/graph_blocks.h"

namespace byoc::ui {

namespace {

QString fromStd(const std::string& text) { return QString::fromStdString(text); }

/// Constants print as their value when scalar, else as their name or `const`.
QString constantTitle(const ConstantNode& constant) {
  if (constant.data.isScalar()) return QString::number(constant.data.elementAsDouble(0));
  return constant.name.empty() ? QStringLiteral("const") : fromStd(constant.name);
}

QString functionLabel(const FunctionNode& function) {
  const std::string composite = compositeName(function);
  return composite.empty() ? QStringLiteral("fn") : fromStd(composite);
}

}  // namespace

QString shapeLabel(const Type& type) {
  if (!type) return {};
  if (const auto* tensor = type->as<TensorTypeNode>()) {
    if (tensor->shape.empty()) return QString::fromUtf8(dtypeName(tensor->dtype));
    QStringList dims;
    for (int64_t dim : tensor->shape) dims << (dim == kAnyDim ? QStringLiteral("?") : QString::number(dim));
    const QString shape = dims.join(QChar(0x00D7));
    // float32 goes without saying; an integer (quantized) or other dtype is named.
    return tensor->dtype == DType::Float32 ? shape : shape % u' ' % QString::fromUtf8(dtypeName(tensor->dtype));
  }
  if (const auto* tuple = type->as<TupleTypeNode>()) {
    QStringList fields;
    for (const Type& field : tuple->fields) fields << shapeLabel(field);
    return u'(' % fields.join(QStringLiteral(", ")) % u')';
  }
  return QStringLiteral("fn");
}

QStringList keyAttributes(const CallNode& call) {
  QStringList result;
  const OpDef* def = call.opDef();
  for (const auto& [name, value] : call.attrs.entries()) {
    const AttrField* field = def ? def->field(name) : nullptr;
    if (field && field->defaultValue == value) continue;
    result << fromStd(name) % u'=' % fromStd(value.str());
  }
  return result;
}

/// Builds a GraphModel; see graph_model.h for the rules.
class GraphBuilder {
 public:
  GraphBuilder(GraphModel& model, const Provenance* provenance) : model_(model), provenance_(provenance) {}

  void run(const Function& root) {
    std::unordered_map<const ExprNode*, int> uses;
    postOrderVisit(Expr(root), [this, &uses](const Expr& expr) {
      if (const auto* let = expr->as<LetNode>()) letValue_[let->var.get()] = let->value;
      for (const Expr& child : childrenOf(*expr)) ++uses[child.get()];
    });
    // A function literal called where it is written, and used nowhere else, is drawn inline.
    postOrderVisit(Expr(root), [this, &uses](const Expr& expr) {
      const auto* call = expr->as<CallNode>();
      const auto* literal = call ? call->callee->as<FunctionNode>() : nullptr;
      if (!literal || uses[literal] != 1 || literal->params.size() != call->args.size()) return;
      inlinedBody_[call] = literal->body;
      for (std::size_t i = 0; i < call->args.size(); ++i) paramValue_[literal->params[i].get()] = call->args[i];
    });
    std::vector<std::pair<Function, int>> work{{root, -1}};
    while (!work.empty()) {
      auto [function, group] = work.back();
      work.pop_back();
      walkBody(function->body, group, work);
    }
    groupBranchMembers();
    splitSharedValues();
    indexEdges();
    if (provenance_ && !provenance_->names.empty()) groupByScope();
    synthesizeBlocks();
  }

 private:
  /// Post-order over one function body, stopping at function literals (queued as groups); the
  /// body of an inlined literal is walked in place, in a group of its own, after the call's args.
  void walkBody(const Expr& body, int group, std::vector<std::pair<Function, int>>& work) {
    enum class Step { Enter, Exit };
    struct Entry {
      Expr expr;
      int group;
      Step step;
    };
    std::vector<Entry> stack{{body, group, Step::Enter}};
    while (!stack.empty()) {
      Entry entry = std::move(stack.back());
      stack.pop_back();
      const Expr& expr = entry.expr;
      if (visited_.count(expr.get())) continue;
      if (const auto* function = expr->as<FunctionNode>()) {
        visited_.insert(expr.get());
        work.emplace_back(Function(function), addGroup(*function, entry.group));
        continue;
      }
      auto inlined = inlinedBody_.find(expr.get());
      if (entry.step == Step::Exit) {
        visited_.insert(expr.get());
        if (inlined == inlinedBody_.end()) {
          addNode(expr, entry.group);
        } else {
          const auto* literal = expr->as<CallNode>()->callee->as<FunctionNode>();
          visited_.insert(literal);
          stack.push_back({inlined->second, addGroup(*literal, entry.group), Step::Enter});
        }
        continue;
      }
      stack.push_back({expr, entry.group, Step::Exit});
      std::vector<Expr> children = inlined == inlinedBody_.end() ? childrenOf(*expr) : expr->as<CallNode>()->args;
      for (auto it = children.rbegin(); it != children.rend(); ++it) {
        if (!(*it)->as<OpNode>() && !visited_.count(it->get())) stack.push_back({*it, entry.group, Step::Enter});
      }
    }
  }

  int addGroup(const FunctionNode& function, int parent) {
    GraphGroup group;
    group.id = static_cast<int>(model_.groups_.size());
    group.parent = parent;
    group.composite = function.attrs.contains(attr::kComposite);
    group.label = functionLabel(function);
    if (!group.composite) {
      for (const auto& [var, value] : letValue_) {
        if (value.get() == &function) group.label = u'%' % fromStd(var->name);
      }
    }
    group.function = Function(&function);
    model_.groups_.push_back(std::move(group));
    groupOfFunction_[&function] = model_.groups_.back().id;
    return model_.groups_.back().id;
  }

  /// The let-bound function literal `callee` names, or null.
  const FunctionNode* boundFunction(const Expr& callee) const {
    const auto* var = callee->as<VarNode>();
    auto bound = var ? letValue_.find(var) : letValue_.end();
    return bound == letValue_.end() ? nullptr : bound->second->as<FunctionNode>();
  }

  /// The group of `function` when `group` lies inside it (a call there is a loop's call of itself), else -1.
  int enclosingGroupOf(const FunctionNode* function, int group) const {
    for (; group >= 0; group = model_.groups_[group].parent) {
      if (model_.groups_[group].function.get() == function) return group;
    }
    return -1;
  }

  /// Makes `node` the call of loop `loop` (a group) of itself: the arguments passing a parameter
  /// of the loop on at its own position are named in the detail and get no edge.
  void makeLoopBack(GraphNode& node, const CallNode& call, const FunctionNode& function, int loop,
                    std::vector<bool>& skipped) {
    GraphGroup& group = model_.groups_[loop];
    if (!group.loop) {
      group.loop = true;
      group.label = QStringLiteral("loop ") % group.label;
    }
    node.kind = GraphNodeKind::LoopBack;
    node.title = QChar(0x21BB) % u' ' % calleeTitle(call.callee);
    QStringList kept;
    for (std::size_t i = 0; i < call.args.size() && i < function.params.size(); ++i) {
      if (valueOf(call.args[i]).get() != function.params[i].get()) continue;
      skipped[i] = true;
      kept << u'%' % fromStd(function.params[i]->name);
    }
    node.detail = QStringLiteral("next iteration");
    if (!kept.isEmpty()) node.detail += QStringLiteral("\nsame ") % kept.join(QStringLiteral(", "));
  }

  void addNode(const Expr& expr, int group) {
    std::vector<Expr> inputs;
    std::vector<bool> skipped;  // inputs drawn without an edge
    const FunctionNode* callee = nullptr;
    GraphNode node;
    node.expr = expr;
    node.group = group;
    if (const auto* call = expr->as<CallNode>()) {
      inputs = call->args;
      skipped.assign(inputs.size(), false);
      if (const auto* op = call->callee->as<OpNode>()) {
        node.kind = GraphNodeKind::Op;
        node.title = fromStd(op->name());
        node.detail = keyAttributes(*call).join(QStringLiteral(", "));
      } else if (callee = boundFunction(call->callee); callee && enclosingGroupOf(callee, group) >= 0) {
        makeLoopBack(node, *call, *callee, enclosingGroupOf(callee, group), skipped);
      } else {
        node.kind = GraphNodeKind::Call;
        node.title = calleeTitle(call->callee);
        node.detail = keyAttributes(*call).join(QStringLiteral(", "));  // a kernel graph's composite
      }
    } else if (const auto* tuple = expr->as<TupleNode>()) {
      inputs = tuple->fields;
      node.kind = GraphNodeKind::Tuple;
      node.title = QStringLiteral("tuple");
    } else if (const auto* project = expr->as<TupleGetItemNode>()) {
      inputs = {project->tuple};
      node.kind = GraphNodeKind::Project;
      node.title = u'.' % QString::number(project->index);
    } else if (const auto* branch = expr->as<IfNode>()) {
      inputs = {branch->cond, branch->thenBranch, branch->elseBranch};
      node.kind = GraphNodeKind::If;
      node.title = QStringLiteral("if");
    } else {
      return;  // Let, Var, Constant, GlobalVar: no node of their own.
    }
    // The constant inputs (weights, biases, scalars) of an op or of a global's call (a kernel of
    // a kernel graph) are lines of its box, as Netron shows them: as stubs of their own they would
    // crowd every rank sideways. A line is named after the op's input, else the constant's name.
    const auto* call = expr->as<CallNode>();
    const bool constantLines = !model_.options_.weightsAsNodes &&
                               (node.kind == GraphNodeKind::Op || (call && call->callee->as<GlobalVarNode>()));
    const OpDef* def = constantLines && node.kind == GraphNodeKind::Op ? call->opDef() : nullptr;
    skipped.resize(inputs.size(), false);
    std::vector<int> producers(inputs.size(), -1);
    for (std::size_t port = 0; port < inputs.size(); ++port) {
      if (skipped[port]) continue;
      const auto* constant = constantLines ? valueOf(inputs[port])->as<ConstantNode>() : nullptr;
      if (constant) {
        const QString name = def && port < def->inputs.size() ? fromStd(def->inputs[port])
                             : !constant->name.empty()       ? fromStd(constant->name)
                                                             : QString::number(port);
        const QString value = constant->data.isScalar() ? constantTitle(*constant) : u'⟨' % shapeLabel(constant->type()) % u'⟩';
        node.detail += (node.detail.isEmpty() ? QString() : QStringLiteral("\n")) % name % u' ' % value;
      } else {
        producers[port] = producerFor(inputs[port], group);
      }
    }
    int id = appendNode(std::move(node));
    if (callee) calls_.emplace_back(callee, id);
    model_.nodeOfExpr_[expr.get()] = id;
    for (NodeId origin : expr->origin().ids()) model_.nodesOfOrigin_[origin].push_back(id);
    for (std::size_t port = 0; port < inputs.size(); ++port) {
      if (producers[port] < 0) continue;
      model_.edges_.push_back({producers[port], id, static_cast<int>(port), shapeLabel(valueOf(inputs[port])->type())});
    }
  }

  /// What a use of `expr` computes: lets are replaced by their bodies, let-bound variables by their values.
  Expr valueOf(Expr expr) const {
    // Every hop through a binding reaches another binding in a well-formed module; a malformed one
    // (a literal called with its own parameter) could lead round in a circle, so hops are bounded.
    std::size_t hops = paramValue_.size() + letValue_.size() + inlinedBody_.size();
    while (true) {
      if (const auto* let = expr->as<LetNode>()) {
        expr = let->body;
        continue;
      }
      Expr next;
      if (const auto* var = expr->as<VarNode>()) {
        if (auto param = paramValue_.find(var); param != paramValue_.end()) {
          next = param->second;
        } else if (auto it = letValue_.find(var); it != letValue_.end() && !it->second->as<FunctionNode>()) {
          next = it->second;
        }
      } else if (auto inlined = inlinedBody_.find(expr.get()); inlined != inlinedBody_.end()) {
        next = inlined->second;
      }
      if (!next || hops-- == 0) return expr;
      expr = std::move(next);
    }
  }

  /// The node feeding `input` to a consumer in `group`: the producer, or a new stub.
  int producerFor(const Expr& input, int group) {
    Expr value = valueOf(input);
    if (auto it = model_.nodeOfExpr_.find(value.get()); it != model_.nodeOfExpr_.end()) return it->second;
    GraphNode stub;
    stub.kind = GraphNodeKind::Stub;
    stub.expr = value;
    stub.group = group;
    stub.title = calleeTitle(value);
    if (const auto* var = value->as<VarNode>()) {
      stub.detail = shapeLabel(var->type() ? var->type() : var->annotation);
    } else if (const auto* constant = value->as<ConstantNode>()) {
      if (!constant->data.isScalar()) stub.detail = shapeLabel(constant->type());
    }
    return appendNode(std::move(stub));
  }

  QString calleeTitle(const Expr& callee) const {
    if (const auto* var = callee->as<VarNode>()) return u'%' % fromStd(var->name);
    if (const auto* global = callee->as<GlobalVarNode>()) return u'@' % fromStd(global->name);
    if (const auto* constant = callee->as<ConstantNode>()) return constantTitle(*constant);
    if (const auto* function = callee->as<FunctionNode>()) return functionLabel(*function);
    if (const auto* op = callee->as<OpNode>()) return fromStd(op->name());
    return QString::fromUtf8(exprKindName(callee->kind()));
  }

  int appendNode(GraphNode node) {
    node.id = static_cast<int>(model_.nodes_.size());
    if (node.group >= 0) model_.groups_[node.group].nodes.push_back(node.id);
    model_.nodes_.push_back(std::move(node));
    return model_.nodes_.back().id;
  }

  /// Puts what one branch of an `if` uses alone into a `then` or `else` group; stubs follow their consumer.
  void groupBranchMembers() {
    std::vector<CalleeUse> calleeUses;
    for (const auto& [function, call] : calls_) {
      if (auto group = groupOfFunction_.find(function); group != groupOfFunction_.end()) calleeUses.push_back({group->second, call});
    }
    groupBranches(model_.nodes_, model_.edges_, model_.groups_, calleeUses);
    for (const GraphEdge& edge : model_.edges_) {
      if (model_.nodes_[edge.from].kind == GraphNodeKind::Stub) model_.nodes_[edge.from].group = model_.nodes_[edge.to].group;
    }
    for (GraphGroup& group : model_.groups_) group.nodes.clear();
    for (const GraphNode& node : model_.nodes_) {
      if (node.group >= 0) model_.groups_[node.group].nodes.push_back(node.id);
    }
  }

  /// Gives every consumer but the first of a widely shared value its own stub.
  void splitSharedValues() {
    std::vector<int> fanOut(model_.nodes_.size(), 0);
    for (const GraphEdge& edge : model_.edges_) ++fanOut[edge.from];
    std::vector<int> seen(model_.nodes_.size(), 0);
    for (GraphEdge& edge : model_.edges_) {
      int producer = edge.from;
      if (fanOut[producer] <= kSharedFanOut || seen[producer]++ == 0) continue;
      GraphNode stub;
      stub.kind = GraphNodeKind::Stub;
      stub.expr = model_.nodes_[producer].expr;
      stub.group = model_.nodes_[edge.to].group;
      stub.stubOf = producer;
      stub.title = QChar(0x21AA) % u' ' % model_.nodes_[producer].title;
      stub.detail = edge.label;
      edge.from = appendNode(std::move(stub));
    }
  }

  /// The scope path of a source-model name: `/a/b/c/Conv` → {a, b, c}.
  static QStringList scopeOf(const std::string& name) {
    QStringList parts = QString::fromStdString(name).split(u'/', Qt::SkipEmptyParts);
    if (!parts.isEmpty()) parts.removeLast();
    return parts;
  }

  /// The innermost group holding both `a` and `b` (-1: the top level).
  int commonGroup(int a, int b) const {
    std::vector<int> around;
    for (int group = a; group >= 0; group = model_.groups_[group].parent) around.push_back(group);
    for (int group = b; group >= 0; group = model_.groups_[group].parent)
      if (std::find(around.begin(), around.end(), group) != around.end()) return group;
    return -1;
  }

  /// Whether `group` is `outer` or nested in it (anything is in the top level, -1).
  bool isWithin(int group, int outer) const {
    for (; group >= 0; group = model_.groups_[group].parent)
      if (group == outer) return true;
    return outer < 0;
  }

  /// For each unnamed node (no source name), the innermost group holding the named nodes it
  /// depends on (`up`) or that depend on it (down), through other unnamed nodes; none when there
  /// are none.
  std::vector<std::optional<int>> namedAround(const std::vector<bool>& named, bool up) const {
    const auto& nodes = model_.nodes_;
    std::vector<std::optional<int>> around(nodes.size());
    const auto visit = [&](const GraphNode& node) {
      if (node.kind == GraphNodeKind::Stub || named[node.id]) return;
      for (int edge : up ? model_.inEdges_[node.id] : model_.outEdges_[node.id]) {
        const GraphNode& neighbour = nodes[up ? model_.edges_[edge].from : model_.edges_[edge].to];
        if (neighbour.kind == GraphNodeKind::Stub) continue;
        const std::optional<int> group = named[neighbour.id] ? std::optional(neighbour.group) : around[neighbour.id];
        if (group) around[node.id] = around[node.id] ? commonGroup(*around[node.id], *group) : *group;
      }
    };
    // Build order is topological: producers first going up, consumers first going down.
    if (up) std::for_each(nodes.begin(), nodes.end(), visit);
    else std::for_each(nodes.rbegin(), nodes.rend(), visit);
    return around;
  }

  /// Moves named nodes into nested scope groups, an unnamed node (made by a pass or a rewrite)
  /// between named ones into the innermost scope holding them, and every stub next to its
  /// consumer. An unnamed node left at the top level between two nodes of one scope would split
  /// the scope's box in two, which Graphviz can only draw as rows.
  void groupByScope() {
    std::map<std::pair<int, QString>, int> scopes;  // (parent group, component) → group
    std::vector<bool> named(model_.nodes_.size(), false);
    for (GraphNode& node : model_.nodes_) {
      if (node.kind == GraphNodeKind::Stub) continue;
      QStringList path;
      for (NodeId id : node.expr->origin().ids()) {
        auto name = provenance_->names.find(id);
        if (name != provenance_->names.end()) {
          path = scopeOf(name->second);
          named[node.id] = true;
          break;
        }
      }
      int group = node.group;
      for (const QString& component : path) {
        auto [it, added] = scopes.try_emplace({group, component}, static_cast<int>(model_.groups_.size()));
        if (added) {
          GraphGroup scope;
          scope.id = it->second;
          scope.parent = group;
          scope.label = component;
          model_.groups_.push_back(std::move(scope));
        }
        group = it->second;
      }
      node.group = group;
    }
    const std::vector<std::optional<int>> above = namedAround(named, true), below = namedAround(named, false);
    for (GraphNode& node : model_.nodes_) {
      if (!above[node.id] || !below[node.id]) continue;
      const int between = commonGroup(*above[node.id], *below[node.id]);
      if (isWithin(between, node.group)) node.group = between;  // never out of its function
    }
    for (GraphNode& node : model_.nodes_) {
      if (node.kind == GraphNodeKind::Stub) node.group = model_.nodes_[model_.edges_[model_.outEdges_[node.id].front()].to].group;
    }
    for (GraphGroup& group : model_.groups_) group.nodes.clear();
    for (const GraphNode& node : model_.nodes_) {
      if (node.group >= 0) model_.groups_[node.group].nodes.push_back(node.id);
    }
  }

  /// Cuts every level with more than kBlockMembers members into synthesized blocks, when the
  /// graph is large; stubs then join their consumer's block.
  void synthesizeBlocks() {
    auto& nodes = model_.nodes_;
    auto& groups = model_.groups_;
    if (nodes.size() <= static_cast<std::size_t>(kCollapseAbove)) return;
    const int existing = static_cast<int>(groups.size());
    std::vector<int> members(groups.size() + 1, 0);  // per level: index 0 the top, g + 1 group g
    for (const GraphNode& node : nodes) {
      if (node.kind != GraphNodeKind::Stub) ++members[node.group + 1];
    }
    for (const GraphGroup& group : groups) ++members[group.parent + 1];
    for (int level = 0; level <= existing; ++level) {
      if (members[level] > kBlockMembers) blockLevel(level - 1);
    }
    if (static_cast<int>(groups.size()) == existing) return;
    for (GraphNode& node : nodes) {
      if (node.kind == GraphNodeKind::Stub) node.group = nodes[model_.edges_[model_.outEdges_[node.id].front()].to].group;
    }
    for (GraphGroup& group : groups) group.nodes.clear();
    for (const GraphNode& node : nodes) {
      if (node.group >= 0) groups[node.group].nodes.push_back(node.id);
    }
  }

  /// One member of a level being cut into blocks: a node or a group directly in it.
  struct Member {
    int node = -1;
    int group = -1;
    /// The least id of a node in it: the build order is a topological order of the nodes.
    int key = std::numeric_limits<int>::max();
  };

  /// Cuts the members of `owner` (a group, or -1 for the top level) into blocks.
  void blockLevel(int owner) {
    auto& nodes = model_.nodes_;
    auto& groups = model_.groups_;
    // The member of `owner` each group and each non-stub node lies in, or -1.
    std::vector<Member> level;
    std::vector<int> memberOfGroup(groups.size(), -1);
    for (const GraphGroup& group : groups) {
      if (group.parent == owner) {
        memberOfGroup[group.id] = static_cast<int>(level.size());
        level.push_back({-1, group.id});
      }
    }
    auto memberOfNode = [&](const GraphNode& node) {
      if (node.kind == GraphNodeKind::Stub) return -1;
      int group = node.group;
      while (group >= 0 && memberOfGroup[group] < 0 && group != owner) group = groups[group].parent;
      return group >= 0 && group != owner ? memberOfGroup[group] : -1;
    };
    std::vector<int> memberOf(nodes.size(), -1);
    for (const GraphNode& node : nodes) {
      if (node.kind != GraphNodeKind::Stub && node.group == owner) {
        memberOf[node.id] = static_cast<int>(level.size());
        level.push_back({node.id, -1, node.id});
      } else if (int member = memberOfNode(node); member >= 0) {
        memberOf[node.id] = member;
        level[member].key = std::min(level[member].key, node.id);
      }
    }
    std::vector<int> order(level.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return level[a].key < level[b].key; });
    std::vector<int> position(level.size());
    for (std::size_t i = 0; i < order.size(); ++i) position[order[i]] = static_cast<int>(i);
    std::vector<std::pair<int, int>> edges;
    for (const GraphEdge& edge : model_.edges_) {
      const int from = memberOf[edge.from], to = memberOf[edge.to];
      if (from >= 0 && to >= 0 && from != to) edges.emplace_back(position[from], position[to]);
    }
    // Blocks would rather start where the level starts: a chain of repeated layers then gets whole layers.
    std::vector<bool> goodStarts(level.size());
    for (std::size_t i = 0; i < order.size(); ++i) goodStarts[i] = memberTitle(level[order[i]]) == memberTitle(level[order[0]]);
    const std::vector<GraphBlock> blocks =
        findBlocks(static_cast<int>(level.size()), edges, {kBlockMembers, kBlockMembers * 3 / 8}, goodStarts);
    const int base = static_cast<int>(groups.size());
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      GraphGroup group;
      group.id = base + static_cast<int>(b);
      group.parent = blocks[b].parent >= 0 ? base + blocks[b].parent : owner;
      group.synthesized = true;
      groups.push_back(std::move(group));
    }
    // Histograms of what each block holds, level 0 from the nodes, each level above from the one below.
    std::vector<std::map<QString, int>> held(blocks.size());
    std::vector<int> blockAt(level.size(), -1);
    for (std::size_t b = 0; b < blocks.size() && blocks[b].level == 0; ++b) {
      for (int i = blocks[b].first; i <= blocks[b].last; ++i) {
        const Member& member = level[order[i]];
        blockAt[i] = base + static_cast<int>(b);
        if (member.node >= 0) {
          nodes[member.node].group = blockAt[i];
        } else {
          groups[member.group].parent = blockAt[i];
        }
      }
    }
    for (const GraphNode& node : nodes) {
      if (memberOf[node.id] >= 0) ++held[blockAt[position[memberOf[node.id]]] - base][histogramKey(node)];
    }
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      if (blocks[b].parent >= 0) {
        for (const auto& [key, count] : held[b]) held[blocks[b].parent][key] += count;
      }
      GraphGroup& group = groups[base + b];
      group.label = memberTitle(level[order[blocks[b].first]]) % QStringLiteral(" \u2192 ") %
                    memberTitle(level[order[blocks[b].last]]);
      group.detail = histogramText(held[b]);
    }
  }

  /// What a member of a block is called in its block's label.
  QString memberTitle(const Member& member) const {
    return member.node >= 0 ? model_.nodes_[member.node].title : model_.groups_[member.group].label;
  }

  /// What a node counts as in a block's histogram: its op or callee, or its kind.
  static QString histogramKey(const GraphNode& node) {
    return node.kind == GraphNodeKind::Project ? QStringLiteral("tuple item") : node.title;
  }

  /// `N nodes` over the three commonest entries of `held`, most first.
  static QString histogramText(const std::map<QString, int>& held) {
    std::vector<std::pair<int, QString>> entries;
    int total = 0;
    for (const auto& [key, count] : held) {
      entries.emplace_back(-count, key);
      total += count;
    }
    std::sort(entries.begin(), entries.end());
    QStringList top;
    for (std::size_t i = 0; i < entries.size() && i < 3; ++i) top << QString::number(-entries[i].first) % u' ' % entries[i].second;
    if (entries.size() > 3) top << QStringLiteral("\u2026");
    const QString count = total == 1 ? QStringLiteral("1 node") : QString::number(total) % QStringLiteral(" nodes");
    return count % u'\n' % top.join(QStringLiteral(" \u00B7 "));
  }

  void indexEdges() {
    model_.inEdges_.assign(model_.nodes_.size(), {});
    model_.outEdges_.assign(model_.nodes_.size(), {});
    for (std::size_t i = 0; i < model_.edges_.size(); ++i) {
      model_.inEdges_[model_.edges_[i].to].push_back(static_cast<int>(i));
      model_.outEdges_[model_.edges_[i].from].push_back(static_cast<int>(i));
    }
  }

  GraphModel& model_;
  const Provenance* provenance_;
  std::unordered_map<const VarNode*, Expr> letValue_;
  /// Calls of literals drawn inline, to the literal's body; the literal's parameters, to the call's args.
  std::unordered_map<const ExprNode*, Expr> inlinedBody_;
  std::unordered_map<const VarNode*, Expr> paramValue_;
  std::unordered_set<const ExprNode*> visited_;
  std::unordered_map<const FunctionNode*, int> groupOfFunction_;
  /// Calls of let-bound function literals, with their nodes: uses of the literals' groups.
  std::vector<std::pair<const FunctionNode*, int>> calls_;
};

GraphModel GraphModel::build(const Function& function, const QString& name, const Provenance* provenance,
                             GraphOptions options) {
  GraphModel model;
  model.name_ = name;
  model.options_ = options;
  model.function_ = function;
  GraphBuilder(model, provenance).run(function);
  // Each group's own nodes count in it and in every group around it.
  for (const GraphGroup& group : model.groups_)
    for (int around = group.id; around >= 0; around = model.groups_[around].parent)
      model.groups_[around].allNodes += static_cast<int>(group.nodes.size());
  return model;
}

int GraphModel::nodeOf(const ExprNode* expr) const {
  auto it = nodeOfExpr_.find(expr);
  return it == nodeOfExpr_.end() ? -1 : it->second;
}

std::vector<int> GraphModel::nodesWithOrigin(NodeId id) const {
  auto it = nodesOfOrigin_.find(id);
  return it == nodesOfOrigin_.end() ? std::vector<int>{} : it->second;
}

std::vector<int> GraphModel::inEdges(int node) const { return inEdges_.at(node); }
std::vector<int> GraphModel::outEdges(int node) const { return outEdges_.at(node); }

QString GraphModel::dump() const {
  static const char* const kKindNames[] = {"op", "call", "tuple", "project", "if", "stub", "loop-back"};
  QString text;
  for (const GraphNode& node : nodes_) {
    text += u'n' % QString::number(node.id) % u' ' % QLatin1String(kKindNames[static_cast<int>(node.kind)]) % u' ' %
            node.title;
    if (!node.detail.isEmpty()) text += QStringLiteral(" [") % node.detail % u']';
    if (node.group >= 0) text += QStringLiteral(" in g") % QString::number(node.group);
    if (node.stubOf >= 0) text += QStringLiteral(" of n") % QString::number(node.stubOf);
    text += u'\n';
  }
  for (const GraphEdge& edge : edges_) {
    text += u'n' % QString::number(edge.from) % QStringLiteral(" -> n") % QString::number(edge.to) % u':' %
            QString::number(edge.port);
    if (!edge.label.isEmpty()) text += u' ' % edge.label;
    text += u'\n';
  }
  for (const GraphGroup& group : groups_) {
    text += u'g' % QString::number(group.id) % u' ' % group.label;
    if (group.composite) text += QStringLiteral(" composite");
    if (group.synthesized) text += QStringLiteral(" block");
    if (group.branchOf >= 0) text += QStringLiteral(" of n") % QString::number(group.branchOf);
    if (group.parent >= 0) text += QStringLiteral(" in g") % QString::number(group.parent);
    text += u'\n';
  }
  return text;
}

}  // namespace byoc::ui
