/// \file
/// Folding of integer shape arithmetic at import. Exporters compute reshape targets from `Shape`
/// through Gather, Unsqueeze, Concat, arithmetic and Cast; once `Shape` is a constant, these
/// nodes have only constant integer inputs and are evaluated here, so that Reshape, Slice, Pad
/// and friends receive constant shapes. A folder returns no outputs when it does not apply (an
/// input is not an integer constant, or the op form is not one it evaluates), and the ordinary
/// converter then builds the op.
///
/// `Shape` of a tensor with unknown dimensions is a run-time `shape_of` whose elements are partly
/// known (OnnxValue::partial). Folding carries that knowledge: a result whose elements are all
/// known is a constant; one with an element known only at run time is the op the ordinary
/// converter builds, with its known elements attached.

#include <algorithm>
#include <cstring>
#include <limits>
#include <span>

#include "frontend/onnx/onnx_converters.h"
#include "frontend/onnx/onnx_tensor.h"
#include "support/limits.h"

namespace byoc::onnx_import {

namespace {

/// Integer constants are folded up to this many elements; larger ones stay ops.
constexpr int64_t kMaxFoldedElements = 1 << 16;

/// One element of an integer tensor being folded: its value, or nothing when it is known only at run time.
using Element = std::optional<int64_t>;

/// An integer tensor being folded.
struct IntArray {
  Shape shape;
  std::vector<Element> values;
};

std::vector<Element> known(const std::vector<int64_t>& values) { return {values.begin(), values.end()}; }

int64_t count(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

/// All listed inputs as integer arrays, or nothing if one is absent, not integer, or neither
/// constant nor partly known.
std::optional<std::vector<IntArray>> intInputs(const OnnxNodeContext& c) {
  std::vector<IntArray> arrays;
  for (std::size_t i = 0; i < c.inputCount(); ++i) {
    if (!c.hasInput(i)) return std::nullopt;
    OnnxValue input = *c.input(i);
    if (input.partial) {
      arrays.push_back({input.shape(), *input.partial});
      continue;
    }
    const TensorData* data = input.constant();
    if (!data || isFloat(data->dtype()) || data->numElements() > kMaxFoldedElements) return std::nullopt;
    arrays.push_back({data->shape(), known(tensorToInts(*data))});
  }
  return arrays;
}

/// The values of `array` when all are known.
std::optional<std::vector<int64_t>> allKnown(const IntArray& array) {
  std::vector<int64_t> values;
  for (const Element& value : array.values) {
    if (!value) return std::nullopt;
    values.push_back(*value);
  }
  return values;
}

DType dtypeOfInput(const OnnxNodeContext& c, std::size_t index) { return c.input(index)->tensor()->dtype; }

/// An integer array whose elements are all known as a constant of `dtype` (int64 storage
/// converted by element).
OnnxValue makeConstant(const OnnxNodeContext& c, const IntArray& array, DType dtype) {
  std::vector<int64_t> values;
  for (const Element& value : array.values) values.push_back(*value);
  if (dtype == DType::Int64) return c.constant(intsToTensor(values, array.shape));
  std::size_t size = dtypeSize(dtype);
  std::vector<std::byte> bytes(values.size() * size);
  for (std::size_t i = 0; i < values.size(); ++i) {
    int64_t v = dtype == DType::Bool ? (values[i] != 0) : values[i];
    std::memcpy(bytes.data() + i * size, &v, size);  // little-endian: the low bytes come first
  }
  return c.constant(TensorData(dtype, array.shape, std::make_shared<const std::vector<std::byte>>(std::move(bytes))));
}

/// The folded result `array`: a constant of `dtype` when every element is known, else the op the
/// ordinary converter builds, carrying the known elements.
Result<OnnxOutputs> folded(const OnnxNodeContext& c, const IntArray& array, DType dtype) {
  if (std::all_of(array.values.begin(), array.values.end(), [](const Element& v) { return v.has_value(); }))
    return OnnxOutputs{makeConstant(c, array, dtype)};
  BYOC_ASSIGN_OR_RETURN(OnnxOutputs built, onnxConverters().find(c.node.op_type())->second(c));
  if (built.size() != 1 || !built[0].tensor() || built[0].tensor()->numElements() != static_cast<int64_t>(array.values.size()))
    return built;
  built[0].partial = std::make_shared<const std::vector<Element>>(array.values);
  return built;
}

/// The flat index into `shape` of the output position `index` of `outShape`, broadcasting.
int64_t broadcastIndex(const Shape& shape, const Shape& outShape, int64_t index) {
  int64_t flat = 0;
  int64_t stride = 1;
  for (std::size_t d = 0; d < outShape.size(); ++d) {
    std::size_t od = outShape.size() - 1 - d;
    int64_t coordinate = index % outShape[od];
    index /= outShape[od];
    if (d < shape.size()) {
      std::size_t sd = shape.size() - 1 - d;
      if (shape[sd] != 1) flat += coordinate * stride;
      stride *= shape[sd];
    }
  }
  return flat;
}

std::optional<Shape> broadcast(const std::vector<IntArray>& arrays) {
  Shape out;
  for (const IntArray& array : arrays) {
    if (array.shape.size() > out.size()) out.insert(out.begin(), array.shape.size() - out.size(), 1);
    for (std::size_t d = 0; d < array.shape.size(); ++d) {
      int64_t& o = out[out.size() - array.shape.size() + d];
      int64_t s = array.shape[d];
      if (o == 1) o = s;
      else if (s != 1 && s != o) return std::nullopt;
    }
  }
  return out;
}

/// Elementwise ops of `Arity` broadcast integer inputs; `bool` results for comparisons. A node
/// with another number of inputs is left to the converter, which names the missing one.
template <std::size_t Arity, typename Fn>
OnnxConverter elementwise(Fn fn, bool producesBool) {
  return [fn, producesBool](const OnnxNodeContext& c) -> Result<OnnxOutputs> {
    auto arrays = intInputs(c);
    if (!arrays || arrays->size() != Arity) return OnnxOutputs{};
    auto shape = broadcast(*arrays);
    if (!shape || count(*shape) > kMaxFoldedElements) return OnnxOutputs{};
    IntArray out{*shape, std::vector<Element>(static_cast<std::size_t>(count(*shape)))};
    std::vector<int64_t> operands(arrays->size());
    for (int64_t i = 0; i < count(*shape); ++i) {
      bool allKnown = true;
      for (std::size_t a = 0; a < arrays->size(); ++a) {
        const Element& operand = (*arrays)[a].values[static_cast<std::size_t>(broadcastIndex((*arrays)[a].shape, *shape, i))];
        allKnown = allKnown && operand.has_value();
        operands[a] = operand.value_or(0);
      }
      if (!allKnown) continue;  // known only at run time
      std::optional<int64_t> value = fn(operands);
      if (!value) return OnnxOutputs{};
      out.values[static_cast<std::size_t>(i)] = *value;
    }
    DType dtype = producesBool ? DType::Bool : dtypeOfInput(c, c.inputCount() - 1);
    return folded(c, out, dtype);
  };
}

/// Ops that only change the shape: the ordinary converter computes the output type, and the
/// values are kept.
OnnxConverter reshapeLike(std::string opType) {
  return [opType](const OnnxNodeContext& c) -> Result<OnnxOutputs> {
    auto arrays = intInputs(c);
    if (!arrays) return OnnxOutputs{};
    BYOC_ASSIGN_OR_RETURN(OnnxOutputs built, onnxConverters().find(opType)->second(c));
    IntArray out{built[0].shape(), (*arrays)[0].values};
    if (out.values.size() != static_cast<std::size_t>(count(out.shape))) return built;
    return folded(c, out, dtypeOfInput(c, 0));
  };
}

/// The elements at `positions` along `axis` of `data`, in order (the shape with that axis
/// `positions.size()` long); nothing when the result would exceed the folding limit.
std::optional<IntArray> takeAlong(const IntArray& data, int64_t axis, const std::vector<int64_t>& positions) {
  const auto a = static_cast<std::size_t>(axis);
  int64_t extent = data.shape[a];
  int64_t outer = count(Shape(data.shape.begin(), data.shape.begin() + axis));
  int64_t inner = count(Shape(data.shape.begin() + axis + 1, data.shape.end()));
  // Both operands are small, but their product need not be.
  if (outer * inner * static_cast<int64_t>(positions.size()) > kMaxFoldedElements) return std::nullopt;
  IntArray out{data.shape, {}};
  out.shape[a] = static_cast<int64_t>(positions.size());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t index : positions) {
      for (int64_t i = 0; i < inner; ++i)
        out.values.push_back(data.values[static_cast<std::size_t>((o * extent + index) * inner + i)]);
    }
  }
  return out;
}

Result<OnnxOutputs> gather(const OnnxNodeContext& c) {
  auto arrays = intInputs(c);
  if (!arrays || arrays->size() != 2) return OnnxOutputs{};
  const IntArray& data = (*arrays)[0];
  std::optional<std::vector<int64_t>> indices = allKnown((*arrays)[1]);
  if (!indices) return OnnxOutputs{};
  const Shape& indicesShape = (*arrays)[1].shape;
  BYOC_ASSIGN_OR_RETURN(int64_t axis, c.attrs.getInt("axis", 0));
  BYOC_ASSIGN_OR_RETURN(axis, onnxAxis(axis, data.shape.size()));
  int64_t extent = data.shape[static_cast<std::size_t>(axis)];
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> positions, gatherIndices(*indices, axis, extent));
  std::optional<IntArray> out = takeAlong(data, axis, positions);
  if (!out) return OnnxOutputs{};
  out->shape.assign(data.shape.begin(), data.shape.begin() + axis);
  out->shape.insert(out->shape.end(), indicesShape.begin(), indicesShape.end());
  out->shape.insert(out->shape.end(), data.shape.begin() + axis + 1, data.shape.end());
  return folded(c, *out, dtypeOfInput(c, 0));
}

