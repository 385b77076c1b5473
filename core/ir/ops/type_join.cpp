#include "ir/ops/type_join.h"

#include "ir/ops/op_helpers.h"

namespace byoc::ops {

std::optional<Type> joinTypes(const Type& a, const Type& b) {
  if (typeEqual(a, b)) return a;
  // Tuples nest only as deep as their types; the recursion follows that nesting, not the program.
  if (const auto* left = a ? a->as<TupleTypeNode>() : nullptr) {
    const auto* right = b ? b->as<TupleTypeNode>() : nullptr;
    if (!right || right->fields.size() != left->fields.size()) return std::nullopt;
    std::vector<Type> fields;
    for (std::size_t i = 0; i < left->fields.size(); ++i) {
      std::optional<Type> field = joinTypes(left->fields[i], right->fields[i]);
      if (!field) return std::nullopt;
      fields.push_back(*field);
    }
    return tupleType(std::move(fields));
  }
  const auto* left = a ? a->as<TensorTypeNode>() : nullptr;
  const auto* right = b ? b->as<TensorTypeNode>() : nullptr;
  if (!left || !right || left->dtype != right->dtype || left->shape.size() != right->shape.size()) return std::nullopt;
  Shape shape = left->shape;
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (shape[d] != right->shape[d]) shape[d] = kAnyDim;
  return tensorType(std::move(shape), left->dtype);
}

bool typeAccepts(const Type& general, const Type& specific) {
  if (typeEqual(general, specific)) return true;
  const std::optional<Type> joined = joinTypes(general, specific);
  return joined && typeEqual(*joined, general);
}

}  // namespace byoc::ops
