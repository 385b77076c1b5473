/// \file
/// countModule and describeChange.

#include "snapshot/snapshot_summary.h"

#include <QStringList>

#include "ir/function_attrs.h"
#include "ir/op.h"
#include "ir/traversal.h"

namespace byoc::ui {

ModuleCounts countModule(const Module& module) {
  ModuleCounts counts;
  counts.functions = static_cast<int>(module.functions().size());
  postOrderVisit(module, [&counts](const Expr& expr) {
    if (const auto* function = expr->as<FunctionNode>()) {
      if (function->attrs.contains(attr::kComposite)) ++counts.composites;
    } else if (const auto* call = expr->as<CallNode>()) {
      const OpDef* def = call->opDef();
      if (def && def->name.rfind("annotation.compiler_", 0) == 0) {
        ++counts.annotations;
      } else {
        ++counts.calls;
      }
    }
  });
  return counts;
}

QString describeChange(const ModuleCounts& before, const ModuleCounts& after) {
  QStringList parts;
  auto add = [&parts](int from, int to, const char* noun) {
    if (from == to) return;
    const int delta = to - from;
    parts << (delta > 0 ? QStringLiteral("+%1 %2") : QStringLiteral("\u2212%1 %2")).arg(std::abs(delta)).arg(QLatin1String(noun));
  };
  add(before.functions, after.functions, "functions");
  add(before.composites, after.composites, "composites");
  add(before.annotations, after.annotations, "annotations");
  add(before.calls, after.calls, "calls");
  return parts.join(QStringLiteral(", "));
}

}  // namespace byoc::ui
