/// \file
/// groupBranches: uses between members, their topological order, and scopes materialized as groups.

#include "graph/branch_groups.h"

#include <map>

namespace byoc::ui {

namespace {

/// One place a member can go: the top of a region, or a branch of an `if` in it.
struct Scope {
  int parent = -1;   ///< The scope holding it; -1 for a region's top.
  int depth = 0;     ///< 0 for a region's top.
  int group = -1;    ///< The group drawing it (a region's top: the region), -1 until needed.
  int ifNode = -1;   ///< For a branch: the `if` node,
  int port = 0;      ///< and its port (1 then, 2 else).
  bool made = false; ///< Whether `group` is set.
};

/// `producer` is used by `user`, a member of the same region; through branch `port` (1 or 2) of
/// `user` when `user` is an `if` and the use is its branch's result, else port 0.
struct Use {
  int producer;
  int user;
  int port;
};

class BranchGrouper {
 public:
  BranchGrouper(std::vector<GraphNode>& nodes, std::vector<GraphGroup>& groups)
      : nodes_(nodes), groups_(groups), nodeCount_(static_cast<int>(nodes.size())),
        memberCount_(nodeCount_ + static_cast<int>(groups.size())), pinned_(memberCount_, false),
        placement_(memberCount_, -1) {}

  void run(const std::vector<GraphEdge>& edges, const std::vector<CalleeUse>& calleeUses) {
    for (const GraphEdge& edge : edges) {
      if (nodes_[edge.from].kind != GraphNodeKind::Stub) addUse(edge.from, nodes_[edge.from].group, edge.to, edge.port);
    }
    for (const CalleeUse& use : calleeUses) addUse(nodeCount_ + use.group, groups_[use.group].parent, use.call, 0);
    placeAll();
    for (int member = 0; member < memberCount_; ++member) {
      if (isMember(member) && scopes_[placement_[member]].parent >= 0) setRegion(member, groupOf(placement_[member]));
    }
  }

 private:
  bool isMember(int member) const { return member >= nodeCount_ || nodes_[member].kind != GraphNodeKind::Stub; }

  int regionOf(int member) const {
    return member < nodeCount_ ? nodes_[member].group : groups_[member - nodeCount_].parent;
  }

  void setRegion(int member, int group) {
    if (member < nodeCount_) {
      nodes_[member].group = group;
    } else {
      groups_[member - nodeCount_].parent = group;
    }
  }

  /// The member of `region` that holds node `node`, or -1 when the node lies outside the region.
  int memberIn(int node, int region) const {
    int member = node;
    for (int group = nodes_[node].group; group != region; group = groups_[group].parent) {
      if (group < 0) return -1;
      member = nodeCount_ + group;
    }
    return member;
  }

  /// Records the use of `member` (in `region`) by node `user` through `port`: at the level of the
  /// innermost region holding both; below it, each enclosing member is used outside its region.
  void addUse(int member, int region, int user, int port) {
    while (true) {
      const int by = memberIn(user, region);
      if (by >= 0) {
        if (by == member) return;  // a use from inside itself, as a loop's call of itself
        const bool branch = by == user && nodes_[user].kind == GraphNodeKind::If && (port == 1 || port == 2);
        uses_.push_back({member, by, branch ? port : 0});
        return;
      }
      pinned_[member] = true;
      member = nodeCount_ + region;
      region = groups_[region].parent;
    }
  }

  int topOf(int region) {
    auto [it, added] = tops_.try_emplace(region, static_cast<int>(scopes_.size()));
    if (added) scopes_.push_back({-1, 0, region, -1, 0, true});
    return it->second;
  }

  int branchOf(int ifNode, int port) {
    auto [it, added] = branches_.try_emplace({ifNode, port}, static_cast<int>(scopes_.size()));
    if (added) {
      const int parent = placement_[ifNode];
      scopes_.push_back({parent, scopes_[parent].depth + 1, -1, ifNode, port, false});
    }
    return it->second;
  }

  int commonScope(int a, int b) const {
    while (scopes_[a].depth > scopes_[b].depth) a = scopes_[a].parent;
    while (scopes_[b].depth > scopes_[a].depth) b = scopes_[b].parent;
    while (a != b) {
      a = scopes_[a].parent;
      b = scopes_[b].parent;
    }
    return a;
  }

  /// Places every member after all its users (Kahn's order over the uses); members on a cycle of
  /// uses (only a malformed module has one) stay at their region's top.
  void placeAll() {
    std::vector<int> pending(memberCount_, 0);
    std::vector<std::vector<int>> usesBy(memberCount_), usesOf(memberCount_);
    for (std::size_t i = 0; i < uses_.size(); ++i) {
      ++pending[uses_[i].producer];
      usesBy[uses_[i].user].push_back(static_cast<int>(i));
      usesOf[uses_[i].producer].push_back(static_cast<int>(i));
    }
    std::vector<int> ready;
    for (int member = 0; member < memberCount_; ++member) {
      if (isMember(member) && pending[member] == 0) ready.push_back(member);
    }
    while (!ready.empty()) {
      const int member = ready.back();
      ready.pop_back();
      int scope = -1;
      if (!pinned_[member]) {
        for (int i : usesOf[member]) {
          const Use& use = uses_[i];
          const int at = use.port ? branchOf(use.user, use.port) : placement_[use.user];
          scope = scope < 0 ? at : commonScope(scope, at);
        }
      }
      placement_[member] = scope >= 0 ? scope : topOf(regionOf(member));
      for (int i : usesBy[member]) {
        if (--pending[uses_[i].producer] == 0) ready.push_back(uses_[i].producer);
      }
    }
    for (int member = 0; member < memberCount_; ++member) {
      if (isMember(member) && placement_[member] < 0) placement_[member] = topOf(regionOf(member));
    }
  }

  /// The group drawing `scope`, made (with the groups of the branches around it) when first needed.
  int groupOf(int scope) {
    std::vector<int> unmade;
    for (int at = scope; !scopes_[at].made; at = scopes_[at].parent) unmade.push_back(at);
    for (auto it = unmade.rbegin(); it != unmade.rend(); ++it) {
      Scope& branch = scopes_[*it];
      GraphGroup group;
      group.id = static_cast<int>(groups_.size());
      group.parent = scopes_[branch.parent].group;
      group.label = branch.port == 1 ? QStringLiteral("then") : QStringLiteral("else");
      group.branchOf = branch.ifNode;
      groups_.push_back(std::move(group));
      branch.group = groups_.back().id;
      branch.made = true;
    }
    return scopes_[scope].group;
  }

  std::vector<GraphNode>& nodes_;
  std::vector<GraphGroup>& groups_;
  const int nodeCount_;
  const int memberCount_;
  std::vector<bool> pinned_;
  std::vector<int> placement_;
  std::vector<Use> uses_;
  std::vector<Scope> scopes_;
  std::map<int, int> tops_;
  std::map<std::pair<int, int>, int> branches_;
};

}  // namespace

void groupBranches(std::vector<GraphNode>& nodes, const std::vector<GraphEdge>& edges, std::vector<GraphGroup>& groups,
                   const std::vector<CalleeUse>& calleeUses) {
  BranchGrouper(nodes, groups).run(edges, calleeUses);
}

}  // namespace byoc::ui