Result<OnnxOutputs> concat(const OnnxNodeContext& c) {
  auto arrays = intInputs(c);
  if (!arrays || arrays->empty()) return OnnxOutputs{};
  BYOC_ASSIGN_OR_RETURN(int64_t axis, c.attrs.getInt("axis"));
  BYOC_ASSIGN_OR_RETURN(axis, onnxAxis(axis, (*arrays)[0].shape.size()));
  auto a = static_cast<std::size_t>(axis);
  IntArray out{(*arrays)[0].shape, {}};
  out.shape[a] = 0;
  for (const IntArray& array : *arrays) {
    if (array.shape.size() != out.shape.size()) return OnnxOutputs{};
    for (std::size_t d = 0; d < out.shape.size(); ++d)
      if (d != a && array.shape[d] != out.shape[d]) return OnnxOutputs{};
    out.shape[a] += array.shape[a];
  }
  int64_t outer = count(Shape(out.shape.begin(), out.shape.begin() + axis));
  for (int64_t o = 0; o < outer; ++o) {
    for (const IntArray& array : *arrays) {
      int64_t block = count(Shape(array.shape.begin() + axis, array.shape.end()));
      for (int64_t i = o * block; i < (o + 1) * block; ++i) out.values.push_back(array.values[static_cast<std::size_t>(i)]);
    }
  }
  return folded(c, out, dtypeOfInput(c, 0));
}

