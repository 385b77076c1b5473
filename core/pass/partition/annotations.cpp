#include "pass/partition/annotations.h"

#include <algorithm>
#include <vector>

#include "ir/op.h"
#include "ir/ops/op_helpers.h"
#include "ir/traversal.h"

namespace byoc::partitioning {

namespace {

bool isAnnotationCall(const Expr& expr, std::string_view opName) {
  const auto* call = expr ? expr->as<CallNode>() : nullptr;
  return call && call->opDef() && call->opDef()->name == opName;
}

Expr makeAnnotation(std::string_view opName, const Expr& value, std::string_view target) {
  // A pass places hundreds of thousands of annotations on a large model: build the normalised
  // call once per op and target on this thread, and let later annotations share its callee and
  // attribute list.
  struct Template {
    Expr callee;
    Attrs attrs;
  };
  thread_local std::vector<Template> templates;
  auto found = std::find_if(templates.begin(), templates.end(), [&](const Template& known) {
    return known.callee->as<OpNode>()->name() == opName && ops::stringAttr(known.attrs, "compiler") == target;
  });
  if (found == templates.end()) {
    Result<Call> call = makeOpCall(opName, {value}, Attrs{{"compiler", std::string(target)}});
    BYOC_CHECK(call.isOk(), "annotation ops are registered");
    found = templates.insert(templates.end(), {(*call)->callee, (*call)->attrs});
  }
  // An annotation passes its value through: it has the value's type, as type inference would find.
  return CallNode::make(found->callee, {value}, found->attrs, value->origin(), value->type());
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
