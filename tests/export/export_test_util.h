#pragma once
/// \file
/// Helpers of the export tests: partitioning a module for a built-in target, export options,
/// rewriting one file of an export with its checksum updated, and running and comparing outputs.

#include <QtTest>

#include <cstring>
#include <string>
#include <vector>

#include "export/export_reader.h"
#include "export/export_writer.h"
#include "export/sha256.h"
#include "partitioned_module.h"
#include "runtime/executor.h"
#include "support/file_io.h"
#include "text/parser.h"

namespace byoc::testing {

/// `text` parsed, type-checked and partitioned for the built-in `target`.
inline Module partitioned(const std::string& text, const std::string& target) {
  Result<Module> module = parseModule(text, "in.relay");
  if (!module) qFatal("%s", module.error().str().c_str());
  return partitionedFor(*module, target);
}

/// Export options recording `target` with `codegen`.
inline ExportOptions optionsFor(const std::string& target, const std::string& codegen) {
  ExportOptions options;
  options.producer = "byoc-studio test";
  options.targets = {{target, codegen}};
  return options;
}

/// Replaces a file of the export in `dir` and records its new checksum, so that only the change is wrong.
inline void rewrite(const std::string& dir, const std::string& relative, const std::string& content) {
  QVERIFY(writeFileAtomic(dir + "/" + relative, content).isOk());
  Result<Manifest> manifest = readExportManifest(dir);
  QVERIFY(manifest.isOk());
  manifest->files[relative] = sha256Hex(content);
  QVERIFY(writeFileAtomic(dir + "/manifest.json", writeManifest(*manifest)).isOk());
}

/// The flattened outputs of `executor` on inputs drawn from `seed`.
inline std::vector<NDArray> runOnRandomInputs(Executor& executor, uint64_t seed) {
  std::vector<Value> args;
  for (const Var& param : executor.inputs()) args.emplace_back(randomTensorOf(*param->type()->as<TensorTypeNode>(), seed++));
  Result<Value> result = executor.run(args);
  if (!result) qFatal("%s", result.error().str().c_str());
  std::vector<NDArray> outputs;
  result->flattenInto(outputs);
  return outputs;
}

/// Whether both output lists hold the same tensors, byte for byte.
inline bool bitIdentical(const std::vector<NDArray>& a, const std::vector<NDArray>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].dtype() != b[i].dtype() || a[i].shape() != b[i].shape() || a[i].byteSize() != b[i].byteSize() ||
        std::memcmp(a[i].bytes(), b[i].bytes(), a[i].byteSize()) != 0)
      return false;
  return true;
}

/// The content of the file at `path`, or "<missing>".
inline std::string contentOf(const std::string& path) {
  Result<std::string> content = readFile(path);
  return content ? *content : std::string("<missing>");
}

}  // namespace byoc::testing
