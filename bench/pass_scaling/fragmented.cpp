#include "fragmented.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "../synthetic_chain.h"
#include "pass/infer_type.h"
#include "pass/pass_runner.h"
#include "target/target.h"

namespace byoc::bench {

namespace {

/// A target that supports `add`, `multiply` and `subtract`: as op rules for the relay flow, as
/// single-op patterns for the relax flow (which partitions by patterns only).
Result<std::shared_ptr<const Target>> youngTarget(PartitionPipeline pipeline) {
  const std::string json =
      pipeline == PartitionPipeline::Relay
          ? R"json({"format": "byoc-studio-target", "version": 1, "name": "young", "codegen": "",
               "op_rules": ["add, multiply, subtract"]})json"
          : R"json({"format": "byoc-studio-target", "version": 1, "name": "young", "codegen": "",
               "patterns": [{"name": "young.add", "pattern": "add(*, *)"},
                            {"name": "young.multiply", "pattern": "multiply(*, *)"},
                            {"name": "young.subtract", "pattern": "subtract(*, *)"}]})json";
  BYOC_ASSIGN_OR_RETURN(Target target, parseTarget(json, "young.json"));
  return std::make_shared<const Target>(std::move(target));
}

struct Shape {
  int nodes;
  int percent;
  Unsupported placement;
  Wiring wiring;
};

/// What one run measured: seconds per step, then the number of functions of the result.
struct Measured {
  std::vector<double> seconds;
  double functions = 0;
  long peakKiB = 0;
  bool ok = false;
};

/// Runs the flow on one graph in a child process, so that its peak memory is its own.
Measured measure(const std::vector<PassPtr>& steps, const Shape& shape) {
  int pipe[2];
  if (::pipe(pipe) != 0) return {};
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(pipe[0]);
    std::vector<double> out(steps.size() + 1, -1);
    Result<Module> typed = inferTypes(fragmentedGraph(shape.nodes, shape.percent, shape.placement, shape.wiring));
    Result<PassRun> run = typed ? runPasses(steps, *typed) : Result<PassRun>(typed.error());
    if (run) {
      for (std::size_t k = 0; k < steps.size(); ++k) out[k] = std::chrono::duration<double>(run->steps[k].elapsed).count();
      out.back() = static_cast<double>(run->steps.back().module.functions().size());
    } else {
      std::fprintf(stderr, "%s\n", run.error().str().c_str());
    }
    const ssize_t written = ::write(pipe[1], out.data(), out.size() * sizeof(double));
    ::_exit(written == static_cast<ssize_t>(out.size() * sizeof(double)) && run ? 0 : 1);
  }
  ::close(pipe[1]);
  Measured measured;
  std::vector<double> in(steps.size() + 1);
  const ssize_t got = ::read(pipe[0], in.data(), in.size() * sizeof(double));
  ::close(pipe[0]);
  int status = 0;
  rusage usage{};
  ::wait4(child, &status, 0, &usage);
  measured.ok = got == static_cast<ssize_t>(in.size() * sizeof(double)) && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  measured.seconds.assign(in.begin(), in.end() - 1);
  measured.functions = in.back();
  measured.peakKiB = usage.ru_maxrss;
  return measured;
}

const char* nameOf(Unsupported placement) { return placement == Unsupported::Interleaved ? "spread" : "runs"; }
const char* nameOf(Wiring wiring) { return wiring == Wiring::SkipConnections ? "skip" : "diamond"; }

}  // namespace

int timeFragmented(PartitionPipeline pipeline, const std::vector<int>& sizes) {
  Result<std::shared_ptr<const Target>> target = youngTarget(pipeline);
  if (!target) return std::fprintf(stderr, "%s\n", target.error().str().c_str()), 1;
  Result<std::vector<PassPtr>> steps = partitionSteps({*target}, pipeline);
  if (!steps) return std::fprintf(stderr, "%s\n", steps.error().str().c_str()), 1;

  std::printf("%8s %5s %7s %8s %9s", "nodes", "unsup", "where", "wiring", "functions");
  for (const PassPtr& step : *steps) std::printf(" %*s", std::max<int>(9, static_cast<int>(step->info().name.size())), step->info().name.c_str());
  std::printf(" %8s %8s\n", "whole s", "peak MB");
  for (int nodes : sizes) {
    std::vector<Shape> shapes{{nodes, 0, Unsupported::Interleaved, Wiring::SkipConnections}};
    for (int percent : {1, 10, 50})
      for (Shape shape : {Shape{nodes, percent, Unsupported::Interleaved, Wiring::SkipConnections},
                          Shape{nodes, percent, Unsupported::InRuns, Wiring::SkipConnections},
                          Shape{nodes, percent, Unsupported::Interleaved, Wiring::Diamonds}})
        shapes.push_back(shape);
    for (const Shape& shape : shapes) {
      const Measured measured = measure(*steps, shape);
      if (!measured.ok) return std::fprintf(stderr, "the run on %d nodes failed\n", nodes), 1;
      std::printf("%8d %4d%% %7s %8s %9.0f", shape.nodes, shape.percent, nameOf(shape.placement), nameOf(shape.wiring),
                  measured.functions);
      double whole = 0;
      for (std::size_t k = 0; k < steps->size(); ++k) {
        std::printf(" %*.3f", std::max<int>(9, static_cast<int>((*steps)[k]->info().name.size())), measured.seconds[k]);
        whole += measured.seconds[k];
      }
      std::printf(" %8.3f %8.0f\n", whole, measured.peakKiB / 1024.0);
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace byoc::bench
