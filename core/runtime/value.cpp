#include "runtime/value.h"

#include "support/limits.h"
#include "support/result.h"

namespace byoc {

Value Value::tuple(std::vector<Value> fields) {
  Value value;
  value.value_ = std::make_shared<const std::vector<Value>>(std::move(fields));
  return value;
}

Value Value::closure(Closure closure) {
  Value value;
  value.value_ = std::make_shared<const Closure>(std::move(closure));
  return value;
}

bool Value::flattenInto(std::vector<NDArray>& out) const {
  // Tuples nest only as deep as their types; an explicit stack keeps this iterative anyway.
  std::vector<const Value*> stack = {this};
  while (!stack.empty()) {
    const Value* value = stack.back();
    stack.pop_back();
    if (value->isTensor()) {
      out.push_back(value->tensor());
    } else if (value->isTuple()) {
      const std::vector<Value>& fields = value->fields();
      for (std::size_t i = fields.size(); i-- > 0;) stack.push_back(&fields[i]);
    } else {
      return false;
    }
  }
  return true;
}

std::string allocationProblem(const TensorTypeNode& type) {
  for (std::size_t i = 0; i < type.shape.size(); ++i)
    if (type.shape[i] == kAnyDim) return "dimension " + std::to_string(i) + " is unknown";
  return limits::shapeProblem(type.shape);
}

Result<std::vector<NDArray>> allocateFlat(const Type& type) {
  std::vector<NDArray> out;
  for (const TypeNode* node : flattenTupleTypes(type)) {
    if (!node) return makeError("cannot allocate a value of unknown type (run type inference first)");
    const auto* tensor = node->as<TensorTypeNode>();
    if (!tensor) return makeError("cannot allocate a value of function type " + typeToString(Type(node)));
    if (std::string problem = allocationProblem(*tensor); !problem.empty())
      return makeError("cannot allocate " + typeToString(Type(tensor)) + ": " + problem);
    BYOC_ASSIGN_OR_RETURN(NDArray array, NDArray::allocate(tensor->dtype, tensor->shape));
    out.push_back(std::move(array));
  }
  return out;
}

Value assemble(const Type& type, std::span<const NDArray> flat, std::size_t& next) {
  const auto* tuple = type->as<TupleTypeNode>();
  if (!tuple) return flat[next++];
  std::vector<Value> fields;
  for (const Type& field : tuple->fields) fields.push_back(assemble(field, flat, next));
  return Value::tuple(std::move(fields));
}

}  // namespace byoc
