#include <algorithm>
#include <iostream>
#include <map>

#include "commands.h"
#include "export/export_reader.h"
#include "ir/op.h"
#include "ir/traversal.h"
#include "model_input.h"

namespace byoc::cli {

namespace {

std::string signature(const FunctionNode& function) {
  std::string text = "(";
  for (std::size_t i = 0; i < function.params.size(); ++i) {
    if (i) text += ", ";
    text += "%" + function.params[i]->name + ": " + typeToString(function.params[i]->type());
  }
  return text + ") -> " + typeToString(function.body->type());
}

template <typename Map>
std::vector<std::pair<std::string, std::size_t>> byCountThenName(const Map& counts) {
  std::vector<std::pair<std::string, std::size_t>> rows(counts.begin(), counts.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return rows;
}

/// The export's manifest, and the kernel graph of each dnnl external function.
void describeExport(const LoadedExport& loaded) {
  const Manifest& manifest = loaded.manifest;
  std::cout << "export: format version " << manifest.formatVersion << ", produced by " << manifest.producer << "\n";
  for (const ManifestFunction& function : manifest.functions) {
    std::cout << "  @" << function.name << "  Compiler=" << function.compiler << "  codegen=" << function.codegen << "  "
              << function.artifact << "\n";
    if (auto graph = loaded.kernelGraphs.find(function.name); graph != loaded.kernelGraphs.end())
      std::cout << "    kernel graph: " << graph->second->summary() << "\n";
  }
}

/// The model of the command: an export (described first), a model file or the demo.
Result<Module> loadAndDescribe(const Options& options) {
  BYOC_ASSIGN_OR_RETURN(OpenedModel opened, openInput(options));
  if (opened.exported) describeExport(*opened.exported);
  return std::move(opened.module);
}

}  // namespace

int runInfo(const Options& options) {
  Result<Module> module = loadAndDescribe(options);
  if (!module) return reportError(module.error());

  std::cout << "functions: " << module->functions().size() << "\n";
  for (const auto& [name, function] : module->functions()) std::cout << "  @" << name << signature(*function) << "\n";

  std::map<std::string, std::size_t> kinds;
  std::map<std::string, std::size_t> ops;
  std::size_t nodes = 0;
  std::size_t constants = 0;
  std::size_t constantBytes = 0;
  postOrderVisit(*module, [&](const Expr& node) {
    if (node->kind() == ExprKind::Op) return;  // ops are shared registry entries, not graph nodes
    ++nodes;
    ++kinds[exprKindName(node->kind())];
    if (const auto* call = node->as<CallNode>(); call && call->opDef()) ++ops[call->opDef()->name];
    if (const auto* constant = node->as<ConstantNode>()) {
      ++constants;
      constantBytes += constant->data.bytes().size();
    }
  });
  std::cout << "nodes: " << nodes << "\n";
  for (const auto& [kind, count] : byCountThenName(kinds)) std::cout << "  " << kind << ": " << count << "\n";
  std::cout << "ops:\n";
  for (const auto& [op, count] : byCountThenName(ops)) std::cout << "  " << op << ": " << count << "\n";
  std::cout << "constants: " << constants << " (" << constantBytes << " bytes)\n";
  return 0;
}

}  // namespace byoc::cli
