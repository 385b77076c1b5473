/// \file
/// Times each pass of a partitioning flow for the built-in `dnnl` target on synthetic chains of
/// conv2d → add → relu blocks (5 nodes each: 3 calls, a weight and a bias), and prints a table
/// (seconds per pass, per chain length). With `--cancel`, measures instead how soon a run stops
/// once asked to: the flow runs on a worker thread, the flag is set at several points spread over
/// an uncancelled run, and the table gives the time from the request to the run returning. With
/// `--fragmented`, the sizes are numbers of nodes of fragmented graphs instead (fragmented.h).
///
///   pass_scaling [--pipeline relay|relax] [--cancel | --fragmented] [SIZES …]
///                                                        (default: 1000 10000 100000)

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "../synthetic_chain.h"
#include "fragmented.h"
#include "pass/infer_type.h"
#include "pass/partition/partition_flow.h"
#include "pass/pass_runner.h"
#include "target/target_library.h"

using namespace byoc;
using byoc::bench::syntheticChain;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

/// Cancel points per chain length, spread evenly over an uncancelled run.
constexpr int kCancelPoints = 8;

/// A typed chain of `blocks` blocks, and the seconds type inference took.
struct Input {
  Module module;
  double inferSeconds = 0;
};

Result<Input> typedChain(int blocks) {
  Module module = syntheticChain(blocks);
  auto start = Clock::now();
  BYOC_ASSIGN_OR_RETURN(Module typed, inferTypes(module));
  return Input{std::move(typed), secondsSince(start)};
}

void printHeader(const char* title, const std::vector<int>& sizes) {
  std::printf("%-24s", title);
  for (int size : sizes) std::printf("%12d", size);
  std::printf("\n%-24s", "nodes");
  for (int size : sizes) std::printf("%12d", 5 * size + 2);
  std::printf("\n");
}

void printRow(const std::string& name, const std::vector<double>& values, int decimals = 3) {
  std::printf("%-24s", name.c_str());
  for (double value : values) std::printf("%12.*f", decimals, value);
  std::printf("\n");
}

/// The table of seconds per pass.
int timePasses(const std::vector<PassPtr>& steps, const std::vector<int>& sizes) {
  std::vector<std::vector<double>> seconds(steps.size() + 2, std::vector<double>(sizes.size()));
  for (std::size_t column = 0; column < sizes.size(); ++column) {
    Result<Input> input = typedChain(sizes[column]);
    if (!input) return std::fprintf(stderr, "%s\n", input.error().str().c_str()), 1;
    seconds[0][column] = input->inferSeconds;
    Result<PassRun> run = runPasses(steps, input->module);
    if (!run) return std::fprintf(stderr, "%s\n", run.error().str().c_str()), 1;
    for (std::size_t row = 0; row < steps.size(); ++row) {
      seconds[row + 1][column] = std::chrono::duration<double>(run->steps[row].elapsed).count();
      seconds.back()[column] += seconds[row + 1][column];
    }
    if (run->steps.back().module.functions().size() < 2) return std::fprintf(stderr, "nothing was offloaded\n"), 1;
  }
  printHeader("pass \\ blocks", sizes);
  for (std::size_t row = 0; row < seconds.size(); ++row) {
    std::string name = row == 0 ? "InferType (input)" : row == seconds.size() - 1 ? "whole pipeline" : steps[row - 1]->info().name;
    printRow(name, seconds[row]);
  }
  return 0;
}

/// Seconds an uncancelled run takes (its modules freed included, as a cancelled run frees them),
/// after a first run that warms the allocator up.
Result<double> runSecondsOf(const std::vector<PassPtr>& steps, const Module& module) {
  BYOC_TRY(runPasses(steps, module).status());
  auto start = Clock::now();
  BYOC_TRY(runPasses(steps, module).status());
  return secondsSince(start);
}

/// How soon one cancelled run returned, and the step it was in.
struct Cancel {
  double seconds = 0;
  std::string step;
};

