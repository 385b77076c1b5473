/// \file
/// The table of codegens: the built-in ones, and those registered at startup (plugins).

#include <deque>
#include <map>
#include <mutex>

#include "runtime/runtime_module.h"
#include "target/target.h"

namespace byoc {

namespace {

/// Codegens by name. Entries are never removed, so the pointers `findCodegen` returns stay valid.
struct CodegenTable {
  std::mutex mutex;
  std::deque<Codegen> storage;
  std::map<std::string, const Codegen*, std::less<>> byName;
  std::function<void(std::string_view)> resolver;

  CodegenTable() {
    for (Codegen codegen : {referenceCodegen(), dnnlCodegen()}) add(std::move(codegen));
  }
  bool add(Codegen codegen) {
    if (byName.count(codegen.name)) return false;
    storage.push_back(std::move(codegen));
    byName.emplace(storage.back().name, &storage.back());
    return true;
  }
};

CodegenTable& table() {
  static CodegenTable codegens;
  return codegens;
}

}  // namespace

const Codegen* findCodegen(std::string_view name) {
  CodegenTable& codegens = table();
  std::function<void(std::string_view)> resolver;
  {
    std::lock_guard lock(codegens.mutex);
    if (auto found = codegens.byName.find(name); found != codegens.byName.end()) return found->second;
    resolver = codegens.resolver;
  }
  if (!resolver) return nullptr;
  // Outside the lock: resolving registers codegens.
  resolver(name);
  std::lock_guard lock(codegens.mutex);
  auto found = codegens.byName.find(name);
  return found == codegens.byName.end() ? nullptr : found->second;
}

void setCodegenResolver(std::function<void(std::string_view name)> resolver) {
  CodegenTable& codegens = table();
  std::lock_guard lock(codegens.mutex);
  codegens.resolver = std::move(resolver);
}

std::vector<std::string> codegenNames() {
  CodegenTable& codegens = table();
  std::lock_guard lock(codegens.mutex);
  std::vector<std::string> names;
  for (const auto& entry : codegens.byName) names.push_back(entry.first);
  return names;
}

Status checkTargetCodegen(const Target& target) {
  if (target.codegen.empty() || target.codegen.starts_with("plugin:") || findCodegen(target.codegen)) return Status::ok();
  std::string known;
  for (const std::string& name : codegenNames()) known += (known.empty() ? "" : ", ") + name;
  return makeError("at /codegen: unknown codegen \"" + target.codegen + "\"; expected one of " + known + ", \"plugin:NAME\" or \"\"",
                   {target.file});
}

std::vector<Diagnostic> compositesTheCodegenCannotBuild(const Target& target) {
  std::vector<Diagnostic> problems;
  const Codegen* codegen = findCodegen(target.codegen);
  if (!codegen || !codegen->checkComposite) return problems;
  for (std::size_t row = 0; row < target.patterns.size(); ++row) {
    const Status buildable = codegen->checkComposite(target.patterns[row].name);
    if (!buildable)
      problems.push_back(makeError("pattern " + std::to_string(row + 1) + " ('" + target.patterns[row].name +
                                   "'): " + buildable.error().message));
  }
  return problems;
}

bool registerCodegen(Codegen codegen) {
  CodegenTable& codegens = table();
  std::lock_guard lock(codegens.mutex);
  return codegens.add(std::move(codegen));
}

}  // namespace byoc
