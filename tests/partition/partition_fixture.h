#pragma once
/// \file
/// Shared by the partitioning tests: loading test targets and running a pipeline step by step.

#include <QtTest>
#include <memory>
#include <string>
#include <vector>

#include "pass/builtin_passes.h"
#include "pass/transforms/canonicalize_ops.h"
#include "pass/infer_type.h"
#include "pass/partition/partition_passes.h"
#include "pass/pipeline.h"
#include "target/target.h"
#include "test_files.h"
#include "text/parser.h"

namespace byoc::testing {

/// The target `tests/data/partition/targets/<name>.json`, or the built-in one of that name.
inline std::shared_ptr<const Target> loadTestTarget(const std::string& name) {
  QString relative = QStringLiteral("partition/targets/%1.json").arg(QString::fromStdString(name));
  QString path = QStringLiteral(BYOC_TEST_DATA_DIR "/") + relative;
  std::string json = QFile::exists(path) ? readTestData(relative)
                                         : readTestData(QStringLiteral("../../resources/targets/%1.json").arg(QString::fromStdString(name)));
  Result<Target> target = parseTarget(json, name + ".json");
  if (!target) qFatal("bad test target %s: %s", name.c_str(), target.error().str().c_str());
  return std::make_shared<const Target>(std::move(*target));
}

/// A typed module parsed from test data; fails the test if it does not parse or type.
inline Module loadTypedTestModule(const QString& relativePath) {
  Result<Module> parsed = parseModule(readTestData(relativePath), relativePath.toStdString());
  if (!parsed) qFatal("%s", parsed.error().str().c_str());
  Result<Module> typed = inferTypes(*parsed);
  if (!typed) qFatal("%s", typed.error().str().c_str());
  return *typed;
}

/// The partitioning pass of the pipeline step `step` (a pass name, with boolean options in
/// parentheses as in pipeline text), for `targets`.
inline PassPtr partitionPass(const std::string& step, const std::vector<std::shared_ptr<const Target>>& targets) {
  const std::string name = step.substr(0, step.find('('));
  Attrs options;
  if (name.size() != step.size()) {
    Result<std::vector<PipelineStep>> parsed = parsePipeline(step, builtinPasses());
    if (!parsed) qFatal("bad step %s: %s", step.c_str(), parsed.error().str().c_str());
    options = parsed->front().options;
  }
  auto flag = [&](const char* option, bool otherwise) {
    const AttrValue* value = options.find(option);
    return value ? value->asBool() : otherwise;
  };
  if (name == "FuseOpsByPattern")
    return createFuseOpsByPatternPass(targets, {flag("bind_constants", true), flag("annotate_codegen", false),
                                                flag("reject_leaking_intermediates", false)})
        .value();
  if (name == "MergeCompositeFunctions") return createMergeCompositeFunctionsPass(flag("lift_constants", true));
  if (name == "RunCodegen") return createRunCodegenPass();
  if (name == "MergeComposite") return createMergeCompositePass(targets).value();
  if (name == "AnnotateTarget") return createAnnotateTargetPass(targets, flag("include_non_call_ops", true));
  if (name == "MergeCompilerRegions") return createMergeCompilerRegionsPass();
  if (name == "PartitionGraph") return createPartitionGraphPass();
  if (name == "PruneRegions") return createPruneRegionsPass(targets.at(0));
  if (name == "CanonicalizeOps") return createCanonicalizeOpsPass();
  qFatal("unknown pass %s", name.c_str());
}

/// `text` without any whitespace, to compare with text that was wrapped differently.
inline std::string withoutSpaces(const std::string& text) {
  std::string result;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) result += c;
  return result;
}

}  // namespace byoc::testing
