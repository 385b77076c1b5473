#pragma once
/// \file
/// Command-line parsing of `byoc`: a command, its flags, and positional arguments.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace byoc::cli {

/// What the user asked for.
struct Options {
  std::string command;  ///< "print", "info", "run", "help", "version"
  std::optional<std::string> file;
  bool demo = false;
  bool types = false;
  bool help = false;  ///< `byoc <command> --help`
  // `byoc run`
  std::vector<std::string> inputs;      ///< `--input NAME=FILE.npy`, repeatable
  std::optional<uint64_t> randomSeed;  ///< `--random-inputs SEED`
  std::optional<std::string> output;   ///< `--output FILE.npy`
  int bench = 0;                       ///< `--bench N`: timed runs after one warm-up
  int threads = 1;                     ///< `--threads N`
  bool compareReference = false;       ///< `--compare-reference`
};

/// Parses `argv`; on a usage error returns the message (the caller prints it and exits 2).
struct ParseOutcome {
  Options options;
  std::string usageError;
};
ParseOutcome parseOptions(const std::vector<std::string>& args);

/// The overall `byoc --help` text.
std::string mainHelp();
/// The help text of one command.
std::string commandHelp(const std::string& command);

}  // namespace byoc::cli
