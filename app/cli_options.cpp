#include "cli_options.h"

#include <algorithm>

#include "pass/builtin_passes.h"
#include "pass/registry.h"
#include "support/dims_text.h"
#include "support/limits.h"

namespace byoc::cli {

namespace {

/// What a flag's value must look like.
enum class ValueKind { Text, Number, NameEqualsFile, NameEqualsShape, PassName };

/// The values a numeric flag accepts, both ends included.
struct NumberRange {
  uint64_t min = 0;
  uint64_t max = 0;
};

/// One flag of a command. `value` names its value (`NAME`), or is empty for a switch.
struct FlagSpec {
  std::string name{};
  std::string value{};
  std::string help{};
  bool repeatable = false;
  ValueKind kind = ValueKind::Text;
  NumberRange range{};
  /// A flag this one only applies with (`match -o` with `--partition`); empty for none.
  std::string onlyWith{};
};

/// Most timed runs of `run --bench`.
constexpr uint64_t kMaxBenchRuns = 1000000;
/// Largest `--random-inputs` seed (18 digits: it fits every integer type a seed is kept in).
constexpr uint64_t kMaxSeed = 999999999999999999;

/// A whole non-negative decimal number no larger than `max`, or nothing (signs, spaces, other
/// characters and values past `max` are refused before anything could overflow).
std::optional<uint64_t> parseNumber(const std::string& text, uint64_t max) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  uint64_t number = 0;
  for (char digit : text) {
    const uint64_t value = static_cast<uint64_t>(digit - '0');
    if (value > max || number > (max - value) / 10) return std::nullopt;
    number = number * 10 + value;
  }
  return number;
}

/// Why `spec` is not NAME=D0xD1x… (at most `limits::kMaxRank` sizes, each at most
/// `limits::kMaxElements`), or "".
std::string shapeSpecProblem(const std::string& flag, const std::string& spec) {
  const std::size_t equals = spec.find('=');
  if (equals == std::string::npos || equals == 0)
    return flag + " expects NAME=DIMS such as input=1x16x256, found '" + spec + "'";
  if (readDims(spec.substr(equals + 1)).problem != DimsText::Problem::None)
    return flag + " expects sizes from 0 to " + std::to_string(limits::kMaxElements) + " joined by 'x', at most " +
           std::to_string(limits::kMaxRank) + " of them, found '" + spec.substr(equals + 1) + "' in '" + spec + "'";
  return "";
}

/// The usage error for a value that does not fit its flag, or "".
std::string checkValue(const FlagSpec& flag, const std::string& value) {
  switch (flag.kind) {
    case ValueKind::Text: return "";
    case ValueKind::Number: {
      std::optional<uint64_t> number = parseNumber(value, flag.range.max);
      if (number && *number >= flag.range.min) return "";
      return flag.name + " expects an integer from " + std::to_string(flag.range.min) + " to " +
             std::to_string(flag.range.max) + ", found '" + value + "'";
    }
    case ValueKind::NameEqualsFile:
      return value.find('=') != std::string::npos && value.front() != '=' ? ""
                                                                         : flag.name + " expects NAME=FILE.npy, found '" + value + "'";
    case ValueKind::NameEqualsShape: return shapeSpecProblem(flag.name, value);
    case ValueKind::PassName: {
      const PassRegistry& registry = builtinPasses();
      if (registry.find(value)) return "";
      std::string names;
      for (const PassInfo* info : registry.all()) names += (names.empty() ? "" : ", ") + info->name;
      return flag.name + " expects a registered pass (" + names + "), found '" + value + "'";
    }
  }
  return "";
}

/// How FILE is given to a command.
enum class Input { Model, ModelOrDemo, None };

struct CommandSpec {
  std::string summary;
  Input input = Input::ModelOrDemo;
  std::vector<FlagSpec> flags;
  /// Flags that must be given.
  std::vector<std::string> required{};
  /// What FILE is, when it is not a model.
  std::string fileHelp{};
};

const FlagSpec kDemoFlag{"--demo", "", "the built-in demo model (seed 000's loop)"};
const FlagSpec kTargetFlag{"--target", "T", "a built-in target name (dnnl, tvm-dnnl, byoc-target, ccompiler) or a target file (.json); repeat for several, in priority order", true};
const FlagSpec kPipelineFlag{"--pipeline", "P", "relay (MergeComposite, AnnotateTarget, MergeCompilerRegions, PartitionGraph; the default) or relax"};
const FlagSpec kPatternFlag{"--pattern", "TEXT", "the pattern, in the pattern language (docs/patterns.md)"};
const FlagSpec kPatternFileFlag{"--pattern-file", "FILE", "read the pattern from FILE (its JSON form when FILE ends in .json)"};
/// The flag every command takes: codegen plugins to load besides those of the plugin path.
const FlagSpec kPluginFlag{"--plugin", "PATH", "load the codegen plugin PATH (a shared library, docs/plugins.md); repeat for several", true};

/// The flags of every command that runs passes (docs/cli.md).
const std::vector<FlagSpec> kPassRunFlags = {
    {"--time-passes", "", "print the wall time of every pass to stderr after the run"},
    {"--print-ir-after-all", "", "print the module to stderr after every pass"},
    {"--print-ir-after", "PASS", "print the module to stderr after each run of PASS; repeat for several", true, ValueKind::PassName},
    {"--verify-each", "", "check the module after every pass (types, scoping, origins, annotations); a violation names the pass"},
};

/// `flags` followed by the pass-running flags.
std::vector<FlagSpec> withPassRunFlags(std::vector<FlagSpec> flags) {
  flags.insert(flags.end(), kPassRunFlags.begin(), kPassRunFlags.end());
  return flags;
}

const std::map<std::string, CommandSpec>& commands() {
  static const std::map<std::string, CommandSpec> specs = {
      {"print", {"print a model as Relay text", Input::ModelOrDemo,
                 {kDemoFlag, {"--types", "", "show the type of every expression as /* ty=... */"}}}},
      {"info", {"describe a model: functions, node counts, op histogram, constants", Input::ModelOrDemo, {kDemoFlag}}},
      {"partition", {"partition a model for targets and print the partitioned module", Input::ModelOrDemo,
                     withPassRunFlags({kDemoFlag, kTargetFlag, kPipelineFlag,
                      {"-o", "OUT", "write the partitioned module to OUT (.relay or .json) instead of printing it"},
                      {"--dump-after-each", "DIR", "write the module after each pass to DIR/NN-<pass>.relay"},
                      {"--types", "", "show the type of every expression"},
                      {"--params", "OUT.npz", "also write the constants the Relay text refers to as meta[relay.Constant][i] to OUT.npz (NumPy)"}})}},
      {"opt", {"run a pipeline of registered passes on a model and print the result", Input::ModelOrDemo,
               withPassRunFlags({kDemoFlag, {"--passes", "PIPELINE", "the passes, e.g. \"InferType,FoldConstant,FuseOps(fuse_opt_level=2)\" (see 'byoc passes')"},
                {"-o", "OUT", "write the module to OUT (.relay or .json) instead of printing it"},
                {"--dump-after-each", "DIR", "write the module after each pass to DIR/NN-<pass>.relay"},
                {"--types", "", "show the type of every expression"}}),
               {"--passes"}}},
      {"run", {"run a model (offloaded regions through their codegens) and report its outputs", Input::ModelOrDemo,
               withPassRunFlags({kDemoFlag, kTargetFlag, kPipelineFlag,
                {"--input", "NAME=FILE.npy", "the value of input NAME; repeat for each input", true, ValueKind::NameEqualsFile},
                {"--random-inputs", "SEED", "fill every input not given with --input from SEED", false, ValueKind::Number, {0, kMaxSeed}},
                {"--input-shape", "NAME=DIMS", "the shape of random input NAME, such as 1x16x256: sizes for its unknown (?) dimensions; repeat for each input", true,
                 ValueKind::NameEqualsShape},
                {"--output", "FILE.npy", "write the outputs (FILE_<i>.npy for each of several)"},
                {"--compare-reference", "", "also run the unpartitioned model on reference kernels and print the largest errors"},
                {"--trust-compiled", "", "for an export: run the compiled files of its plugin regions as they are, instead of compiling "
                                         "those regions again from their IR (docs/export-format.md)"},
                {"--bench", "N", "time N runs after one warm-up: median, p90, and time per region", false, ValueKind::Number,
                 {1, kMaxBenchRuns}},
                {"--threads", "N", "threads of the pool oneDNN and the reference GEMM use (default 1)", false, ValueKind::Number,
                 {1, static_cast<uint64_t>(limits::kMaxThreads)}}})}},
      {"export", {"partition a model for targets and write it as an export directory (docs/export-format.md)", Input::ModelOrDemo,
                  withPassRunFlags({kDemoFlag, kTargetFlag, kPipelineFlag,
                   {"-o", "OUT", "the export directory; an existing export there is replaced atomically"}}),
                  {"-o"}}},
      {"export-tvm", {"write a target as a TVM Python module: its pattern table and op-support functions", Input::None,
                      {{"--target", "T", "a built-in target name (dnnl, tvm-dnnl, byoc-target, ccompiler) or a target file (.json)"},
                       {"-o", "OUT.py", "write the module to OUT.py (atomically) instead of printing it"}},
                      {"--target"}}},
      {"verify", {"check an export directory: every checksum and file name, and that every region builds from its IR (its compiled files are never loaded)", Input::Model, {}, {},
                  "an export directory (written by 'byoc export')"}},
      {"plugins", {"list the codegen plugins found (--plugin, $BYOC_PLUGIN_PATH, the installed ones): name, version, file", Input::None,
                   {}}},
      {"passes", {"list the registered passes with their summaries", Input::None,
                  {{"--reference", "", "print the full reference: options, opt levels, descriptions (Markdown)"}}}},
      {"compare", {"show what differs between two partitionings of a model: calls offloaded on one side only, regions split or merged, composites", Input::ModelOrDemo,
                   {kDemoFlag, kTargetFlag, kPipelineFlag,
                    {"--against", "T", "a target of side B (built-in name or file); repeat for several, in priority order", true},
                    {"--against-pipeline", "P", "the pipeline of side B (relay or relax; default: side A's)"}},
                   {"--target", "--against"}}},
      {"match", {"list every place a dataflow pattern matches in a model", Input::ModelOrDemo,
                 {kDemoFlag, kPatternFlag, kPatternFileFlag,
                  {"--partition", "", "instead, print the model with every match outlined into a function called in place "
                                      "(PartitionedFromPattern, as TVM's pattern.partition() does)"},
                  {.name = "-o", .value = "OUT", .help = "with --partition, write the module to OUT (.relay or .json) instead of printing it",
                   .onlyWith = "--partition"},
                  {.name = "--types", .help = "with --partition, show the type of every expression", .onlyWith = "--partition"}}}},
      {"rewrite", {"replace every match of a pattern by a replacement, until nothing changes (TVM's rewrite)", Input::ModelOrDemo,
                   withPassRunFlags({kDemoFlag, kPatternFlag, kPatternFileFlag,
                    {"--replace", "TEXT", "the replacement, in the pattern language over the pattern's names (docs/patterns.md)"},
                    {"--replace-file", "FILE", "read the replacement from FILE"},
                    {"-o", "OUT", "write the module to OUT (.relay or .json) instead of printing it"},
                    {"--types", "", "show the type of every expression"}})}},
  };
  static const std::map<std::string, CommandSpec> withPlugin = [] {
    std::map<std::string, CommandSpec> all = specs;
    for (auto& entry : all) entry.second.flags.push_back(kPluginFlag);
    return all;
  }();
  return withPlugin;
}

std::string usageLine(const std::string& name, const CommandSpec& spec) {
  std::string line = "byoc " + name;
  if (spec.input == Input::ModelOrDemo) line += " (FILE | --demo)";
  if (spec.input == Input::Model) line += " FILE";
  for (const FlagSpec& flag : spec.flags) {
    if (flag.name == "--demo") continue;
    const std::string usage = flag.name + (flag.value.empty() ? "" : " " + flag.value) + (flag.repeatable ? " ..." : "");
    const bool required = std::find(spec.required.begin(), spec.required.end(), flag.name) != spec.required.end();
    line += required ? " " + usage : " [" + usage + "]";
  }
  return line;
}

}  // namespace

