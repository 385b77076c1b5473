// The ccompiler codegen plugin: TVM's C-source codegen (CodegenC) behind BYOC Studio's codegen
// plugin interface (include/byoc/codegen_plugin.h). It is the example to copy when writing a
// codegen plugin; docs/plugins.md walks through it.
//
//   compile  the region's kernel graph → region.c (c_emitter.h) → `cc` → region.so; the artifact is
//            region.c, region.so, the constants (constants.bin) and a description (region.txt)
//   load     region.so copied to a private file and opened; constants read; outputs described
//   run      checks the tensors against the description, then calls byoc_region_run

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <cerrno>
#include <fstream>
#include <map>
#include <mutex>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "byoc/codegen_plugin.h"
#include "c_emitter.h"

extern char** environ;

namespace {

using ccompiler::RegionSignature;
using ccompiler::Shape;

constexpr const char* kRunSymbol = "byoc_region_run";
using RunFunction = int (*)(const float* const*, float* const*, const float* const*);

/// Limits on what a loaded description may ask for (the artifact may come from a damaged export).
constexpr int64_t kMaxTensors = 1 << 16;
constexpr int64_t kMaxRank = 32;
constexpr int64_t kMaxElements = int64_t{1} << 32;

char* message(const std::string& text) {
  char* copy = static_cast<char*>(std::malloc(text.size() + 1));
  if (copy) std::memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

int fail(char** error, const std::string& text) {
  if (error) *error = message("ccompiler: " + text);
  return 1;
}

bool isFloat32(const byoc_dtype& dtype) { return dtype.code == BYOC_DTYPE_FLOAT && dtype.bits == 32 && dtype.lanes == 1; }

/// region.txt: the shapes of inputs, constants and outputs, one tensor per line (`input 1 3 8 8`).
std::string describe(const RegionSignature& signature) {
  std::ostringstream text;
  auto line = [&](const char* kind, const Shape& shape) {
    text << kind;
    for (int64_t dim : shape.dims) text << ' ' << dim;
    text << " .\n";
  };
  for (const Shape& shape : signature.inputs) line("input", shape);
  for (const Shape& shape : signature.constantShapes) line("constant", shape);
  for (const Shape& shape : signature.outputs) line("output", shape);
  return text.str();
}

/// Reads region.txt back, checking every count and dimension.
bool readDescription(const std::string& text, RegionSignature& signature, std::string& error) {
  std::istringstream lines(text);
  std::string kind;
  int64_t total = 0;
  while (lines >> kind) {
    Shape shape;
    std::string word;
    while (lines >> word && word != ".") {
      char* end = nullptr;
      const long long dim = std::strtoll(word.c_str(), &end, 10);
      if (*end != '\0' || dim < 0 || dim > kMaxElements || static_cast<int64_t>(shape.dims.size()) >= kMaxRank) {
        error = "region.txt: bad dimension \"" + word + "\"";
        return false;
      }
      shape.dims.push_back(dim);
    }
    int64_t elements = 1;
    for (int64_t dim : shape.dims) {
      if (dim && elements > kMaxElements / dim) {
        error = "region.txt: a tensor has more than 2^32 elements";
        return false;
      }
      elements *= dim;
    }
    if (++total > kMaxTensors) {
      error = "region.txt: too many tensors";
      return false;
    }
    if (kind == "input") signature.inputs.push_back(shape);
    else if (kind == "constant") signature.constantShapes.push_back(shape);
    else if (kind == "output") signature.outputs.push_back(shape);
    else {
      error = "region.txt: unknown line \"" + kind + "\"";
      return false;
    }
  }
  return true;
}

/// The file `name` of an artifact, or null.
const byoc_file* findFile(const byoc_artifact* artifact, const char* name) {
  for (uint64_t i = 0; i < artifact->count; ++i)
    if (artifact->files[i].name && std::strcmp(artifact->files[i].name, name) == 0) return &artifact->files[i];
  return nullptr;
}

bool writeFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

bool readFile(const std::string& path, std::string& bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream content;
  content << in.rdbuf();
  bytes = content.str();
  return true;
}

/// The C compiler: `$CC`, else `cc`.
std::string compilerCommand() {
  const char* configured = std::getenv("CC");
  return configured && *configured ? configured : "cc";
}

/// Compiles `directory`/region.c to region.so; on failure `error` holds the compiler's first lines.
bool runCompiler(const std::string& directory, std::string& error) {
  const std::string compiler = compilerCommand(), source = directory + "/region.c", library = directory + "/region.so",
                    log = directory + "/cc.log";
  std::vector<std::string> args = {compiler, "-O2", "-shared", "-fPIC", "-o", library, source, "-lm"};
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, compiler.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    error = "cannot run the C compiler " + compiler + ": " + std::strerror(spawned);
    return false;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) break;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  std::string output;
  readFile(log, output);
  const std::size_t newline = output.find('\n');
  error = compiler + " failed on the generated C: " + output.substr(0, newline);
  return false;
}

/// A temporary directory removed with everything in it when it goes out of scope.
struct WorkDirectory {
  std::string path;
  WorkDirectory() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/byoc-ccompiler-XXXXXX";
    if (mkdtemp(pattern.data())) path = pattern;
  }
  ~WorkDirectory() {
    if (path.empty()) return;
    for (const char* name : {"region.c", "region.so", "cc.log"}) unlink((path + "/" + name).c_str());
    rmdir(path.c_str());
  }
};

