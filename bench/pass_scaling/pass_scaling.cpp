/// \file
/// Times each pass of the relay partitioning flow for the built-in `dnnl` target on synthetic
/// chains of conv2d → add → relu blocks, and prints a table (seconds per pass, per chain length).
///
///   pass_scaling [BLOCKS …]      (default: 1000 10000 100000)

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../synthetic_chain.h"
#include "pass/infer_type.h"
#include "pass/partition/partition_flow.h"
#include "target/target_library.h"

using namespace byoc;
using byoc::bench::syntheticChain;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {1000, 10000, 100000};

  Result<Target> dnnl = loadTarget("dnnl");
  if (!dnnl) return std::fprintf(stderr, "%s\n", dnnl.error().str().c_str()), 1;
  auto steps = partitionSteps({std::make_shared<const Target>(*dnnl)}, PartitionPipeline::Relay);
  if (!steps) return std::fprintf(stderr, "%s\n", steps.error().str().c_str()), 1;

  std::printf("%-24s", "pass \\ blocks");
  for (int size : sizes) std::printf("%12d", size);
  std::printf("\n");
  std::vector<std::vector<double>> seconds(steps->size() + 2, std::vector<double>(sizes.size()));
  for (std::size_t column = 0; column < sizes.size(); ++column) {
    Module module = syntheticChain(sizes[column]);
    auto start = std::chrono::steady_clock::now();
    Result<Module> typed = inferTypes(module);
    if (!typed) return std::fprintf(stderr, "%s\n", typed.error().str().c_str()), 1;
    seconds[0][column] = secondsSince(start);
    Module current = *typed;
    PassContext context;
    double total = 0;
    for (std::size_t row = 0; row < steps->size(); ++row) {
      auto passStart = std::chrono::steady_clock::now();
      Result<PassResult> result = (*steps)[row]->run(current, context);
      if (!result) return std::fprintf(stderr, "%s\n", result.error().str().c_str()), 1;
      current = std::move(result->module);
      seconds[row + 1][column] = secondsSince(passStart);
      total += seconds[row + 1][column];
    }
    seconds.back()[column] = total;
    if (current.functions().size() < 2) return std::fprintf(stderr, "nothing was offloaded\n"), 1;
  }
  for (std::size_t row = 0; row < seconds.size(); ++row) {
    std::string name = row == 0 ? "InferType (input)" : row == seconds.size() - 1 ? "whole pipeline" : (*steps)[row - 1]->info().name;
    std::printf("%-24s", name.c_str());
    for (double value : seconds[row]) std::printf("%12.3f", value);
    std::printf("\n");
  }
  return 0;
}
