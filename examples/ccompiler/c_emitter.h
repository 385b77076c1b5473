#pragma once
// Turns a region's kernel graph (the JSON the host hands to `compile`) into one self-contained C
// file: one function per kernel, written as plain loops over the shapes the graph fixes, and an
// entry point `byoc_region_run(inputs, outputs, constants)` that calls them in order.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ccompiler {

/// A tensor of the region: float32 with this shape.
struct Shape {
  std::vector<int64_t> dims;
  int64_t elements() const;
};

/// What the C file needs from outside and produces, in the order `byoc_region_run` takes them.
struct RegionSignature {
  std::vector<Shape> inputs;
  std::vector<std::string> constants;  ///< keys of the constants, in the order of `constants[]`
  std::vector<Shape> constantShapes;
  std::vector<Shape> outputs;
};

/// The C source of the region `graph`, or an error message (an op or dtype it does not handle,
/// a malformed graph). Fills `signature`.
bool emitRegion(const nlohmann::json& graph, std::string& source, RegionSignature& signature, std::string& error);

}  // namespace ccompiler
