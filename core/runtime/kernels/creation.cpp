/// \file
/// Kernels of zeros, ones, layout_transform and einsum (ir/ops/creation.cpp). Einsum walks every
/// combination of its subscripts' indices, multiplying the operands' elements and summing into the
/// result: the reference, not a fast path, for the equations ONNX models write (matrix and batch
/// products, transposes, reductions, diagonals).

#include <algorithm>
#include <map>

#include "ir/ops/einsum_equation.h"
#include "ir/ops/op_helpers.h"
#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/kernel_families.h"
#include "runtime/kernels/permute.h"

namespace byoc::kernels {

namespace {

Status fill(const KernelArgs& args, double value) {
  const NDArray& out = args.outputs[0];
  return dispatchDType(args.op, out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* data = out.data<T>();
    std::fill(data, data + out.numElements(), static_cast<T>(value));
  });
}

Status layoutTransform(const KernelArgs& args) {
  BYOC_ASSIGN_OR_RETURN(std::vector<std::size_t> perm,
                        ops::layoutPermutation(std::string(args.op), ops::stringAttr(args.attrs, "src_layout"),
                                               ops::stringAttr(args.attrs, "dst_layout")));
  permuteInto(args.inputs[0], perm, args.outputs[0]);
  return Status::ok();
}

/// For each operand (and the result, last), the stride of every letter of the equation: a
/// letter an operand repeats (a diagonal) adds its strides.
std::vector<std::vector<int64_t>> letterStrides(const ops::EinsumEquation& eq, const std::string& letters,
                                                const std::vector<Shape>& shapes) {
  std::vector<std::vector<int64_t>> strides;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const std::string& subscripts = i < eq.operands.size() ? eq.operands[i] : eq.result;
    std::vector<int64_t> axisStrides = stridesOf(shapes[i]);
    std::vector<int64_t> perLetter(letters.size(), 0);
    for (std::size_t a = 0; a < subscripts.size(); ++a) perLetter[letters.find(subscripts[a])] += axisStrides[a];
    strides.push_back(std::move(perLetter));
  }
  return strides;
}

Status einsum(const KernelArgs& args) {
  BYOC_ASSIGN_OR_RETURN(ops::EinsumEquation eq, ops::parseEinsum(ops::stringAttr(args.attrs, "equation"), args.inputs.size()));
  std::string letters = eq.result;
  std::map<char, int64_t> sizes;
  std::vector<Shape> shapes;
  for (std::size_t i = 0; i < args.inputs.size(); ++i) {
    shapes.push_back(args.inputs[i].shape());
    for (std::size_t a = 0; a < eq.operands[i].size(); ++a) {
      const char letter = eq.operands[i][a];
      sizes[letter] = shapes.back()[a];
      if (letters.find(letter) == std::string::npos) letters += letter;
    }
  }
  shapes.push_back(args.outputs[0].shape());
  const std::vector<std::vector<int64_t>> strides = letterStrides(eq, letters, shapes);
  const NDArray& out = args.outputs[0];
  return dispatchFloat(args.op, out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T* result = out.data<T>();
    std::fill(result, result + out.numElements(), T{0});
    for (const auto& [letter, size] : sizes)
      if (size == 0) return;
    std::vector<int64_t> index(letters.size(), 0);
    std::vector<int64_t> offsets(shapes.size(), 0);
    while (true) {
      double product = 1.0;
      for (std::size_t i = 0; i < args.inputs.size(); ++i) product *= args.inputs[i].data<T>()[offsets[i]];
      result[offsets.back()] += static_cast<T>(product);
      // Odometer over the letters, last letter fastest, keeping every operand's offset current.
      std::size_t d = letters.size();
      while (d > 0) {
        --d;
        const int64_t size = sizes[letters[d]];
        for (std::size_t i = 0; i < offsets.size(); ++i) offsets[i] += strides[i][d];
        if (++index[d] < size) break;
        for (std::size_t i = 0; i < offsets.size(); ++i) offsets[i] -= strides[i][d] * size;
        index[d] = 0;
        if (d == 0) return;
      }
      if (letters.empty()) return;
    }
  });
}

}  // namespace

void addCreationKernels(KernelTable& table) {
  table["zeros"] = [](const KernelArgs& a) { return fill(a, 0.0); };
  table["ones"] = [](const KernelArgs& a) { return fill(a, 1.0); };
  table["layout_transform"] = layoutTransform;
  table["einsum"] = einsum;
}

}  // namespace byoc::kernels
