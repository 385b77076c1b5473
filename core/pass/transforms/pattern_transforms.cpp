#include "pass/transforms/pattern_transforms.h"

#include "pass/analysis/function_utils.h"
#include "pattern/partition.h"

namespace byoc {

PassPtr createPatternRewritePass(Replacement replacement, std::string source) {
  PassInfo info{"PatternRewrite", "replaces every match of a pattern, to a fixed point", 0, {"InferType"}};
  return makeFunctionPass(std::move(info), [callback = replacement.callback(), source](
                                               const Function& function, const Module&, PassContext&) -> Result<Function> {
    // The whole function, as TVM's rewrite(callback, mod["main"]): comparing two passes' results
    // then pairs the parameters by position instead of by first use.
    Result<Expr> rewritten = rewrite({callback}, function);
    if (!rewritten) {
      Diagnostic error = rewritten.error();
      if (!source.empty()) error.message = source + ": " + error.message;
      return error;
    }
    Function result = downcast<FunctionNode>(*rewritten);
    if (!result) return makeError("PatternRewrite: a replacement of the whole function must be a function");
    if (result == function) return function;
    // The return type was inferred from the old body; the new one may give another.
    return FunctionNode::make(result->params, result->body, {}, result->attrs, result->origin());
  });
}

PassPtr createPatternPartitionPass(OwnedPattern pattern) {
  PassInfo info{"PatternPartition", "outlines every match of a pattern into a function called in place", 0, {"InferType"}};
  return makeFunctionPass(std::move(info), [pattern](const Function& function, const Module&, PassContext&) -> Result<Function> {
    BYOC_ASSIGN_OR_RETURN(Expr body, partition(pattern.get(), function->body));
    return withBody(function, body);
  });
}

}  // namespace byoc