/// The files `compile` returns, kept alive until `free_artifact`.
struct ArtifactFiles {
  std::vector<std::string> names;
  std::vector<std::string> contents;
  std::vector<byoc_file> files;
};

/// The artifacts handed out and not yet freed, by their file table.
std::map<const byoc_file*, std::unique_ptr<ArtifactFiles>>& artifactsInUse() {
  static std::map<const byoc_file*, std::unique_ptr<ArtifactFiles>> artifacts;
  return artifacts;
}
std::mutex artifactsMutex;

/// Whether `tensor` is a compact float32 tensor of `shape` with data.
bool fits(const byoc_tensor& tensor, const Shape& shape) {
  if (!isFloat32(tensor.dtype) || !tensor.data || tensor.ndim != static_cast<int32_t>(shape.dims.size())) return false;
  if (tensor.ndim > 0 && !tensor.shape) return false;
  int64_t stride = 1;
  for (int32_t d = tensor.ndim; d-- > 0;) {
    if (tensor.shape[d] != shape.dims[static_cast<std::size_t>(d)]) return false;
    if (tensor.strides && tensor.shape[d] != 1 && tensor.strides[d] != stride) return false;
    stride *= tensor.shape[d];
  }
  return true;
}

int compile(const char* regionJson, uint64_t size, const byoc_constant* constants, uint64_t constantCount, byoc_artifact* artifact,
            char** error) {
  const nlohmann::json graph = nlohmann::json::parse(regionJson, regionJson + size, nullptr, false);
  if (graph.is_discarded()) return fail(error, "the region is not valid JSON");
  std::string source, problem;
  RegionSignature signature;
  if (!ccompiler::emitRegion(graph, source, signature, problem)) return fail(error, problem);

  // The constants, in the order the C code indexes them, as raw float32.
  std::string constantBytes;
  for (std::size_t j = 0; j < signature.constants.size(); ++j) {
    const byoc_constant* found = nullptr;
    for (uint64_t i = 0; i < constantCount; ++i)
      if (constants[i].name && signature.constants[j] == constants[i].name) found = &constants[i];
    if (!found) return fail(error, "the region reads constant '" + signature.constants[j] + "', which the host did not pass");
    const Shape& shape = signature.constantShapes[j];
    if (!fits(found->tensor, shape))
      return fail(error, "constant '" + signature.constants[j] + "' is not the compact float32 tensor the region declares");
    constantBytes.append(static_cast<const char*>(found->tensor.data), static_cast<std::size_t>(shape.elements()) * sizeof(float));
  }

  WorkDirectory work;
  if (work.path.empty()) return fail(error, std::string("cannot create a temporary directory: ") + std::strerror(errno));
  if (!writeFile(work.path + "/region.c", source)) return fail(error, "cannot write " + work.path + "/region.c");
  if (!runCompiler(work.path, problem)) return fail(error, problem);
  std::string library;
  if (!readFile(work.path + "/region.so", library)) return fail(error, "the C compiler wrote no region.so");

  auto files = std::make_unique<ArtifactFiles>();
  files->names = {"region.c", "region.so", "constants.bin", "region.txt"};
  files->contents = {source, library, constantBytes, describe(signature)};
  for (std::size_t i = 0; i < files->names.size(); ++i)
    files->files.push_back({files->names[i].c_str(), reinterpret_cast<const uint8_t*>(files->contents[i].data()), files->contents[i].size()});
  artifact->files = files->files.data();
  artifact->count = files->files.size();
  std::lock_guard lock(artifactsMutex);
  artifactsInUse()[artifact->files] = std::move(files);
  return 0;
}

void freeArtifact(byoc_artifact* artifact) {
  std::lock_guard lock(artifactsMutex);
  artifactsInUse().erase(artifact->files);
  artifact->files = nullptr;
  artifact->count = 0;
}

/// A loaded region: its library, constants and description.
struct Module {
  void* library = nullptr;
  RunFunction run = nullptr;
  RegionSignature signature;
  std::vector<std::vector<float>> constants;
  std::vector<byoc_tensor> outputs;

  ~Module() {
    if (library) dlclose(library);
  }
};