/// Slice of an integer constant (the shape vectors exporters slice, and the pads torch reorders)
/// along one axis.
Result<OnnxOutputs> slice(const OnnxNodeContext& c) {
  auto arrays = intInputs(c);
  if (!arrays || arrays->size() < 3 || (*arrays)[0].shape.empty()) return OnnxOutputs{};
  std::vector<int64_t> bounds;
  for (const IntArray& bound : std::span(*arrays).subspan(1)) {
    if (bound.values.size() != 1 || !bound.values[0]) return OnnxOutputs{};
    bounds.push_back(*bound.values[0]);
  }
  const IntArray& data = (*arrays)[0];
  int64_t axis = 0;
  if (bounds.size() > 2) {
    BYOC_ASSIGN_OR_RETURN(axis, onnxAxis(bounds[2], data.shape.size()));
  } else if (data.shape.size() != 1) {
    return OnnxOutputs{};
  }
  int64_t extent = data.shape[static_cast<std::size_t>(axis)];
  int64_t start = bounds[0];
  int64_t end = bounds[1];
  int64_t step = bounds.size() > 3 ? bounds[3] : 1;
  if (step == 0) return makeError("Slice step must not be 0");
  if (start < 0) start += extent;
  if (end < 0) end += extent;
  std::vector<int64_t> positions;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, extent);
    end = std::clamp<int64_t>(end, 0, extent);
    // The index moves only while it stays before `end`, so a huge step cannot overflow it.
    for (int64_t i = start; i < end; i = end - i > step ? i + step : end) positions.push_back(i);
  } else {
    start = std::clamp<int64_t>(start, -1, extent - 1);
    end = std::clamp<int64_t>(end, -1, extent - 1);
    for (int64_t i = start; i > end; i = i + step > end ? i + step : end) positions.push_back(i);
  }
  std::optional<IntArray> out = takeAlong(data, axis, positions);
  if (!out) return OnnxOutputs{};
  return folded(c, *out, dtypeOfInput(c, 0));
}

