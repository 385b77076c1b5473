#include "pass/partition/annotations.h"

#include "ir/op.h"
#include "ir/traversal.h"

namespace byoc::partitioning {

namespace {

bool isAnnotationCall(const Expr& expr, std::string_view opName) {
  const auto* call = expr ? expr->as<CallNode>() : nullptr;
  return call && call->opDef() && call->opDef()->name == opName;
}

Expr makeAnnotation(std::string_view opName, const Expr& value, std::string_view target) {
  Result<Call> call = makeOpCall(opName, {value}, Attrs{{"compiler", std::string(target)}}, value->origin());
  BYOC_CHECK(call.isOk(), "annotation ops are registered");
  // An annotation passes its value through: it has the value's type, as type inference would find.
  return withType(*call, value->type());
}

}  // namespace

bool isCompilerBegin(const Expr& expr) { return isAnnotationCall(expr, "annotation.compiler_begin"); }

bool isCompilerEnd(const Expr& expr) { return isAnnotationCall(expr, "annotation.compiler_end"); }

const std::string& annotationTarget(const Expr& annotation) {
  const AttrValue* compiler = annotation->as<CallNode>()->attrs.find("compiler");
  BYOC_CHECK(compiler && compiler->isString(), "annotations carry a compiler attribute");
  return compiler->asString();
}

Expr makeCompilerBegin(const Expr& value, std::string_view target) {
  return makeAnnotation("annotation.compiler_begin", value, target);
}

Expr makeCompilerEnd(const Expr& value, std::string_view target) {
  return makeAnnotation("annotation.compiler_end", value, target);
}

bool mayHoldAnnotations(const ExprNode& node) {
  static const std::uint64_t annotationBits =
      ExprNode::opBit("annotation.compiler_begin") | ExprNode::opBit("annotation.compiler_end");
  return (node.calledOps() & annotationBits) != 0;
}

Expr skipAnnotations(Expr expr) {
  while (isCompilerBegin(expr) || isCompilerEnd(expr)) expr = expr->as<CallNode>()->args[0];
  return expr;
}

}  // namespace byoc::partitioning
