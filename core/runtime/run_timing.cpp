#include "runtime/run_timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

namespace byoc {

namespace {

std::vector<double> sortedTimes(const std::vector<double>& times) {
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

}  // namespace

double RunTimings::median() const {
  if (runMilliseconds.empty()) return 0;
  return sortedTimes(runMilliseconds)[runMilliseconds.size() / 2];
}

double RunTimings::p90() const {
  if (runMilliseconds.empty()) return 0;
  const std::vector<double> sorted = sortedTimes(runMilliseconds);
  const auto rank = static_cast<std::size_t>(std::ceil(0.9 * static_cast<double>(sorted.size())));
  return sorted[std::min(sorted.size(), std::max<std::size_t>(rank, 1)) - 1];
}

double RunTimings::regionMilliseconds(const RegionInfo& region) const {
  return runs() == 0 ? 0 : region.seconds * 1000 / runs();
}

double RunTimings::hostMilliseconds() const {
  if (runs() == 0) return 0;
  const double mean = std::accumulate(runMilliseconds.begin(), runMilliseconds.end(), 0.0) / runs();
  double offloaded = 0;
  for (const RegionInfo& region : regions) offloaded += regionMilliseconds(region);
  return std::max(0.0, mean - offloaded);
}

Result<RunTimings> timeRuns(Executor& executor, std::span<const Value> args, int runs,
                            const std::function<void(int done)>& afterRun) {
  executor.resetTimings();
  RunTimings timings;
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    Result<Value> result = executor.run(args);
    if (!result) return result.error();
    timings.runMilliseconds.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    if (afterRun) afterRun(i + 1);
  }
  timings.regions = executor.regions();
  return timings;
}

}  // namespace byoc