std::optional<std::string> Options::value(const std::string& flag) const {
  auto found = flags.find(flag);
  if (found == flags.end() || found->second.empty()) return std::nullopt;
  return found->second.back();
}

uint64_t Options::number(const std::string& flag, uint64_t fallback) const {
  std::optional<std::string> text = value(flag);
  if (!text) return fallback;
  uint64_t number = 0;
  for (char digit : *text) number = number * 10 + static_cast<uint64_t>(digit - '0');
  return number;
}

std::vector<std::string> Options::values(const std::string& flag) const {
  auto found = flags.find(flag);
  return found == flags.end() ? std::vector<std::string>{} : found->second;
}

std::string mainHelp() {
  std::string text =
      "byoc - see and shape how a model is partitioned for your backend\n\n"
      "usage: byoc <command> [options]\n       byoc --help | --version\n\ncommands:\n";
  std::size_t width = 0;
  for (const auto& entry : commands()) width = std::max(width, entry.first.size() + 2);
  for (const auto& [name, spec] : commands()) text += "  " + name + std::string(width - name.size(), ' ') + spec.summary + "\n";
  text += "\nFILE is a model: ONNX (.onnx), Relay text (.relay, .txt) or BYOC Studio JSON (.json).\n"
          "Run 'byoc <command> --help' for the options of a command.\n";
  return text;
}

