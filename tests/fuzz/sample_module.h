#pragma once
/// \file
/// A small typed module for the fuzz targets whose input acts on a model (patterns, rule
/// expressions, targets): convolution, batch norm and its tuple, dense, concatenation, constants,
/// a let, an if and a call of a global, so that most matcher and predicate paths have something
/// to look at.

#include <utility>
#include <vector>

#include "ir/expr.h"
#include "ir/module.h"
#include "ir/traversal.h"
#include "pass/infer_type.h"
#include "support/result.h"
#include "text/parser.h"

namespace byoc::fuzz {

/// The typed sample module (parsed and typed once). It lives until the process ends and is never
/// destroyed: releasing IR nodes needs thread-local state that is gone once `exit` runs static
/// destructors.
inline const Module& sampleModule() {
  static const Module& module = *[] {
    constexpr const char* kText = R"(#[version = "0.0.5"]
def @f(%c: bool, %a: Tensor[(2), float32]) -> Tensor[(2), float32] {
  let %t = tanh(%a);
  if (%c) { %t } else { multiply(%t, 2f) }
}
def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32], %b: Tensor[(4), float32],
          %g: Tensor[(4), float32], %be: Tensor[(4), float32], %m: Tensor[(4), float32], %v: Tensor[(4), float32],
          %i: Tensor[(2, 2), int64], %wd: Tensor[(10, 256), float32], %c: bool, %a: Tensor[(2), float32]) {
  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3]);
  %1 = nn.bias_add(%0, %b);
  %2 = nn.batch_norm(%1, %g, %be, %m, %v);
  %3 = nn.relu(%2.0);
  %4 = add(%3, %1);
  %5 = nn.batch_flatten(%4);
  %6 = nn.dense(%5, %wd);
  %7 = add(%6, 1f);
  %8 = concatenate((%3, %4), axis=1);
  (%7, %i, %8, nn.softmax(%7), @f(%c, %a))
}
)";
    Result<Module> parsed = parseModule(kText, "sample.relay");
    BYOC_CHECK(parsed.isOk(), parsed.error().str());
    Result<Module> typed = inferTypes(*parsed);
    BYOC_CHECK(typed.isOk(), typed.error().str());
    return new Module(std::move(*typed));
  }();
  return module;
}

/// Every call of the sample module, children before parents (never destroyed either).
inline const std::vector<Expr>& sampleCalls() {
  static const std::vector<Expr>& calls = *[] {
    auto* found = new std::vector<Expr>;
    postOrderVisit(sampleModule(), [&found](const Expr& node) {
      if (node->kind() == ExprKind::Call) found->push_back(node);
    });
    return found;
  }();
  return calls;
}

}  // namespace byoc::fuzz
