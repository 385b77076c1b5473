#include "cli_options.h"

#include <algorithm>
#include <map>

namespace byoc::cli {

namespace {

struct CommandSpec {
  std::string summary;
  std::string usage;
  std::vector<std::string> flags;  ///< the flags it accepts
  std::vector<std::string> valueFlags = {};  ///< the flags that take a value
};

const std::map<std::string, CommandSpec>& commands() {
  static const std::map<std::string, CommandSpec> specs = {
      {"print",
       {"print a model as Relay text",
        "byoc print (FILE | --demo) [--types]\n\n"
        "  FILE      a model: Relay text (.relay, .txt) or BYOC Studio JSON (.json)\n"
        "  --demo    the built-in demo model\n"
        "  --types   show the type of every expression as /* ty=... */\n",
        {"--demo", "--types"}}},
      {"info",
       {"describe a model: functions, node counts, op histogram, constants",
        "byoc info (FILE | --demo)\n\n"
        "  FILE      a model: Relay text (.relay, .txt) or BYOC Studio JSON (.json)\n"
        "  --demo    the built-in demo model\n",
        {"--demo"}}},
      {"run",
       {"run a model (offloaded regions through their codegens) and report its outputs",
        "byoc run (FILE | --demo) [--input NAME=FILE.npy ...] [--random-inputs SEED] [--output FILE.npy]\n"
        "         [--compare-reference] [--bench N] [--threads N]\n\n"
        "  FILE                  a model: Relay text (.relay, .txt) or BYOC Studio JSON (.json); functions with\n"
        "                        Compiler=\"dnnl\" run on oneDNN, other Compiler values on the reference codegen\n"
        "  --demo                the built-in demo model\n"
        "  --input NAME=FILE     the value of input NAME from a .npy file (repeatable)\n"
        "  --random-inputs SEED  fill every input not given with --input from SEED\n"
        "  --output FILE.npy     write the output (several outputs: FILE_0.npy, FILE_1.npy, ...)\n"
        "  --compare-reference   also run every region on the reference codegen and print the largest\n"
        "                        absolute and relative error of each output; exit 1 if any element is\n"
        "                        off by more than 1e-3 + 1e-3 * |reference|\n"
        "  --bench N             time N runs after one warm-up: median, p90, and time per region\n"
        "  --threads N           threads of the OpenMP pool that oneDNN and the reference GEMM use (default 1)\n",
        {"--demo", "--compare-reference"},
        {"--input", "--random-inputs", "--output", "--bench", "--threads"}}},
  };
  return specs;
}

/// A whole non-negative decimal number, or nothing.
std::optional<uint64_t> parseCount(const std::string& text) {
  if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::stoull(text);
}

/// Stores the value of a value flag; returns a usage error or "".
std::string setValue(Options& options, const std::string& flag, const std::string& value) {
  if (flag == "--input") {
    if (value.find('=') == std::string::npos || value.front() == '=')
      return "--input expects NAME=FILE.npy, found '" + value + "'";
    options.inputs.push_back(value);
    return "";
  }
  if (flag == "--output") {
    options.output = value;
    return "";
  }
  std::optional<uint64_t> number = parseCount(value);
  if (flag == "--random-inputs") {
    if (!number) return "--random-inputs expects a non-negative integer seed, found '" + value + "'";
    options.randomSeed = *number;
    return "";
  }
  if (!number || *number == 0 || *number > 1000000) return flag + " expects a positive integer, found '" + value + "'";
  (flag == "--bench" ? options.bench : options.threads) = static_cast<int>(*number);
  return "";
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
    } else if (const auto& valued = spec->second.valueFlags;
               std::find(valued.begin(), valued.end(), arg) != valued.end()) {
      if (i + 1 >= args.size()) {
        outcome.usageError = "option '" + arg + "' expects a value";
        return outcome;
      }
      outcome.usageError = setValue(options, arg, args[++i]);
      if (!outcome.usageError.empty()) return outcome;
    } else if (arg.rfind("-", 0) == 0 && arg.size() > 1) {
      const auto& flags = spec->second.flags;
      if (std::find(flags.begin(), flags.end(), arg) == flags.end()) {
        outcome.usageError = "unknown option '" + arg + "' for '" + first + "'";
        return outcome;
      }
      if (arg == "--demo") options.demo = true;
      if (arg == "--types") options.types = true;
      if (arg == "--compare-reference") options.compareReference = true;
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
