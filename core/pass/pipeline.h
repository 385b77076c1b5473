#pragma once
/// \file
/// Pipelines as text: `InferType,FoldConstant,FuseOps(fuse_opt_level=2)`.
///
/// Grammar (spaces allowed between tokens):
///   pipeline := step (',' step)*
///   step     := NAME ('(' [option (',' option)*] ')')?
///   option   := NAME '=' value
///   value    := integer | number | true | false | NAME | "quoted string"
/// Each value is read as the kind of the option's default. Errors are
/// `<pipeline>:1:COL: …` naming an unknown pass, an unknown option, or a bad value.
/// `printPipeline` writes the canonical form, which parses back to the same steps.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ir/attrs.h"
#include "pass/pass.h"
#include "pass/registry.h"
#include "support/result.h"

namespace byoc {

/// One pass of a pipeline with the options written for it (defaults are not filled in).
struct PipelineStep {
  std::string pass;
  Attrs options;
  /// 1-based column of the pass name in the text it was parsed from (0 if built in code).
  int column = 0;

  bool operator==(const PipelineStep& other) const { return pass == other.pass && options == other.options; }
};

/// Parses and checks a pipeline against `registry`.
Result<std::vector<PipelineStep>> parsePipeline(std::string_view text, const PassRegistry& registry);

/// An option value as the pipeline text writes it and `parsePipeline` reads it back: `true`,
/// `3`, `0.5`, a bare name, or a quoted string.
std::string pipelineValueText(const AttrValue& value);

/// Canonical text: `Name(option=value, …)` steps joined by `,`; a step without options is its name.
std::string printPipeline(std::span<const PipelineStep> steps);

/// The passes of the steps, in order. An error (a factory refusing its options) is located at the
/// step's column when the step came from text.
Result<std::vector<PassPtr>> createPipelinePasses(std::span<const PipelineStep> steps, const PassRegistry& registry);

/// The passes of the steps, in order. An error (a factory refusing its options) is located at the
/// step's column when the step came from text.
Result<std::vector<PassPtr>> createPipelinePasses(std::span<const PipelineStep> steps, const PassRegistry& registry);

/// The passes of the steps (as `createPipelinePasses` builds them) in a `Sequential` named `name`.
Result<PassPtr> buildPipeline(std::span<const PipelineStep> steps, const PassRegistry& registry,
                              std::string name = "Pipeline");

}  // namespace byoc
