#include "cli_options.h"

#include <algorithm>
#include <map>

namespace byoc::cli {

namespace {

struct CommandSpec {
  std::string summary;
  std::string usage;
  std::vector<std::string> flags;  ///< the flags it accepts
};

const std::map<std::string, CommandSpec>& commands() {
  static const std::map<std::string, CommandSpec> specs = {
      {"print",
       {"print a model as Relay text",
        "byoc print (FILE | --demo) [--types]\n\n"
        "  FILE      a model: Relay text (.relay, .txt), BYOC Studio JSON (.json) or ONNX (.onnx)\n"
        "  --demo    the built-in demo model\n"
        "  --types   show the type of every expression as /* ty=... */\n",
        {"--demo", "--types"}}},
      {"info",
       {"describe a model: functions, node counts, op histogram, constants",
        "byoc info (FILE | --demo)\n\n"
        "  FILE      a model: Relay text (.relay, .txt), BYOC Studio JSON (.json) or ONNX (.onnx)\n"
        "  --demo    the built-in demo model\n",
        {"--demo"}}},
  };
  return specs;
}

}  // namespace

std::string mainHelp() {
  std::string text =
      "byoc - see and shape how a model is partitioned for your backend\n\n"
      "usage: byoc <command> [options]\n       byoc --help | --version\n\ncommands:\n";
  for (const auto& [name, spec] : commands()) text += "  " + name + std::string(8 - name.size(), ' ') + spec.summary + "\n";
  text += "\nRun 'byoc <command> --help' for the options of a command.\n";
  return text;
}

std::string commandHelp(const std::string& command) {
  const CommandSpec& spec = commands().at(command);
  return spec.summary + "\n\nusage: " + spec.usage;
}

ParseOutcome parseOptions(const std::vector<std::string>& args) {
  ParseOutcome outcome;
  Options& options = outcome.options;
  if (args.empty()) {
    outcome.usageError = "missing command";
    return outcome;
  }
  const std::string& first = args[0];
  if (first == "--help" || first == "-h" || first == "help") {
    options.command = "help";
    return outcome;
  }
  if (first == "--version") {
    options.command = "version";
    return outcome;
  }
  auto spec = commands().find(first);
  if (spec == commands().end()) {
    outcome.usageError = "unknown command '" + first + "'";
    return outcome;
  }
  options.command = first;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      options.help = true;
    } else if (arg.rfind("-", 0) == 0 && arg.size() > 1) {
      const auto& flags = spec->second.flags;
      if (std::find(flags.begin(), flags.end(), arg) == flags.end()) {
        outcome.usageError = "unknown option '" + arg + "' for '" + first + "'";
        return outcome;
      }
      if (arg == "--demo") options.demo = true;
      if (arg == "--types") options.types = true;
    } else if (!options.file) {
      options.file = arg;
    } else {
      outcome.usageError = "unexpected argument '" + arg + "'";
      return outcome;
    }
  }
  if (!options.help && options.file.has_value() == options.demo)
    outcome.usageError = options.demo ? "give either FILE or --demo, not both" : "missing FILE (or --demo)";
  return outcome;
}

}  // namespace byoc::cli
