#pragma once
/// \file
/// Command-line parsing of `byoc`: a command, its flags (with or without a value, which follows the
/// flag as the next argument or after `=`), and a FILE. Every command and flag is declared once, in
/// a table that the help texts are generated from.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace byoc::cli {

/// What the user asked for.
struct Options {
  std::string command;  ///< a command name, "help" or "version"
  std::optional<std::string> file;
  bool help = false;    ///< `byoc <command> --help`
  /// Each flag given, with its values in order (one empty value for a flag without a value).
  std::map<std::string, std::vector<std::string>> flags;

  bool has(const std::string& flag) const { return flags.count(flag) != 0; }
  /// The last value given for `flag`, if any.
  std::optional<std::string> value(const std::string& flag) const;
  /// Every value given for a repeatable flag, in order.
  std::vector<std::string> values(const std::string& flag) const;
  bool demo() const { return has("--demo"); }
  /// The value of a numeric flag (checked when parsed), or `fallback` when it is not given.
  uint64_t number(const std::string& flag, uint64_t fallback) const;
};

/// The outcome of parsing: the options, or a usage error (the caller prints it and exits 2).
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
