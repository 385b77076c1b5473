#include "plugin/plugin_process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "support/file_io.h"
#include "support/limits.h"

extern char** environ;

namespace byoc {

namespace {

namespace fs = std::filesystem;

/// Removes a temporary directory this program created, whatever happens to the compile.
class TemporaryDirectory {
 public:
  explicit TemporaryDirectory(std::string path) : path_(std::move(path)) {}
  ~TemporaryDirectory() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// The last non-empty line of `text`, which is where the host writes its error.
std::string lastLine(const std::string& text) {
  std::size_t end = text.find_last_not_of("\r\n ");
  if (end == std::string::npos) return "";
  std::size_t begin = text.rfind('\n', end);
  begin = begin == std::string::npos ? 0 : begin + 1;
  std::string line = text.substr(begin, end + 1 - begin);
  if (line.rfind("error: ", 0) == 0) line.erase(0, 7);
  if (line.size() > limits::kMaxPluginMessageBytes) line.resize(limits::kMaxPluginMessageBytes);
  return line;
}

/// Runs `program args…` with stdout and stderr going to `logPath`; returns its wait status.
Result<int> runChild(const std::string& program, const std::vector<std::string>& args, const std::string& logPath) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return makeError("cannot start the plugin host: " + std::string(std::strerror(spawned)), {program});
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return makeError("lost the plugin host: " + std::string(std::strerror(errno)), {program});
  return status;
}

/// The files the host wrote to `directory`: regular files only, names, count and sizes checked.
Result<CodegenArtifact> readArtifactDirectory(const std::string& directory, const std::string& producer) {
  CodegenArtifact artifact;
  std::error_code error;
  int64_t total = 0;
  for (fs::directory_iterator it(directory, error); !error && it != fs::directory_iterator(); it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (!fs::is_regular_file(it->symlink_status(error)))
      return makeError(producer + ": the artifact's \"" + name + "\" is not a regular file");
    if (static_cast<int64_t>(artifact.files.size()) >= limits::kMaxPluginArtifactFiles)
      return makeError(producer + ": the artifact has more than " + std::to_string(limits::kMaxPluginArtifactFiles) + " files");
    total += static_cast<int64_t>(it->file_size(error));
    if (total > limits::kMaxPluginArtifactBytes)
      return makeError(producer + ": the artifact is larger than " + std::to_string(limits::kMaxPluginArtifactBytes) + " bytes");
    BYOC_ASSIGN_OR_RETURN(std::string bytes, readFile(it->path().string()));
    artifact.files.emplace_back(name, std::move(bytes));
  }
  if (error) return makeError(producer + ": cannot list the artifact: " + error.message(), {directory});
  std::sort(artifact.files.begin(), artifact.files.end());
  BYOC_TRY(checkArtifact(artifact, producer));
  return artifact;
}

}  // namespace

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

Result<CodegenArtifact> compileInChildProcess(const PluginLibrary& plugin, const std::string& regionJson,
                                              const std::string& constantsSafetensors) {
  const std::string host = pluginHostPath();
  if (::access(host.c_str(), X_OK) != 0)
    return makeError("cannot find the plugin host, which compiles through plugins (install byoc-plugin-host next to the program "
                     "or set BYOC_PLUGIN_HOST)", {host});
  BYOC_ASSIGN_OR_RETURN(std::string path, makeTemporaryDirectory("byoc-compile-"));
  TemporaryDirectory work(path);
  const std::string region = work.path() + "/region.json", constants = work.path() + "/constants.safetensors";
  const std::string out = work.path() + "/artifact", log = work.path() + "/host.log";
  BYOC_TRY(writeFileAtomic(region, regionJson));
  BYOC_TRY(writeFileAtomic(constants, constantsSafetensors));
  if (::mkdir(out.c_str(), 0700) != 0) return makeError("cannot create the artifact folder: " + std::string(std::strerror(errno)), {out});
  BYOC_ASSIGN_OR_RETURN(int status, runChild(host, {plugin.path(), region, constants, out}, log));
  const std::string who = plugin.codegenName();
  if (WIFSIGNALED(status))
    return makeError(who + " crashed while compiling the region (signal " + std::to_string(WTERMSIG(status)) + ", " +
                         ::strsignal(WTERMSIG(status)) + ")", {plugin.path()});
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    Result<std::string> printed = readFile(log);
    std::string message = printed ? lastLine(*printed) : std::string();
    if (message.empty()) message = "exited with status " + std::to_string(WEXITSTATUS(status)) + " while compiling the region";
    return makeError(who + ": " + message);
  }
  return readArtifactDirectory(out, who);
}

}  // namespace byoc
