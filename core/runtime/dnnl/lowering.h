#pragma once
/// \file
/// The state of compiling one region to oneDNN: engine, stream, the ordered primitive list,
/// and the memory of every tensor value with the format its producer chose.
///
/// Values inside a region keep whatever (blocked) format their producing primitive picked;
/// `as` inserts a reorder only where a consumer needs another format. Reorders of constants
/// run once, at compile time. Region inputs are plain memories whose data handles are bound
/// at each run; `view` reinterprets a plain tensor under other dims (grouped weights, 2-d
/// dense input) and keeps such views bound too.
///
/// Intermediates get buffers of their own while the region is built; `planMemory` then moves
/// them into one arena where buffers whose lifetimes do not overlap share memory, so a deep
/// network's activations stay few and warm in the caches.

#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <dnnl.hpp>

#include "ir/attrs.h"
#include "ir/type.h"
#include "kernel_graph/kernel_graph.h"
#include "support/result.h"

namespace byoc::dnnl_backend {

/// A tensor value of the region.
struct Tensor {
  dnnl::memory memory;
  /// Index of the region input this memory views, or -1.
  int input = -1;
  /// True when the data is known at compile time (weights).
  bool constant = false;
  /// True when the memory reinterprets another tensor's buffer (which others may still read).
  bool view = false;
  /// True when runs rely on data written at load (a pad's border): never overwritten in place.
  bool preset = false;

  /// The memory's descriptor (dims and format).
  dnnl::memory::desc desc() const { return memory.get_desc(); }
};

/// What the lowering of one kernel reads: its name (an op or a composite), its attributes, and the
/// types of its inputs (a composite's in role order) and of its outputs (tuples flattened).
struct Kernel {
  std::string name;
  Attrs attrs;
  std::vector<kernel_graph::TensorSpec> inputs;
  std::vector<kernel_graph::TensorSpec> outputs;
};

/// One primitive to execute with its arguments, or a loop of BYOC Studio's own (`host`) on the
/// memories its arguments name.
struct Step {
  dnnl::primitive primitive;
  std::unordered_map<int, dnnl::memory> args;  ///< DNNL_ARG_* → memory
  /// What the step is part of (`nn.conv2d`, `region input %x`, `output 0`), for errors.
  std::string part;
  /// Set instead of `primitive` for a host step; it reads the arguments' data handles when it runs.
  std::function<void()> host;

  /// Runs the step on `stream`. On the CPU engine with OpenMP, oneDNN runs a primitive before
  /// execute returns, so a host step after it reads what it wrote.
  void execute(dnnl::stream& stream) {
    if (host)
      host();
    else
      primitive.execute(stream, args);
  }
};

/// Plain row-major descriptor of `dims` (a scalar becomes {1}), f32 unless `type` says otherwise.
dnnl::memory::desc plainDesc(const dnnl::memory::dims& dims,
                             dnnl::memory::data_type type = dnnl::memory::data_type::f32);
/// `desc` holding elements of `type` in the same layout when it is a dense blocked one (no offset,
/// no gaps, no extra flags as packed weights have), else plain `type` of its dims: a quantize or
/// dequantize keeps the format the tensor arrived in.
dnnl::memory::desc retypedDesc(const dnnl::memory::desc& desc, dnnl::memory::data_type type);
/// oneDNN's data type of `dtype`: f32, s8, u8 or s32; nothing for the dtypes regions do not hold.
std::optional<dnnl::memory::data_type> dataTypeOf(DType dtype);
/// The dims of an IR shape (a scalar becomes {1}).
dnnl::memory::dims dimsOf(const Shape& shape);

/// The primitives of a region under construction.
class Lowering {
 public:
  /// A lowering for a region with `inputCount` (flattened) inputs.
  explicit Lowering(int inputCount);

  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  /// The primitives in execution order.
  std::vector<Step> steps;
  /// Every memory that views region input i (their handles are set at each run).
  std::vector<std::vector<dnnl::memory>> inputViews;
  /// Memories that views point into, kept alive as long as the region.
  std::vector<dnnl::memory> keepAlive;
  /// What the primitives added now are part of; each step records it (Step::part).
  std::string part;

  /// A fresh region input of plain `dims` (f32 unless `type` says otherwise).
  Tensor input(int index, const dnnl::memory::dims& dims, dnnl::memory::data_type type = dnnl::memory::data_type::f32);
  /// A constant copied from `data` (elements of plain `dims`, f32 unless `type` says otherwise).
  Tensor constant(const void* data, const dnnl::memory::dims& dims,
                  dnnl::memory::data_type type = dnnl::memory::data_type::f32);
  /// Memory of `tensor` in `desc`: itself, or a reorder into new memory (run now for constants).
  Tensor as(const Tensor& tensor, const dnnl::memory::desc& desc);
  /// `tensor` in plain layout (its data type kept).
  Tensor plain(const Tensor& tensor);
  /// The plain `tensor` reinterpreted as `desc` (same element count).
  Tensor view(const Tensor& tensor, const dnnl::memory::desc& desc);
  /// A new intermediate memory of `desc`.
  Tensor fresh(const dnnl::memory::desc& desc);
  /// A new memory of `desc` whose contents are written now, at load, and must survive every run
  /// (a pad's border): it keeps a buffer of its own.
  Tensor preset(const dnnl::memory::desc& desc);
  /// Appends a primitive.
  void add(dnnl::primitive primitive, std::unordered_map<int, dnnl::memory> args);
  /// Appends a host step using the memories of `args` (which the memory plan keeps alive for it).
  void addHost(std::function<void()> host, std::unordered_map<int, dnnl::memory> args);
  /// Moves every intermediate buffer the steps use into one arena, giving buffers whose
  /// lifetimes (first to last step that uses them) overlap disjoint places. Call once, after the
  /// last `add`; the region's inputs and outputs, constants and preset buffers keep their own.
  Status planMemory();
  /// Bytes of the arena (0 before `planMemory`).
  std::size_t arenaBytes() const { return arenaBytes_; }

 private:
  /// Buffers that never move into the arena: constants and preset memories.
  std::unordered_set<const void*> pinned_;
  std::unique_ptr<void, decltype(&std::free)> arena_{nullptr, &std::free};
  std::size_t arenaBytes_ = 0;
};

}  // namespace byoc::dnnl_backend
