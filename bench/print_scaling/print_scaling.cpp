/// \file
/// Times printing synthetic chains of conv2d → add → relu blocks as the IR text panel does (no
/// metadata), plain and with the range of every node, and prints a table (seconds, the best of
/// three runs, per chain length).
///
///   print_scaling [BLOCKS …]      (default: 100 33334, a ResNet-sized model and 100,000 calls)

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "../synthetic_chain.h"
#include "pass/infer_type.h"
#include "text/printer.h"

using namespace byoc;

namespace {

/// The best of three runs of `work`, in seconds.
double bestOfThree(const std::function<std::size_t()>& work) {
  double best = 1e9;
  for (int run = 0; run < 3; ++run) {
    auto start = std::chrono::steady_clock::now();
    if (work() == 0) std::abort();  // keeps the work from being optimised away
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {100, 33334};

  PrintOptions options;
  options.showMetadata = false;
  std::printf("%-24s", "print \\ blocks");
  for (int size : sizes) std::printf("%12d", size);
  std::printf("\n");
  std::vector<double> plain, ranged;
  for (int size : sizes) {
    Result<Module> typed = inferTypes(bench::syntheticChain(size));
    if (!typed) return std::fprintf(stderr, "%s\n", typed.error().str().c_str()), 1;
    plain.push_back(bestOfThree([&] { return printModule(*typed, options).size(); }));
    ranged.push_back(bestOfThree([&] { return printModuleWithRanges(*typed, options).nodes.size(); }));
  }
  std::printf("%-24s", "text");
  for (double value : plain) std::printf("%12.4f", value);
  std::printf("\n%-24s", "text and node ranges");
  for (double value : ranged) std::printf("%12.4f", value);
  std::printf("\n");
  return 0;
}
