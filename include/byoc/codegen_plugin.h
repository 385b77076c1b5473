/*
 * BYOC Studio codegen plugin interface, version 2.
 *
 * A codegen plugin is a shared library that exports one C function,
 *
 *     const byoc_codegen_plugin* byoc_get_codegen_plugin(uint32_t host_interface_version);
 *
 * returning a table of functions that compile a region into artifact files, load those files and
 * run the loaded region on tensors. Only C types cross this interface; a plugin may be written in
 * any language that can export a C function. docs/plugins.md walks through writing one against
 * examples/ccompiler.
 *
 * Ownership
 *   - Everything the host passes (region JSON, constants, tensors, artifact files, directory) is
 *     owned by the host and valid only for the duration of the call. Copy what you keep.
 *   - The table returned by the entry point, and its strings, are owned by the plugin and must stay
 *     valid until the library is unloaded (in practice: static data).
 *   - An artifact filled by `compile` is owned by the plugin until the host passes it to
 *     `free_artifact`.
 *   - An error message stored in `*error` is allocated by the plugin and released by the host with
 *     `free_error`. Set `*error` only when returning non-zero.
 *   - A module created by `load` is owned by the plugin until the host passes it to `unload`; the
 *     output descriptions `load` fills stay valid until then.
 *
 * Processes and threading
 *   - The library is opened only in child processes of the program (`byoc-plugin-host`), never in
 *     the program itself: one to learn the table's name and version, one per region compiled, and
 *     one per region loaded, which serves its `load`, `run`s and `unload`. A plugin that crashes,
 *     exits or stalls past the time limit is reported, not fatal (docs/plugins.md). `compile` may
 *     use files and processes.
 *   - `load`, `run` and `unload` of a module are called in order from one thread of its process.
 *
 * Versions
 *   1  the region was the dnnl codegen's own graph, format "byoc-dnnl-kernel-graph".
 *   2  the region is the neutral kernel graph every codegen receives, format "byoc-kernel-graph";
 *      its fields are those of version 1. docs/plugins.md says how to move a plugin to version 2.
 *
 * Return values: 0 for success, anything else for failure (with `*error` set to a message of one
 * line saying what went wrong).
 */
#ifndef BYOC_CODEGEN_PLUGIN_H
#define BYOC_CODEGEN_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The interface version this header describes; a host loads only plugins that report it. */
#define BYOC_CODEGEN_PLUGIN_INTERFACE_VERSION 2u
/* The `format` field of the region a `compile` of this version receives. */
#define BYOC_CODEGEN_PLUGIN_REGION_FORMAT "byoc-kernel-graph"
/* The name of the one symbol a plugin exports. */
#define BYOC_CODEGEN_PLUGIN_ENTRY "byoc_get_codegen_plugin"

/* Element type codes, as DLPack numbers them. */
enum byoc_dtype_code { BYOC_DTYPE_INT = 0, BYOC_DTYPE_UINT = 1, BYOC_DTYPE_FLOAT = 2, BYOC_DTYPE_BOOL = 6 };

/* An element type: code, bits per lane, lanes (always 1). float32 is {BYOC_DTYPE_FLOAT, 32, 1}. */
typedef struct byoc_dtype {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} byoc_dtype;

/* A tensor, laid out as DLPack's DLTensor on the CPU. */
typedef struct byoc_tensor {
  void* data;             /* first element; NULL in output descriptions */
  byoc_dtype dtype;
  int32_t ndim;
  const int64_t* shape;   /* ndim dimensions, outermost first */
  const int64_t* strides; /* ndim strides in elements, or NULL for compact row-major */
} byoc_tensor;

/* A constant the region reads, under the key the region JSON refers to it by. */
typedef struct byoc_constant {
  const char* name;
  byoc_tensor tensor;
} byoc_constant;

/* One file of an artifact. `name` is a plain file name: letters, digits, '.', '_', '-', not
   starting with '.'; no directories. */
typedef struct byoc_file {
  const char* name;
  const uint8_t* data;
  uint64_t size;
} byoc_file;

/* A compiled region: the files an export keeps and `load` reads back. */
typedef struct byoc_artifact {
  const byoc_file* files;
  uint64_t count;
} byoc_artifact;

/* A loaded region, opaque to the host. */
typedef struct byoc_module byoc_module;

typedef struct byoc_codegen_plugin {
  /* BYOC_CODEGEN_PLUGIN_INTERFACE_VERSION of the header the plugin was built with. */
  uint32_t interface_version;
  /* The codegen's name: letters, digits, '_' and '-'. Targets name it as "plugin:<name>". */
  const char* name;
  /* The plugin's version; an export made with one version does not load with another. */
  const char* version;
  /* One line for `byoc plugins`. */
  const char* summary;

  /* Compiles one region. `region_json` (not NUL-terminated, `region_json_size` bytes) is the
     region's kernel graph (format BYOC_CODEGEN_PLUGIN_REGION_FORMAT, docs/export-format.md): its inputs in
     parameter order, its constants (by key, the values in `constants`), its kernels in execution
     order with attributes and output types, and its heads. Fills `artifact`. */
  int (*compile)(const char* region_json, uint64_t region_json_size, const byoc_constant* constants,
                 uint64_t constant_count, byoc_artifact* artifact, char** error);
  /* Releases what `compile` put in `artifact`. */
  void (*free_artifact)(byoc_artifact* artifact);

  /* Loads an artifact `compile` produced. The files are given in memory and also lie, under their
     names, in `directory`, which stays in place until `unload`. Fills `*module` and the
     description of the region's outputs (`*outputs`, `*output_count`: dtype and shape, data NULL),
     which the host checks against the region's type before the first run. */
  int (*load)(const byoc_artifact* artifact, const char* directory, byoc_module** module,
              const byoc_tensor** outputs, uint64_t* output_count, char** error);
  /* Runs the region: inputs in parameter order, outputs preallocated by the host in the order of
     the region's heads (tuples flattened). */
  int (*run)(byoc_module* module, const byoc_tensor* inputs, uint64_t input_count, const byoc_tensor* outputs,
             uint64_t output_count, char** error);
  /* Releases a module. */
  void (*unload)(byoc_module* module);

  /* Releases an error message. */
  void (*free_error)(char* error);
} byoc_codegen_plugin;

/* The type of the entry point. The host passes the interface version it implements; the plugin
   returns its table (whose `interface_version` the host checks before using anything else), or
   NULL when it cannot serve that version. Either way the host reports an incompatible plugin and
   goes on without it. */
typedef const byoc_codegen_plugin* (*byoc_codegen_plugin_entry)(uint32_t host_interface_version);

#ifdef __cplusplus
}
#endif

#endif /* BYOC_CODEGEN_PLUGIN_H */
