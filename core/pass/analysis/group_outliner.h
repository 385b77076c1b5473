#pragma once
/// \file
/// Outlining groups of nodes of one function into global functions, the way Relax's fusion
/// passes do: a group's function takes the values the group reads from outside (in order of first
/// use) and returns every member that is used outside the group (a tuple when there are several);
/// the caller gets `call` or `call.i` in their place.

#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/expr.h"
#include "ir/module.h"
#include "support/result.h"

namespace byoc {

/// One group to outline: its members (nodes of the function being rewritten), in any order.
struct NodeGroup {
  std::vector<Expr> members;
};

/// How a group becomes a function: its body is the members rebuilt over fresh parameters, named
/// after the variables they stand for (`lv<k>` for other values, `param_<k>` for constants).
struct GroupFunctionMaker {
  /// Whether constants the group reads become parameters (Relax's `lift_constants`) rather than
  /// staying in the body.
  bool liftConstants = false;
  /// Makes the global function from the group's body and parameters; returns the global name to
  /// call (it may reuse an existing one).
  std::function<Result<std::string>(std::size_t group, std::vector<Var> params, Expr body)> define;
};

/// The functions a pass has added so far, found again by structure: Relax's block builder reuses
/// an added function structurally equal to the one being added instead of adding a copy.
class SharedFunctions {
 public:
  /// The name of an added function structurally equal to `function`, or null.
  const std::string* find(const Function& function) const;
  /// Records `function`, added as `name`.
  void add(const Function& function, std::string name);

 private:
  std::unordered_multimap<std::size_t, std::pair<Function, std::string>> functions_;
};

/// Rewrites `function`, outlining every group; an error if two groups depend on each other.
/// `bodyOrder` is `bindingOrder(function->body)`, which callers have already computed.
Result<Function> outlineGroups(const Function& function, const std::vector<Expr>& bodyOrder, const std::vector<NodeGroup>& groups,
                               const GroupFunctionMaker& maker);

}  // namespace byoc
