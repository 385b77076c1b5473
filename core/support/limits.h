#pragma once
/// \file
/// The limits every reader of user input checks, in one place, and the checked arithmetic that
/// keeps sizes named by an input from overflowing.
///
/// Inputs are hostile: a rank, an element count, a nesting depth or a file size read from a model,
/// a target, a pattern or an export is checked against these before anything is allocated or
/// walked recursively. Errors name the limit so the user knows what was exceeded.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace byoc::limits {

/// Most dimensions of one tensor (oneDNN takes 12; ONNX models use at most 8).
inline constexpr int64_t kMaxRank = 32;
/// Most elements of one tensor: 2^32, 16 GiB of float32.
inline constexpr int64_t kMaxElements = int64_t{1} << 32;
/// Deepest nesting of brackets, expressions, types, attribute lists, patterns and rules that any
/// parser accepts; the recursive parts of the readers stay far below the stack's size with it.
inline constexpr int kMaxNestingDepth = 500;
/// Most outputs one op may produce from a count in its attributes (split sections, indices).
inline constexpr int64_t kMaxOpOutputs = int64_t{1} << 16;
/// Largest file read into memory whole (ONNX files stop at 2 GiB; external data is read in ranges).
inline constexpr int64_t kMaxFileBytes = int64_t{4} << 30;
/// Largest tensor the importer or FoldConstant builds from smaller ones (ConstantOfShape, two
/// constants broadcast together): a few bytes of a model must not ask for gigabytes of memory
/// before anything runs. Such a value is left to be computed when the model runs.
inline constexpr int64_t kMaxFoldedBytes = int64_t{1} << 30;
/// Most bytes the runtime's tensors (inputs, constants, intermediates and results) hold at once
/// in one process. Sizes a model computes while it runs (a shape read from a tensor, a loop that
/// doubles a tensor) stop with an error here instead of taking the machine's memory: Linux grants
/// by default an allocation its memory cannot back, and ends the process once it is used.
inline constexpr int64_t kMaxLiveTensorBytes = int64_t{8} << 30;
/// Most iterations of loops (functions calling themselves, as imported ONNX Loops and Scans do)
/// in one run, all loops together: a loop whose condition never turns false, or loops nested so
/// that their iterations multiply, stop with an error instead of running for ever. Nothing is sized by a trip count, so a large one (PyTorch writes INT64_MAX for a
/// `while`) is only a bound the condition may end earlier.
inline constexpr int64_t kMaxLoopIterations = 1'000'000;
/// Most node conversions of one ONNX import. A loop body is imported again when a loop variable
/// turns out to change shape, and loops nested in loops multiply that; this bounds the work a
/// small hostile model can ask for (the zoo's largest model converts 3,460 nodes).
inline constexpr int64_t kMaxConvertedNodes = int64_t{1} << 20;
/// Most worker threads a command may ask for.
inline constexpr int kMaxThreads = 1024;
/// Most bilinear samples vision.roi_align takes for one output element (its adaptive sampling grid
/// grows with the region, which the data gives).
inline constexpr int64_t kMaxRoiSamples = int64_t{1} << 16;
/// Most files of one codegen plugin artifact.
inline constexpr int64_t kMaxPluginArtifactFiles = 64;
/// Largest codegen plugin artifact (all its files together).
inline constexpr int64_t kMaxPluginArtifactBytes = int64_t{2} << 30;
/// Longest name, version or file name a codegen plugin reports.
inline constexpr std::size_t kMaxPluginNameBytes = 128;
/// Longest error message of a codegen plugin that is shown (the rest is cut).
inline constexpr std::size_t kMaxPluginMessageBytes = 2000;

/// One level of a recursive-descent parser's nesting, counted in the parser's `depth` while it
/// lives. The parsers recurse once per written level, so each refuses input past
/// `kMaxNestingDepth` (with an error in its own words) before the stack can run out.
class NestingLevel {
 public:
  explicit NestingLevel(int& depth) : depth_(depth) { ++depth_; }
  ~NestingLevel() { --depth_; }
  NestingLevel(const NestingLevel&) = delete;
  NestingLevel& operator=(const NestingLevel&) = delete;

  bool tooDeep() const { return depth_ > kMaxNestingDepth; }

 private:
  int& depth_;
};

/// `a * b`, or nullopt on overflow of int64_t.
std::optional<int64_t> checkedMul(int64_t a, int64_t b);
/// `a + b`, or nullopt on overflow of int64_t.
std::optional<int64_t> checkedAdd(int64_t a, int64_t b);

/// The number of elements of a tensor with dimensions `dims`, or nullopt when a dimension is
/// negative or the count exceeds `kMaxElements`.
std::optional<int64_t> elementCount(std::span<const int64_t> dims);

/// Why a tensor of dimensions `dims` is not allowed (rank, negative dimension, element count),
/// or "" when it is. The message names the limit and the offending value.
std::string shapeProblem(std::span<const int64_t> dims);

/// `shapeProblem` for the shape of a tensor type, where -1 marks a dimension unknown until run
/// time: such dimensions are allowed and count as 1 towards the element limit.
std::string typeShapeProblem(std::span<const int64_t> dims);

/// The deepest nesting of `[` and `{` in JSON `text`, outside strings; used before handing text to
/// readers that walk the parsed tree recursively.
int jsonNestingDepth(std::string_view text);

}  // namespace byoc::limits