/// The time from setting the cancel flag `delay` seconds into a run to the run returning, or nothing
/// when the run finished first (a busy machine can make it faster than the run it was timed on).
Result<std::optional<Cancel>> cancelLatency(const std::vector<PassPtr>& steps, const Module& module, double delay) {
  PassRunOptions options;
  auto cancel = std::make_shared<std::atomic<bool>>(false);
  options.cancel = cancel;
  std::atomic<std::size_t> stepsStarted = 0;
  options.progress = [&](const std::string&, int depth) {
    if (depth == 0) ++stepsStarted;
  };
  Result<PassRun> run = makeError("not run");
  Clock::time_point returned;
  std::thread worker([&] {
    run = runPasses(steps, module, options);
    returned = Clock::now();
  });
  std::this_thread::sleep_for(std::chrono::duration<double>(delay));
  const Clock::time_point requested = Clock::now();
  cancel->store(true);
  const std::size_t running = stepsStarted.load();  // the step under way when the flag was set
  worker.join();
  if (run) return std::optional<Cancel>();
  if (!run.error().message.ends_with(": cancelled")) return run.error();
  return std::optional<Cancel>(
      Cancel{std::chrono::duration<double>(returned - requested).count(), running ? steps[running - 1]->info().name : "(none)"});
}

/// The table of cancel latencies: the longest and the median over the cancel points.
int timeCancels(const std::vector<PassPtr>& steps, const std::vector<int>& sizes) {
  std::vector<double> runSeconds, measured, worst, median;
  std::vector<std::string> longestIn;
  for (int size : sizes) {
    Result<Input> input = typedChain(size);
    if (!input) return std::fprintf(stderr, "%s\n", input.error().str().c_str()), 1;
    Result<double> whole = runSecondsOf(steps, input->module);
    if (!whole) return std::fprintf(stderr, "%s\n", whole.error().str().c_str()), 1;
    runSeconds.push_back(*whole);
    std::vector<Cancel> cancels;
    for (int point = 1; point <= kCancelPoints; ++point) {
      Result<std::optional<Cancel>> cancel = cancelLatency(steps, input->module, runSeconds.back() * point / (kCancelPoints + 1));
      if (!cancel) return std::fprintf(stderr, "%s\n", cancel.error().str().c_str()), 1;
      if (*cancel) cancels.push_back(**cancel);
    }
    if (cancels.empty()) return std::fprintf(stderr, "every run of %d blocks finished before its cancel\n", size), 1;
    std::sort(cancels.begin(), cancels.end(), [](const Cancel& a, const Cancel& b) { return a.seconds < b.seconds; });
    worst.push_back(cancels.back().seconds);
    median.push_back(cancels[cancels.size() / 2].seconds);
    measured.push_back(static_cast<double>(cancels.size()));
    longestIn.push_back(cancels.back().step);
  }
  printHeader("cancel \\ blocks", sizes);
  printRow("whole run (s)", runSeconds);
  printRow("cancels measured", measured, 0);
  printRow("cancel, longest (s)", worst);
  printRow("cancel, median (s)", median);
  for (std::size_t column = 0; column < sizes.size(); ++column)
    std::printf("longest cancel at %d blocks: during %s\n", sizes[column], longestIn[column].c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  std::string_view pipelineName = "relay";
  bool cancel = false, fragmented = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--cancel") cancel = true;
    else if (arg == "--fragmented") fragmented = true;
    else if (arg == "--pipeline" && i + 1 < argc) pipelineName = argv[++i];
    else sizes.push_back(std::atoi(argv[i]));
  }
  if (sizes.empty()) sizes = {1000, 10000, 100000};

  Result<PartitionPipeline> pipeline = parsePartitionPipeline(pipelineName);
  if (!pipeline) return std::fprintf(stderr, "%s\n", pipeline.error().str().c_str()), 1;
  if (fragmented) return byoc::bench::timeFragmented(*pipeline, sizes);
  Result<Target> dnnl = loadTarget("dnnl");
  if (!dnnl) return std::fprintf(stderr, "%s\n", dnnl.error().str().c_str()), 1;
  auto steps = partitionSteps({std::make_shared<const Target>(*dnnl)}, *pipeline);
  if (!steps) return std::fprintf(stderr, "%s\n", steps.error().str().c_str()), 1;
  return cancel ? timeCancels(*steps, sizes) : timePasses(*steps, sizes);
}
