/// \file
/// Rendering of the pass reference.

#include "pass/pass_reference.h"

#include "pass/pipeline.h"

namespace byoc {

std::string renderPassReference(const PassRegistry& registry) {
  std::string out;
  for (const PassInfo* info : registry.all()) {
    if (!out.empty()) out += "\n";
    out += "### " + info->name + "\n\n" + info->summary + ".\n\n";
    out += "- opt level: " + std::to_string(info->optLevel) + "\n";
    std::string required;
    for (const std::string& name : info->required) required += (required.empty() ? "" : ", ") + name;
    out += "- requires: " + (required.empty() ? std::string("nothing") : required) + "\n";
    if (info->options.empty()) out += "- options: none\n";
    for (const PassOption& option : info->options)
      out += "- option `" + option.name + "` (default `" + pipelineValueText(option.defaultValue) + "`): " + option.help + "\n";
    out += "\n" + info->description + "\n";
  }
  return out;
}

}  // namespace byoc
