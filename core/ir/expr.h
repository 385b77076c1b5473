#pragma once
/// \file
/// Expressions of the IR: immutable, reference-counted nodes shared between module versions.
///
/// Every node carries its checked type (null until `InferType` ran) and its origin.
/// Nodes are built with the `make` functions and never changed afterwards; the
/// `with…` helpers of builder.h return the very same node when nothing changes,
/// which is what makes keeping a snapshot after every pass cheap.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/attrs.h"
#include "ir/origin.h"
#include "ir/tensor_data.h"
#include "ir/type.h"
#include "support/ref.h"

namespace byoc {

struct OpDef;

/// The kind of an expression node.
enum class ExprKind : unsigned char {
  Var,
  GlobalVar,
  Constant,
  Op,
  Call,
  Tuple,
  TupleGetItem,
  Function,
  If,
  Let,
};

class ExprNode;
/// Handle to any expression.
using Expr = Ref<const ExprNode>;

/// Base of all expression nodes.
class ExprNode : public Object {
 public:
  ExprKind kind() const { return kind_; }
  /// The checked type; null before type inference.
  const Type& type() const { return type_; }
  /// The loaded-model nodes this node derives from.
  const Origin& origin() const { return origin_; }
  /// Whether a node of kind `kind` is reachable from this node, the node itself included. Fixed
  /// when the node is built, so a walk can skip subgraphs without the kind of node it looks for.
  bool reaches(ExprKind kind) const { return (reachedKinds_ & kindBit(kind)) != 0; }
  /// Whether a global variable (`@f`) is reachable from this node, the node itself included.
  bool refersToGlobal() const { return reaches(ExprKind::GlobalVar); }
  /// The ops called (or named) in the subgraph under this node, the node included, as 64 bits:
  /// `opBit(name)` for each op. Ops share bits, so a set bit only means "may call"; a clear bit
  /// means no call of the op is below, and a walk looking for such calls can skip the node.
  std::uint64_t calledOps() const { return calledOps_; }
  /// The bit of `calledOps` that stands for the op named `name`.
  static std::uint64_t opBit(std::string_view name);

  /// Downcast; null when the node is of another kind.
  template <typename T>
  const T* as() const {
    return kind_ == T::kKind ? static_cast<const T*>(this) : nullptr;
  }

 protected:
  ExprNode(ExprKind kind, Type type, Origin origin)
      : kind_(kind), reachedKinds_(kindBit(kind)), type_(std::move(type)), origin_(std::move(origin)) {}

  /// Takes over what `child` reaches and calls; constructors call it for each child they hold.
  void addChild(const ExprNode* child) {
    if (!child) return;
    reachedKinds_ |= child->reachedKinds_;
    calledOps_ |= child->calledOps_;
  }
  /// Marks the op named `name` as named by this node (what an op node does).
  void addOp(std::string_view name) { calledOps_ |= opBit(name); }

 private:
  static constexpr std::uint16_t kindBit(ExprKind kind) { return std::uint16_t(1u << static_cast<unsigned>(kind)); }

  ExprKind kind_;
  std::uint16_t reachedKinds_;  ///< `kindBit` of every kind reachable from here
  std::uint64_t calledOps_ = 0;
  Type type_;
  Origin origin_;
};

class VarNode;
class GlobalVarNode;
class ConstantNode;
class OpNode;
class CallNode;
class TupleNode;
class TupleGetItemNode;
class FunctionNode;
class IfNode;
class LetNode;
using Var = Ref<const VarNode>;
using GlobalVar = Ref<const GlobalVarNode>;
using Constant = Ref<const ConstantNode>;
using Op = Ref<const OpNode>;
using Call = Ref<const CallNode>;
using Tuple = Ref<const TupleNode>;
using TupleGetItem = Ref<const TupleGetItemNode>;
using Function = Ref<const FunctionNode>;
using If = Ref<const IfNode>;
using Let = Ref<const LetNode>;

/// A local variable: a function parameter or a let binding. Identity is the node itself;
/// the name is only a hint for printing.
class VarNode final : public ExprNode {
 public:
  static constexpr ExprKind kKind = ExprKind::Var;
  /// A variable; its checked type defaults to its annotation.
  static Var make(std::string name, Type annotation = {}, Origin origin = {}, Type checked = {});

  const std::string name;
  /// The written type, or null.
  const Type annotation;

  VarNode(std::string name, Type annotation, Type checked, Origin origin);
};

/// A reference to a function of the module, by name (`@main`).
class GlobalVarNode final : public ExprNode {
 public:
  static constexpr ExprKind kKind = ExprKind::GlobalVar;
  static GlobalVar make(std::string name, Origin origin = {}, Type checked = {});

