/* A toy codegen plugin for the tests, written in C against include/byoc/codegen_plugin.h alone.
   Built several times with one defect each (the BAD_* macros) to check that the programs report
   every kind of broken plugin as an error and go on:

     BAD_NO_ENTRY  exports no entry point          BAD_VERSION  reports interface version BAD_VERSION
     BAD_SHAPE     describes an output of the wrong shape
     BAD_RUN       returns an error from run
     CHATTY        prints a line on stdout and one on stderr while compiling

   or with MISBEHAVE_IN set to one of the TOY_IN_* places and MISBEHAVE_HOW to one of the TOY_*
   ways, to take down the process that runs it there: a segmentation fault, an abort, a hang, or
   exit(0), after printing two lines to stderr.

   Without a defect it compiles any region in the format of its interface version with one
   float32 [1, 8] output into a one-file artifact and runs it as relu of its first input. TOY_VERSION sets the version it reports. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "byoc/codegen_plugin.h"

#ifndef TOY_VERSION
#define TOY_VERSION "1"
#endif

enum { TOY_IN_CONSTRUCTOR = 1, TOY_IN_ENTRY, TOY_IN_COMPILE, TOY_IN_LOAD, TOY_IN_RUN, TOY_IN_UNLOAD };
enum { TOY_SEGV = 1, TOY_ABORT, TOY_HANG, TOY_EXIT };

static void misbehave(int place) {
#ifdef MISBEHAVE_IN
  if (place != MISBEHAVE_IN) return;
  fprintf(stderr, "toy: about to misbehave\ntoy: misbehaving in place %d\n", place);
  fflush(stderr);
  switch (MISBEHAVE_HOW) {
    case TOY_SEGV: raise(SIGSEGV); break;
    case TOY_ABORT: abort();
    case TOY_HANG:
      for (;;) pause();
    case TOY_EXIT: exit(0);
  }
#else
  (void)place;
#endif
}

__attribute__((constructor)) static void toy_constructor(void) { misbehave(TOY_IN_CONSTRUCTOR); }

static char* copy_message(const char* text) {
  char* copy = (char*)malloc(strlen(text) + 1);
  if (copy) strcpy(copy, text);
  return copy;
}

static const char toy_text[] = "relu";
static const byoc_file toy_files[1] = {{"toy.txt", (const uint8_t*)toy_text, sizeof toy_text - 1}};

/* Whether the region names the format this interface version receives. */
static int toy_reads_format(const char* region_json, uint64_t size) {
  static const char format[] = "\"format\": \"" BYOC_CODEGEN_PLUGIN_REGION_FORMAT "\"";
  const uint64_t length = sizeof format - 1;
  for (uint64_t i = 0; i + length <= size; ++i)
    if (memcmp(region_json + i, format, length) == 0) return 1;
  return 0;
}

static int toy_compile(const char* region_json, uint64_t size, const byoc_constant* constants, uint64_t constant_count,
                       byoc_artifact* artifact, char** error) {
  (void)constants, (void)constant_count;
  misbehave(TOY_IN_COMPILE);
  if (!toy_reads_format(region_json, size)) {
    *error = copy_message("toy: the region is not a " BYOC_CODEGEN_PLUGIN_REGION_FORMAT);
    return 1;
  }
#ifdef CHATTY
  printf("toy: compiling on stdout\n");
  fflush(stdout);
  fprintf(stderr, "toy: compiling on stderr\n");
#endif
  artifact->files = toy_files;
  artifact->count = 1;
  return 0;
}

static void toy_free_artifact(byoc_artifact* artifact) { (void)artifact; }

#ifdef BAD_SHAPE
static const int64_t toy_shape[2] = {1, 4};
#else
static const int64_t toy_shape[2] = {1, 8};
#endif
static const byoc_tensor toy_output = {NULL, {BYOC_DTYPE_FLOAT, 32, 1}, 2, toy_shape, NULL};
static int toy_module;

static int toy_load(const byoc_artifact* artifact, const char* directory, byoc_module** module, const byoc_tensor** outputs,
                    uint64_t* output_count, char** error) {
  (void)directory;
  misbehave(TOY_IN_LOAD);
  if (artifact->count != 1 || strcmp(artifact->files[0].name, "toy.txt") != 0) {
    *error = copy_message("toy: the artifact is not toy.txt");
    return 1;
  }
  *module = (byoc_module*)&toy_module;
  *outputs = &toy_output;
  *output_count = 1;
  return 0;
}

static int toy_run(byoc_module* module, const byoc_tensor* inputs, uint64_t input_count, const byoc_tensor* outputs,
                   uint64_t output_count, char** error) {
  (void)module;
  misbehave(TOY_IN_RUN);
#ifdef BAD_RUN
  (void)inputs, (void)input_count, (void)outputs, (void)output_count;
  *error = copy_message("toy: the device is on fire");
  return 1;
#else
  if (input_count < 1 || output_count != 1) {
    *error = copy_message("toy: expected an input and one output");
    return 1;
  }
  const float* in = (const float*)inputs[0].data;
  float* out = (float*)outputs[0].data;
  for (int i = 0; i < 8; ++i) out[i] = in[i] > 0 ? in[i] : 0;
  return 0;
#endif
}

static void toy_unload(byoc_module* module) {
  (void)module;
  misbehave(TOY_IN_UNLOAD);
}

static void toy_free_error(char* error) { free(error); }

static const byoc_codegen_plugin toy_plugin = {
#ifdef BAD_VERSION
    BAD_VERSION,
#else
    BYOC_CODEGEN_PLUGIN_INTERFACE_VERSION,
#endif
    "toy", TOY_VERSION, "relu of a [1, 8] tensor, for the tests",
    toy_compile, toy_free_artifact, toy_load, toy_run, toy_unload, toy_free_error,
};

#ifndef BAD_NO_ENTRY
__attribute__((visibility("default"))) const byoc_codegen_plugin* byoc_get_codegen_plugin(uint32_t host_interface_version) {
  (void)host_interface_version;
  misbehave(TOY_IN_ENTRY);
  return &toy_plugin;
}
#else
__attribute__((visibility("default"))) int toy_is_not_a_plugin(void) { return toy_plugin.interface_version; }
#endif