/// Opens the bytes of region.so: written to a private file (a reloaded export must not meet a
/// library of the same path opened before), opened, and the file removed.
void* openLibrary(const byoc_file& file, std::string& error) {
  const char* base = std::getenv("TMPDIR");
  std::string path = std::string(base && *base ? base : "/tmp") + "/byoc-ccompiler-XXXXXX.so";
  const int fd = mkstemps(path.data(), 3);
  if (fd < 0) {
    error = std::string("cannot create a temporary file: ") + std::strerror(errno);
    return nullptr;
  }
  const bool written = write(fd, file.data, file.size) == static_cast<ssize_t>(file.size);
  close(fd);
  void* library = written ? dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL) : nullptr;
  if (!library) error = written ? std::string("cannot open region.so: ") + dlerror() : "cannot write region.so";
  unlink(path.c_str());
  return library;
}

int load(const byoc_artifact* artifact, const char* /*directory*/, byoc_module** result, const byoc_tensor** outputs,
         uint64_t* outputCount, char** error) {
  const byoc_file* library = findFile(artifact, "region.so");
  const byoc_file* description = findFile(artifact, "region.txt");
  const byoc_file* constants = findFile(artifact, "constants.bin");
  if (!library || !description || !constants) return fail(error, "the artifact lacks region.so, region.txt or constants.bin");
  auto module = std::make_unique<Module>();
  std::string problem;
  if (!readDescription(std::string(reinterpret_cast<const char*>(description->data), description->size), module->signature, problem))
    return fail(error, problem);
  // constants.bin holds exactly the constants region.txt describes, in order.
  uint64_t offset = 0;
  for (const Shape& shape : module->signature.constantShapes) {
    const uint64_t bytes = static_cast<uint64_t>(shape.elements()) * sizeof(float);
    if (bytes > constants->size - offset) return fail(error, "constants.bin is shorter than region.txt says");
    std::vector<float> values(static_cast<std::size_t>(shape.elements()));
    std::memcpy(values.data(), constants->data + offset, bytes);
    module->constants.push_back(std::move(values));
    offset += bytes;
  }
  if (offset != constants->size) return fail(error, "constants.bin is longer than region.txt says");
  module->library = openLibrary(*library, problem);
  if (!module->library) return fail(error, problem);
  module->run = reinterpret_cast<RunFunction>(dlsym(module->library, kRunSymbol));
  if (!module->run) return fail(error, std::string("region.so has no ") + kRunSymbol);
  for (const Shape& shape : module->signature.outputs)
    module->outputs.push_back({nullptr, {BYOC_DTYPE_FLOAT, 32, 1}, static_cast<int32_t>(shape.dims.size()), shape.dims.data(), nullptr});
  *outputs = module->outputs.data();
  *outputCount = module->outputs.size();
  *result = reinterpret_cast<byoc_module*>(module.release());
  return 0;
}

int run(byoc_module* handle, const byoc_tensor* inputs, uint64_t inputCount, const byoc_tensor* outputs, uint64_t outputCount,
        char** error) {
  auto* module = reinterpret_cast<Module*>(handle);
  const RegionSignature& signature = module->signature;
  if (inputCount != signature.inputs.size() || outputCount != signature.outputs.size())
    return fail(error, "run with " + std::to_string(inputCount) + " inputs and " + std::to_string(outputCount) + " outputs; the region has " +
                           std::to_string(signature.inputs.size()) + " and " + std::to_string(signature.outputs.size()));
  std::vector<const float*> in, constants;
  std::vector<float*> out;
  for (uint64_t i = 0; i < inputCount; ++i) {
    if (!fits(inputs[i], signature.inputs[i])) return fail(error, "input " + std::to_string(i) + " is not the compact float32 tensor the region takes");
    in.push_back(static_cast<const float*>(inputs[i].data));
  }
  for (uint64_t i = 0; i < outputCount; ++i) {
    if (!fits(outputs[i], signature.outputs[i])) return fail(error, "output " + std::to_string(i) + " is not the compact float32 tensor the region returns");
    out.push_back(static_cast<float*>(outputs[i].data));
  }
  for (const std::vector<float>& values : module->constants) constants.push_back(values.data());
  if (module->run(in.data(), out.data(), constants.data()) != 0) return fail(error, "out of memory while running the region");
  return 0;
}

void unload(byoc_module* module) { delete reinterpret_cast<Module*>(module); }

void freeError(char* error) { std::free(error); }

const byoc_codegen_plugin kPlugin = {
    BYOC_CODEGEN_PLUGIN_INTERFACE_VERSION,
    "ccompiler",
    "1.0.0",
    "C source per region, compiled with the system C compiler (TVM's CodegenC)",
    compile,
    freeArtifact,
    load,
    run,
    unload,
    freeError,
};

}  // namespace

extern "C" __attribute__((visibility("default"))) const byoc_codegen_plugin* byoc_get_codegen_plugin(uint32_t hostInterfaceVersion) {
  return hostInterfaceVersion == BYOC_CODEGEN_PLUGIN_INTERFACE_VERSION ? &kPlugin : nullptr;
}