  const std::string name;

  GlobalVarNode(std::string name, Type checked, Origin origin);
};

/// A tensor literal. `name` is the parameter name it was imported under (may be empty).
class ConstantNode final : public ExprNode {
 public:
  static constexpr ExprKind kKind = ExprKind::Constant;
  /// A constant; its checked type is always the tensor type of `data`.
  static Constant make(TensorData data, Origin origin = {}, std::string name = {});

  const TensorData data;
  const std::string name;

  ConstantNode(TensorData data, std::string name, Origin origin);
};

/// A primitive operator, the callee of most calls. One node per registered op.
class OpNode final : public ExprNode {
 public:
  static constexpr ExprKind kKind = ExprKind::Op;

  /// Registry entry: name, attribute schema, type relation, fusion kind.
  const OpDef& def;
  /// The op's name, e.g. `nn.conv2d`.
  const std::string& name() const;

  explicit OpNode(const OpDef& def);
};

/// A call of an `Op`, a `Function`, a `GlobalVar`, or a variable bound to a function.
class CallNode final : public ExprNode {
 public:
  static constexpr ExprKind kKind = ExprKind::Call;
  static Call make(Expr callee, std::vector<Expr> args, Attrs attrs = {}, Origin origin = {},
                   Type checked = {});

  const Expr callee;
  const std::vector<Expr> args;
  /// Attributes of an op call (`padding=[1, 1, 1, 1]`); empty for other callees.
  const Attrs attrs;

  /// The op definition if the callee is an op, else null.
  const OpDef* opDef() const;

  CallNode(Expr callee, std::vector<Expr> args, Attrs attrs, Type checked, Origin origin);
};

/// `(a, b, …)`.
class TupleNode final : public ExprNode {
 public:
  static constexpr ExprKind kKind = ExprKind::Tuple;
  static Tuple make(std::vector<Expr> fields, Origin origin = {}, Type checked = {});

  const std::vector<Expr> fields;

  TupleNode(std::vector<Expr> fields, Type checked, Origin origin);
};

/// `%t.index`.
class TupleGetItemNode final : public ExprNode {
 public:
  static constexpr ExprKind kKind = ExprKind::TupleGetItem;
  static TupleGetItem make(Expr tuple, int index, Origin origin = {}, Type checked = {});

  const Expr tuple;
  const int index;

  TupleGetItemNode(Expr tuple, int index, Type checked, Origin origin);
};

/// `fn (%p: T, …, Attr=value) -> R { body }`.
class FunctionNode final : public ExprNode {
 public:
  static constexpr ExprKind kKind = ExprKind::Function;
  static Function make(std::vector<Var> params, Expr body, Type retType = {}, Attrs attrs = {},
                       Origin origin = {}, Type checked = {});

  const std::vector<Var> params;
  const Expr body;
  /// The written return type, or null.
  const Type retType;
  /// Function attributes in insertion order (`Composite`, `Compiler`, `Primitive`, …).
  const Attrs attrs;

  FunctionNode(std::vector<Var> params, Expr body, Type retType, Attrs attrs, Type checked, Origin origin);
};

/// `if (cond) { then } else { else }`.
class IfNode final : public ExprNode {
 public:
  static constexpr ExprKind kKind = ExprKind::If;
  static If make(Expr cond, Expr thenBranch, Expr elseBranch, Origin origin = {}, Type checked = {});

  const Expr cond;
  const Expr thenBranch;
  const Expr elseBranch;

  IfNode(Expr cond, Expr thenBranch, Expr elseBranch, Type checked, Origin origin);
};

/// `let %var = value; body`. The value may refer to `var` (recursive functions).
class LetNode final : public ExprNode {
 public:
  static constexpr ExprKind kKind = ExprKind::Let;
  static Let make(Var var, Expr value, Expr body, Origin origin = {}, Type checked = {});

  const Var var;
  const Expr value;
  const Expr body;

  LetNode(Var var, Expr value, Expr body, Type checked, Origin origin);
};

/// Downcasts a handle; null when `expr` is null or of another kind.
template <typename T>
Ref<const T> downcast(const Expr& expr) {
  if (!expr) return {};
  const T* node = expr->template as<T>();
  return node ? Ref<const T>(node) : Ref<const T>();
}

/// Short name of an expression kind ("Call", "Var", …), for messages.
const char* exprKindName(ExprKind kind);

}  // namespace byoc