std::string commandHelp(const std::string& command) {
  const CommandSpec& spec = commands().at(command);
  std::string text = spec.summary + "\n\nusage: " + usageLine(command, spec) + "\n\n";
  auto row = [](const std::string& head, const std::string& help) {
    constexpr std::size_t kWidth = 24;
    return "  " + head + std::string(head.size() < kWidth ? kWidth - head.size() : 1, ' ') + help + "\n";
  };
  if (spec.input != Input::None)
    text += row("FILE", spec.fileHelp.empty() ? "a model: ONNX (.onnx), Relay text (.relay, .txt) or BYOC Studio JSON (.json)" : spec.fileHelp);
  for (const FlagSpec& flag : spec.flags) text += row(flag.name + (flag.value.empty() ? "" : " " + flag.value), flag.help);
  const bool takesValues = std::any_of(spec.flags.begin(), spec.flags.end(), [](const FlagSpec& flag) { return !flag.value.empty(); });
  if (takesValues) text += "\nAn option's value may also follow an equals sign: --option=VALUE.\n";
  return text;
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
  const std::vector<FlagSpec>& flags = spec->second.flags;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      options.help = true;
      continue;
    }
    if (arg.size() > 1 && arg[0] == '-') {
      // `--flag=VALUE` is `--flag VALUE`.
      const std::size_t equals = arg.starts_with("--") ? arg.find('=') : std::string::npos;
      const std::string name = arg.substr(0, equals);
      auto flag = std::find_if(flags.begin(), flags.end(), [&](const FlagSpec& f) { return f.name == name; });
      if (flag == flags.end()) {
        outcome.usageError = "unknown option '" + name + "' for '" + first + "'";
        return outcome;
      }
      std::vector<std::string>& values = options.flags[name];
      if (!values.empty() && !flag->repeatable) {
        outcome.usageError = "option '" + name + "' is given twice";
        return outcome;
      }
      if (flag->value.empty()) {
        if (equals != std::string::npos) {
          outcome.usageError = "option '" + name + "' takes no value";
          return outcome;
        }
        values.emplace_back();
      } else if (equals == std::string::npos && i + 1 >= args.size()) {
        outcome.usageError = "option '" + name + "' needs a value (" + flag->value + ")";
        return outcome;
      } else {
        std::string value = equals != std::string::npos ? arg.substr(equals + 1) : args[++i];
        std::string problem = checkValue(*flag, value);
        if (!problem.empty()) {
          outcome.usageError = problem;
          return outcome;
        }
        values.push_back(std::move(value));
      }
      continue;
    }
    if (options.file || spec->second.input == Input::None) {
      outcome.usageError = "unexpected argument '" + arg + "'";
      return outcome;
    }
    options.file = arg;
  }
  if (options.help) return outcome;
  if (spec->second.input == Input::ModelOrDemo && options.file.has_value() == options.demo())
    outcome.usageError = options.demo() ? "give either FILE or --demo, not both" : "missing FILE (or --demo)";
  if (spec->second.input == Input::Model && !options.file) outcome.usageError = "missing FILE";
  for (const std::string& flag : spec->second.required)
    if (outcome.usageError.empty() && !options.has(flag)) outcome.usageError = "missing " + flag;
  for (const FlagSpec& flag : spec->second.flags)
    if (outcome.usageError.empty() && !flag.onlyWith.empty() && options.has(flag.name) && !options.has(flag.onlyWith))
      outcome.usageError = "option '" + flag.name + "' applies only with " + flag.onlyWith;
  return outcome;
}

}  // namespace byoc::cli
