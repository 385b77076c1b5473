#include "ir/expr.h"

#include "ir/op.h"

namespace byoc {

VarNode::VarNode(std::string name, Type annotation, Type checked, Origin origin)
    : ExprNode(kKind, checked ? std::move(checked) : annotation, std::move(origin)),
      name(std::move(name)),
      annotation(std::move(annotation)) {}

Var VarNode::make(std::string name, Type annotation, Origin origin, Type checked) {
  return makeRef<const VarNode>(std::move(name), std::move(annotation), std::move(checked), std::move(origin));
}

GlobalVarNode::GlobalVarNode(std::string name, Type checked, Origin origin)
    : ExprNode(kKind, std::move(checked), std::move(origin)), name(std::move(name)) {}

GlobalVar GlobalVarNode::make(std::string name, Origin origin, Type checked) {
  return makeRef<const GlobalVarNode>(std::move(name), std::move(checked), std::move(origin));
}

ConstantNode::ConstantNode(TensorData data, std::string name, Origin origin)
    : ExprNode(kKind, tensorType(data.shape(), data.dtype()), std::move(origin)),
      data(std::move(data)),
      name(std::move(name)) {}

Constant ConstantNode::make(TensorData data, Origin origin, std::string name) {
  return makeRef<const ConstantNode>(std::move(data), std::move(name), std::move(origin));
}

OpNode::OpNode(const OpDef& def) : ExprNode(kKind, {}, {}), def(def) { addOp(def.name); }

const std::string& OpNode::name() const { return def.name; }

std::uint64_t ExprNode::opBit(std::string_view name) {
  // FNV-1a, whose top six bits pick the bit: the same for an op name in every run and build.
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (char c : name) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return std::uint64_t{1} << (hash >> 58);
}

CallNode::CallNode(Expr callee, std::vector<Expr> args, Attrs attrs, Type checked, Origin origin)
    : ExprNode(kKind, std::move(checked), std::move(origin)),
      callee(std::move(callee)),
      args(std::move(args)),
      attrs(std::move(attrs)) {
  addChild(this->callee.get());
  for (const Expr& arg : this->args) addChild(arg.get());
}

Call CallNode::make(Expr callee, std::vector<Expr> args, Attrs attrs, Origin origin, Type checked) {
  return makeRef<const CallNode>(std::move(callee), std::move(args), std::move(attrs), std::move(checked),
                                 std::move(origin));
}

const OpDef* CallNode::opDef() const {
  const auto* op = callee->as<OpNode>();
  return op ? &op->def : nullptr;
}

TupleNode::TupleNode(std::vector<Expr> fields, Type checked, Origin origin)
    : ExprNode(kKind, std::move(checked), std::move(origin)), fields(std::move(fields)) {
  for (const Expr& field : this->fields) addChild(field.get());
}

Tuple TupleNode::make(std::vector<Expr> fields, Origin origin, Type checked) {
  return makeRef<const TupleNode>(std::move(fields), std::move(checked), std::move(origin));
}

TupleGetItemNode::TupleGetItemNode(Expr tuple, int index, Type checked, Origin origin)
    : ExprNode(kKind, std::move(checked), std::move(origin)), tuple(std::move(tuple)), index(index) {
  addChild(this->tuple.get());
}

TupleGetItem TupleGetItemNode::make(Expr tuple, int index, Origin origin, Type checked) {
  return makeRef<const TupleGetItemNode>(std::move(tuple), index, std::move(checked), std::move(origin));
}

FunctionNode::FunctionNode(std::vector<Var> params, Expr body, Type retType, Attrs attrs, Type checked,
                           Origin origin)
    : ExprNode(kKind, std::move(checked), std::move(origin)),
      params(std::move(params)),
      body(std::move(body)),
      retType(std::move(retType)),
      attrs(std::move(attrs)) {
  addChild(this->body.get());  // parameters are variables: they refer to nothing
}

Function FunctionNode::make(std::vector<Var> params, Expr body, Type retType, Attrs attrs, Origin origin,
                            Type checked) {
  return makeRef<const FunctionNode>(std::move(params), std::move(body), std::move(retType), std::move(attrs),
                                     std::move(checked), std::move(origin));
}

IfNode::IfNode(Expr cond, Expr thenBranch, Expr elseBranch, Type checked, Origin origin)
    : ExprNode(kKind, std::move(checked), std::move(origin)),
      cond(std::move(cond)),
      thenBranch(std::move(thenBranch)),
      elseBranch(std::move(elseBranch)) {
  for (const Expr* child : {&this->cond, &this->thenBranch, &this->elseBranch}) addChild(child->get());
}

If IfNode::make(Expr cond, Expr thenBranch, Expr elseBranch, Origin origin, Type checked) {
  return makeRef<const IfNode>(std::move(cond), std::move(thenBranch), std::move(elseBranch), std::move(checked),
                               std::move(origin));
}

LetNode::LetNode(Var var, Expr value, Expr body, Type checked, Origin origin)
    : ExprNode(kKind, std::move(checked), std::move(origin)),
      var(std::move(var)),
      value(std::move(value)),
      body(std::move(body)) {
  addChild(this->value.get());
  addChild(this->body.get());
}

Let LetNode::make(Var var, Expr value, Expr body, Origin origin, Type checked) {
  return makeRef<const LetNode>(std::move(var), std::move(value), std::move(body), std::move(checked),
                                std::move(origin));
}

const char* exprKindName(ExprKind kind) {
  switch (kind) {
    case ExprKind::Var: return "Var";
    case ExprKind::GlobalVar: return "GlobalVar";
    case ExprKind::Constant: return "Constant";
    case ExprKind::Op: return "Op";
    case ExprKind::Call: return "Call";
    case ExprKind::Tuple: return "Tuple";
    case ExprKind::TupleGetItem: return "TupleGetItem";
    case ExprKind::Function: return "Function";
    case ExprKind::If: return "If";
    case ExprKind::Let: return "Let";
  }
  return "?";
}

}  // namespace byoc
