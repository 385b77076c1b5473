#include "pass/analysis/group_outliner.h"

#include <algorithm>

#include "ir/structural.h"
#include "ir/traversal.h"
#include "pass/analysis/function_utils.h"

namespace byoc {

namespace {

/// The name of the `index`-th parameter, standing for `value`: a variable's own name, `param_<k>`
/// for the k-th constant lifted (as Relax's FunctionCreator names them), `lv<index>` otherwise.
std::string paramName(const ExprNode& value, std::size_t index, std::size_t& liftedConstants) {
  if (const auto* var = value.as<VarNode>()) return var->name;
  if (value.kind() == ExprKind::Constant) return "param_" + std::to_string(liftedConstants++);
  return "lv" + (index ? std::to_string(index) : std::string());
}

class GroupOutliner final : public ExprMutator {
 public:
  GroupOutliner(const Function& function, const std::vector<Expr>& ordered, const std::vector<NodeGroup>& groups,
                const GroupFunctionMaker& maker)
      : maker_(maker), built_(groups.size()) {
    for (std::size_t g = 0; g < groups.size(); ++g)
      for (const Expr& member : groups[g].members) groupOf_[member.get()] = g;
    // Members in binding order (producers first). A group's outputs, in Relax's order: the members
    // the function returns, then the members read by a node outside the group, as first read.
    const auto* returnedTuple = function->body->as<TupleNode>();
    auto returned = [&](const Expr& member) {
      return member == function->body ||
             (returnedTuple && std::find(returnedTuple->fields.begin(), returnedTuple->fields.end(), member) != returnedTuple->fields.end());
    };
    for (const Expr& member : ordered)
      if (const std::size_t* found = groupOf_.find(member.get())) {
        built_[*found].members.push_back(member);
        if (returned(member)) addOutput(member);
      }
    for (const Expr& node : ordered) {
      const std::size_t* own = groupOf_.find(node.get());
      const std::size_t ownGroup = own ? *own : groups.size();
      for (int i = 0, count = childCount(*node); i < count; ++i) {
        const ExprNode* child = childAt(*node, i);
        const std::size_t* found = groupOf_.find(child);
        if (found && ownGroup != *found) addOutput(Expr(child));
      }
    }
  }

 protected:
  // Group members may be of any kind: every node is looked up alike.
  Result<Expr> rewrite(const Expr& pre, const Expr& post) override {
    const std::size_t* found = groupOf_.find(pre.get());
    if (!found) return post;
    const std::size_t group = *found;
    Built& built = built_[group];
    auto output = std::find(built.outputs.begin(), built.outputs.end(), pre);
    if (output == built.outputs.end()) return post;  // an inner member: only its outputs are read
    const std::size_t index = static_cast<std::size_t>(output - built.outputs.begin());
    if (!built.call) BYOC_TRY(build(group));
    if (built.outputs.size() == 1) return built.call;
    const Type& callType = built.call->type();
    return Expr(TupleGetItemNode::make(built.call, static_cast<int>(index), pre->origin(),
                                       callType ? callType->as<TupleTypeNode>()->fields[index] : Type()));
  }

 private:
  struct Built {
    std::vector<Expr> members;  ///< producers first
    std::vector<Expr> outputs;
    Expr call;
    bool building = false;
  };

  void addOutput(const Expr& member) {
    std::vector<Expr>& outputs = built_[*groupOf_.find(member.get())].outputs;
    if (std::find(outputs.begin(), outputs.end(), member) == outputs.end()) outputs.push_back(member);
  }

  Status build(std::size_t g) {
    Built& built = built_[g];
    if (built.building) return makeError("A cyclic dependency detected: two fused groups each read a value of the other");
    built.building = true;
    // Rebuild the members over parameters, producers first; outside values become parameters.
    NodeMap<Expr> inside;
    std::vector<Var> params;
    std::vector<Expr> args;
    NodeMap<Var> paramOf;
    std::size_t liftedConstants = 0;
    std::vector<Origin> origins;
    for (const Expr& member : built.members) {
      std::vector<Expr> children = childrenOf(*member);
      for (Expr& child : children) {
        if (const Expr* in = inside.find(child.get())) {
          child = *in;
          continue;
        }
        if (child->kind() == ExprKind::Op || child->kind() == ExprKind::GlobalVar || child->kind() == ExprKind::Function ||
            (child->kind() == ExprKind::Constant && !maker_.liftConstants))
          continue;  // callees (and constants, unless lifted) stay inside
        if (const Var* param = paramOf.find(child.get())) {
          child = *param;
          continue;
        }
        Var var = VarNode::make(paramName(*child, params.size(), liftedConstants), child->type(), child->origin());
        paramOf.emplace(child.get(), var);
        params.push_back(var);
        // The outside value, rewritten (which may build other groups first).
        BYOC_ASSIGN_OR_RETURN(Expr arg, mutate(child));
        args.push_back(std::move(arg));
        child = std::move(var);
      }
      inside[member.get()] = withChildren(member, children);
      origins.push_back(member->origin());
    }
    std::vector<Expr> results;
    for (const Expr& output : built.outputs) results.push_back(*inside.find(output.get()));
    Origin origin = Origin::unite(origins);
    const Type type = outlinedFunctionType(params, results);
    const Type resultType = type ? type->as<FuncTypeNode>()->ret : Type();
    Expr body = results.size() == 1 ? results[0] : Expr(TupleNode::make(results, origin));
    BYOC_ASSIGN_OR_RETURN(std::string name, maker_.define(g, std::move(params), body));
    built.call = CallNode::make(GlobalVarNode::make(name, origin, type), std::move(args), {}, origin, resultType);
    built.building = false;
    return Status::ok();
  }

  const GroupFunctionMaker& maker_;
  NodeMap<std::size_t> groupOf_;
  std::vector<Built> built_;
};

}  // namespace

const std::string* SharedFunctions::find(const Function& function) const {
  for (auto [it, end] = functions_.equal_range(structuralHash(Expr(function))); it != end; ++it)
    if (structuralEqual(Expr(it->second.first), Expr(function))) return &it->second.second;
  return nullptr;
}

void SharedFunctions::add(const Function& function, std::string name) {
  functions_.emplace(structuralHash(Expr(function)), std::pair{function, std::move(name)});
}

Result<Function> outlineGroups(const Function& function, const std::vector<Expr>& bodyOrder, const std::vector<NodeGroup>& groups,
                               const GroupFunctionMaker& maker) {
  if (groups.empty()) return function;
  GroupOutliner outliner(function, bodyOrder, groups, maker);
  BYOC_ASSIGN_OR_RETURN(Expr rewritten, outliner.mutate(function));
  return downcast<FunctionNode>(rewritten);
}

}  // namespace byoc
