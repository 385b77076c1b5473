#pragma once
/// \file
/// The child process that runs a codegen plugin's code, `byoc-plugin-host PLUGIN`: the program
/// itself never loads a plugin library. A host opens one plugin, greets with the plugin's name,
/// version and summary, then serves requests over a local socket (plugin_wire.h): compile a
/// region, or load one artifact, run it any number of times and unload it.
///
/// Every wait for the host has a time limit: `$BYOC_PLUGIN_COMPILE_SECONDS` for a compile (60 s
/// by default) and `$BYOC_PLUGIN_CALL_SECONDS` for starting, loading, running and unloading (60 s
/// by default). A host that crashes, exits or stays silent past its limit (it is then killed,
/// with the processes it started) becomes a one-line error naming the plugin and what it was
/// doing, with the last line the host printed; the program goes on.
///
/// What the host prints (its stdout and stderr) is kept in a memory file rather than reaching
/// the terminal while it runs: after a call that ends, it is passed on to the program's stderr
/// (at most kMaxForwardedOutputBytes of it per call); after a failure only its last line is
/// shown, in the error, since a crash report of many lines would bury which plugin failed.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/runtime_module.h"
#include "support/result.h"

namespace byoc {

/// The prefix that marks a plugin codegen in a target (`plugin:ccompiler`).
inline constexpr std::string_view kPluginCodegenPrefix = "plugin:";

/// A codegen plugin as its host reports it.
struct PluginDescription {
  /// The file it was found as (absolute, links resolved).
  std::string path;
  /// The codegen's name, as the plugin reports it (`ccompiler`).
  std::string name;
  std::string version;
  std::string summary;
  /// The name targets use: `plugin:<name>`.
  std::string codegenName() const { return "plugin:" + name; }
};

/// Which time limit a request is held to.
enum class PluginLimit { Compile, Call };

/// The environment variable that sets `limit`, in seconds.
const char* pluginLimitVariable(PluginLimit limit);

/// The seconds of `limit`: its environment variable if set, else 60. A value that is not a
/// number of seconds above 0 is an error naming the variable.
Result<double> pluginLimitSeconds(PluginLimit limit);

/// One running host.
class PluginProcess {
 public:
  /// Starts the host of the plugin file `path` and reads its greeting. Errors are located at
  /// `path` and say what went wrong (not a plugin, crashed, exited, stalled while starting).
  static Result<std::unique_ptr<PluginProcess>> start(const std::string& path);

  PluginProcess(const PluginProcess&) = delete;
  PluginProcess& operator=(const PluginProcess&) = delete;
  /// Closes the socket; the host exits without running more plugin code, or is killed.
  ~PluginProcess();

  const PluginDescription& description() const { return description_; }
  /// False once the host has failed.
  bool running() const { return !failed_; }

  /// Sends `request` and returns the rest of a successful reply. A failure is an error: the
  /// plugin's own message (`*pluginError` set), or the host's crash, exit or time out during
  /// `what` ("compiling the region", "running @f"), after which every call fails the same way.
  /// A reply longer than `maxReplyBytes` is a failure too. With `passed` ≥ 0, that descriptor
  /// goes with the request.
  Result<std::string> call(const std::string& request, const std::string& what, PluginLimit limit, uint64_t maxReplyBytes,
                           bool* pluginError = nullptr, int passed = -1);

 private:
  PluginProcess(int pid, int socket, int output) : pid_(pid), socket_(socket), output_(output) {}
  uint64_t outputSize() const;
  /// The bytes of the output file in [from, to).
  std::string readOutput(uint64_t from, uint64_t to) const;
  /// Passes what the host printed since the last call on to stderr.
  void forwardOutput();
  /// The last line the host printed since the last call; the rest is dropped.
  std::string lastOutputLine();
  /// The error for a host that failed (`failure`: what the socket said) during `what`, after
  /// reaping it (its pid is then not waited for again: it may belong to another process).
  Diagnostic hostFailure(const std::string& failure, const std::string& what, PluginLimit limit, double seconds);

  int pid_;
  int socket_;
  /// The memory file the host's stdout and stderr are written to.
  int output_;
  /// How much of it has been read.
  uint64_t outputRead_ = 0;
  PluginDescription description_;
  /// Set once the host has failed and was reaped: every later call returns it.
  std::optional<Diagnostic> failed_;
};

/// Starts the host of `path` only to read the plugin's description.
Result<PluginDescription> describePlugin(const std::string& path);

/// The `byoc-plugin-host` executable: `$BYOC_PLUGIN_HOST` if set, else the one next to the
/// running program.
std::string pluginHostPath();

/// A new, empty temporary directory (under `$TMPDIR`, else /tmp) whose name starts with `prefix`.
Result<std::string> makeTemporaryDirectory(const std::string& prefix);

/// Writes the files of `artifact` into the existing `directory`.
Status writeArtifactFiles(const CodegenArtifact& artifact, const std::string& directory);

/// Checks an artifact's file count, names (distinct, plain) and total size against the limits.
Status checkArtifact(const CodegenArtifact& artifact, std::string_view producer);

}  // namespace byoc
