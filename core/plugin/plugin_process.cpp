#include "plugin/plugin_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <thread>

#include "export/artifact_file_name.h"
#include "plugin/plugin_wire.h"
#include "support/file_io.h"
#include "support/limits.h"

extern char** environ;

namespace byoc {

namespace {

namespace fs = std::filesystem;

/// The largest greeting: three strings the host has already cut to the name limit.
constexpr uint64_t kMaxGreetingBytes = 4 * limits::kMaxPluginNameBytes * 4 + 64;

/// How long a host that was told to stop may take to exit before it is killed.
constexpr auto kExitGrace = std::chrono::seconds(1);

/// The most of a host's output passed on to stderr after one call; the rest is cut.
constexpr uint64_t kMaxForwardedOutputBytes = 64 * 1024;

/// The last line of `output` that is not blank, cut to a length that fits in an error.
std::string lastLine(std::string_view output) {
  constexpr size_t kMaxLineBytes = 300;
  const size_t end = output.find_last_not_of(" \t\r\n");
  if (end == std::string_view::npos) return {};
  output = output.substr(0, end + 1);
  const size_t start = output.find_last_of('\n');
  const std::string_view line = output.substr(start == std::string_view::npos ? 0 : start + 1);
  if (line.size() <= kMaxLineBytes) return std::string(line);
  return std::string(line.substr(0, kMaxLineBytes)) + "…";
}

WireDeadline deadlineAfter(double seconds) {
  const auto wait = std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
  return std::chrono::steady_clock::now() + wait;
}

/// Waits for the host `pid` to end until `deadline`; kills it (and the processes it started)
/// then. Returns its wait status.
int reap(int pid, WireDeadline deadline) {
  int status = 0;
  for (;;) {
    const int done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid || (done < 0 && errno != EINTR)) return status;
    if (std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ::kill(-pid, SIGKILL);
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

/// `0.5`, `60`: seconds as a person writes them.
std::string secondsText(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

}  // namespace

const char* pluginLimitVariable(PluginLimit limit) {
  return limit == PluginLimit::Compile ? "BYOC_PLUGIN_COMPILE_SECONDS" : "BYOC_PLUGIN_CALL_SECONDS";
}

Result<double> pluginLimitSeconds(PluginLimit limit) {
  const char* variable = pluginLimitVariable(limit);
  const char* text = std::getenv(variable);
  if (!text || !*text) return 60.0;
  double seconds = 0;
  const char* end = text + std::strlen(text);
  const auto [stop, error] = std::from_chars(text, end, seconds);
  if (error != std::errc() || stop != end || !std::isfinite(seconds) || seconds <= 0 || seconds > 1e6)
    return makeError(std::string("$") + variable + ": expected a number of seconds above 0 (at most 1e6), found \"" + text + "\"");
  return seconds;
}

Result<std::unique_ptr<PluginProcess>> PluginProcess::start(const std::string& path) {
  const std::string host = pluginHostPath();
  if (::access(host.c_str(), X_OK) != 0)
    return makeError("cannot find the plugin host, which runs codegen plugins (install byoc-plugin-host next to the program "
                     "or set BYOC_PLUGIN_HOST)", {host});
  const int output = ::memfd_create("byoc-plugin-output", MFD_CLOEXEC);
  if (output < 0) return makeError("cannot create the plugin host's output file: " + std::string(std::strerror(errno)), {path});
  int sockets[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0) {
    ::close(output);
    return makeError("cannot create a socket for the plugin host: " + std::string(std::strerror(errno)), {path});
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, output, STDERR_FILENO);
  posix_spawn_file_actions_adddup2(&actions, sockets[1], 3);
  // Its own process group, so that a stalled host is killed with the processes it started.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  std::vector<char*> argv = {const_cast<char*>(host.c_str()), const_cast<char*>(path.c_str()), nullptr};
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, host.c_str(), &actions, &attributes, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(sockets[1]);
  if (spawned != 0) {
    ::close(sockets[0]);
    ::close(output);
    return makeError("cannot start the plugin host: " + std::string(std::strerror(spawned)), {host});
  }
  std::unique_ptr<PluginProcess> process(new PluginProcess(pid, sockets[0], output));
  process->description_.path = path;
  Result<std::string> greeting = process->call("", "starting", PluginLimit::Call, kMaxGreetingBytes);
  if (!greeting) return makeError(greeting.error().message, {path});
  WireReader reader(*greeting);
  process->description_.name = std::string(reader.bytes());
  process->description_.version = std::string(reader.bytes());
  process->description_.summary = std::string(reader.bytes());
  if (!reader.ok() || !reader.atEnd()) return makeError("the plugin host sent a malformed greeting", {path});
  return process;
}

PluginProcess::~PluginProcess() {
  ::close(socket_);
  if (!failed_) {
    reap(pid_, std::chrono::steady_clock::now() + kExitGrace);
    forwardOutput();
  }
  ::close(output_);
}

uint64_t PluginProcess::outputSize() const {
  struct stat status {};
  return ::fstat(output_, &status) == 0 ? static_cast<uint64_t>(status.st_size) : outputRead_;
}

std::string PluginProcess::readOutput(uint64_t from, uint64_t to) const {
  std::string bytes(static_cast<size_t>(to - from), '\0');
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t count = ::pread(output_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(from + done));
    if (count < 0 && errno == EINTR) continue;
    if (count <= 0) break;
    done += static_cast<size_t>(count);
  }
  bytes.resize(done);
  return bytes;
}

void PluginProcess::forwardOutput() {
  const uint64_t end = outputSize();
  if (end <= outputRead_) return;
  const uint64_t shown = std::min(end, outputRead_ + kMaxForwardedOutputBytes);
  std::string text = readOutput(outputRead_, shown);
  if (shown < end) text += "\n[" + std::to_string(end - shown) + " more bytes of the plugin's output were cut]\n";
  outputRead_ = end;
  std::fwrite(text.data(), 1, text.size(), stderr);
}

std::string PluginProcess::lastOutputLine() {
  constexpr uint64_t kTailBytes = 4096;
  const uint64_t end = outputSize();
  const uint64_t from = std::max(outputRead_, end > kTailBytes ? end - kTailBytes : 0);
  outputRead_ = end;
  return end > from ? lastLine(readOutput(from, end)) : std::string();
}

Result<std::string> PluginProcess::call(const std::string& request, const std::string& what, PluginLimit limit,
                                        uint64_t maxReplyBytes, bool* pluginError, int passed) {
  if (failed_) return *failed_;
  BYOC_ASSIGN_OR_RETURN(double seconds, pluginLimitSeconds(limit));
  const WireDeadline deadline = deadlineAfter(seconds);
  // The greeting is the reply to no request.
  Status sent = request.empty() ? Status::ok() : sendMessage(socket_, request, deadline, passed);
  Result<std::string> reply = sent ? receiveMessage(socket_, deadline, maxReplyBytes + 16 + limits::kMaxPluginMessageBytes)
                                   : Result<std::string>(sent.error());
  if (!reply) {
    failed_ = hostFailure(reply.error().message, what, limit, seconds);
    return *failed_;
  }
  forwardOutput();
  WireReader reader(*reply);
  const uint32_t status = reader.u32();
  if (status == 0 && reader.ok()) return std::string(reply->substr(sizeof(uint32_t)));
  const std::string_view message = reader.bytes();
  if (status != 1 || !reader.ok()) {
    failed_ = hostFailure("a malformed reply", what, limit, seconds);
    return *failed_;
  }
  if (pluginError) *pluginError = true;
  return makeError(std::string(message));
}

Diagnostic PluginProcess::hostFailure(const std::string& failure, const std::string& what, PluginLimit limit, double seconds) {
  const std::string who = description_.name.empty() ? "the codegen plugin" : description_.codegenName();
  const bool stalled = failure == "timed out";
  const int status = reap(pid_, std::chrono::steady_clock::now() + (stalled ? std::chrono::seconds(0) : kExitGrace));
  std::string message;
  if (stalled)
    message = who + " did not finish " + what + " within " + secondsText(seconds) + " s (the limit $" + pluginLimitVariable(limit) +
              " sets); it was stopped";
  else if (failure == "closed" && WIFSIGNALED(status))
    message = who + " crashed while " + what + " (signal " + std::to_string(WTERMSIG(status)) + ", " + ::strsignal(WTERMSIG(status)) + ")";
  else if (failure == "closed" && WIFEXITED(status))
    message = who + " exited with status " + std::to_string(WEXITSTATUS(status)) + " while " + what;
  else
    message = who + " failed while " + what + ": " + failure + "; it was stopped";
  if (const std::string line = lastOutputLine(); !line.empty()) message += "; the last line it printed: " + line;
  return makeError(message);
}

Result<PluginDescription> describePlugin(const std::string& path) {
  BYOC_ASSIGN_OR_RETURN(std::unique_ptr<PluginProcess> process, PluginProcess::start(path));
  return process->description();
}

std::string pluginHostPath() {
  if (const char* configured = std::getenv("BYOC_PLUGIN_HOST"); configured && *configured) return configured;
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  return (error ? fs::path("byoc-plugin-host") : self.parent_path() / "byoc-plugin-host").string();
}

Result<std::string> makeTemporaryDirectory(const std::string& prefix) {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/" + prefix + "XXXXXX";
  if (!::mkdtemp(pattern.data())) return makeError("cannot create a temporary directory: " + std::string(std::strerror(errno)), {pattern});
  return pattern;
}

Status writeArtifactFiles(const CodegenArtifact& artifact, const std::string& directory) {
  for (const auto& [name, bytes] : artifact.files) {
    if (std::string problem = artifactFileNameProblem(name); !problem.empty()) return makeError(problem);
    BYOC_TRY(writeFileAtomic((fs::path(directory) / name).string(), bytes));
  }
  return Status::ok();
}

Status checkArtifact(const CodegenArtifact& artifact, std::string_view producer) {
  const std::string who(producer);
  if (static_cast<int64_t>(artifact.files.size()) > limits::kMaxPluginArtifactFiles)
    return makeError(who + ": the artifact has " + std::to_string(artifact.files.size()) + " files; at most " +
                     std::to_string(limits::kMaxPluginArtifactFiles) + " are allowed");
  std::set<std::string> names;
  int64_t total = 0;
  for (const auto& [name, bytes] : artifact.files) {
    if (std::string problem = artifactFileNameProblem(name); !problem.empty()) return makeError(who + ": " + problem);
    if (!names.insert(name).second) return makeError(who + ": the artifact names the file \"" + name + "\" twice");
    total += static_cast<int64_t>(bytes.size());
    if (total > limits::kMaxPluginArtifactBytes)
      return makeError(who + ": the artifact is larger than " + std::to_string(limits::kMaxPluginArtifactBytes) + " bytes");
  }
  return Status::ok();
}

}  // namespace byoc