/// Transpose of an integer constant.
Result<OnnxOutputs> transpose(const OnnxNodeContext& c) {
  auto arrays = intInputs(c);
  if (!arrays || arrays->size() != 1) return OnnxOutputs{};
  const IntArray& data = (*arrays)[0];
  const std::size_t rank = data.shape.size();
  std::vector<int64_t> reversed(rank);
  for (std::size_t d = 0; d < rank; ++d) reversed[d] = static_cast<int64_t>(rank - 1 - d);
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> perm, c.attrs.getInts("perm", reversed));
  BYOC_ASSIGN_OR_RETURN(perm, onnxAxes(perm, rank));
  if (perm.size() != rank) return OnnxOutputs{};  // the converter names the mismatch
  IntArray out{Shape(rank), std::vector<Element>(data.values.size())};
  for (std::size_t d = 0; d < rank; ++d) out.shape[d] = data.shape[static_cast<std::size_t>(perm[d])];
  for (std::size_t i = 0; i < out.values.size(); ++i) {
    // Output coordinates, last axis fastest, mapped to the input's flat index.
    int64_t rest = static_cast<int64_t>(i);
    int64_t source = 0;
    std::vector<int64_t> coordinate(rank);
    for (std::size_t d = rank; d-- > 0;) {
      coordinate[d] = rest % out.shape[d];
      rest /= out.shape[d];
    }
    for (std::size_t d = 0; d < rank; ++d) {
      int64_t stride = count(Shape(data.shape.begin() + static_cast<std::ptrdiff_t>(d) + 1, data.shape.end()));
      for (std::size_t o = 0; o < rank; ++o)
        if (static_cast<std::size_t>(perm[o]) == d) source += coordinate[o] * stride;
    }
    out.values[i] = data.values[static_cast<std::size_t>(source)];
  }
  return folded(c, out, dtypeOfInput(c, 0));
}

/// Cast between integer and bool types.
Result<OnnxOutputs> cast(const OnnxNodeContext& c) {
  auto arrays = intInputs(c);
  if (!arrays || arrays->size() != 1) return OnnxOutputs{};
  BYOC_ASSIGN_OR_RETURN(int64_t to, c.attrs.getInt("to"));
  BYOC_ASSIGN_OR_RETURN(DType dtype, dtypeFromOnnx(static_cast<int32_t>(to)));
  if (isFloat(dtype)) return OnnxOutputs{};
  return folded(c, (*arrays)[0], dtype);
}

}  // namespace

void addFolders(OnnxConverterTable& table) {
  using Operands = const std::vector<int64_t>&;
  // An operation that overflows int64_t is not folded: the op is built and computes at run time.
  table["Add"] = elementwise<2>([](Operands v) { return limits::checkedAdd(v[0], v[1]); }, false);
  table["Sub"] = elementwise<2>(
      [](Operands v) -> std::optional<int64_t> {
        if (v[1] == std::numeric_limits<int64_t>::min()) return std::nullopt;
        return limits::checkedAdd(v[0], -v[1]);
      },
      false);
  table["Mul"] = elementwise<2>([](Operands v) { return limits::checkedMul(v[0], v[1]); }, false);
  table["Div"] = elementwise<2>(
      [](Operands v) -> std::optional<int64_t> {
        if (v[1] == 0 || (v[1] == -1 && v[0] == std::numeric_limits<int64_t>::min())) return std::nullopt;
        return v[0] / v[1];
      },
      false);
  table["Neg"] = elementwise<1>(
      [](Operands v) -> std::optional<int64_t> {
        if (v[0] == std::numeric_limits<int64_t>::min()) return std::nullopt;
        return -v[0];
      },
      false);
  table["Equal"] = elementwise<2>([](Operands v) -> std::optional<int64_t> { return v[0] == v[1]; }, true);
  table["Less"] = elementwise<2>([](Operands v) -> std::optional<int64_t> { return v[0] < v[1]; }, true);
  table["Greater"] = elementwise<2>([](Operands v) -> std::optional<int64_t> { return v[0] > v[1]; }, true);
  table["Where"] = elementwise<3>([](Operands v) -> std::optional<int64_t> { return v[0] ? v[1] : v[2]; }, false);
  for (const char* opType : {"Unsqueeze", "Squeeze", "Reshape", "Flatten", "Identity"}) table[opType] = reshapeLike(opType);
  table["Gather"] = gather;
  table["Concat"] = concat;
  table["Slice"] = slice;
  table["Transpose"] = transpose;
  table["Cast"] = cast;
}

}  // namespace byoc::onnx_import
