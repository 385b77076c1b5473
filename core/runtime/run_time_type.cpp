#include "runtime/run_time_type.h"

#include "ir/ops/op_helpers.h"
#include "runtime/kernels/kernel.h"

namespace byoc {

bool isStaticType(const Type& type) {
  for (const TypeNode* node : flattenTupleTypes(type)) {
    const auto* tensor = node ? node->as<TensorTypeNode>() : nullptr;
    if (!tensor || !ops::isStaticShape(tensor->shape)) return false;
  }
  return true;
}

Type typeOfValue(const Value& value) {
  // Tuples nest only as deep as their types; the recursion follows that nesting, not the program.
  if (value.isTensor()) return value.tensor().type();
  if (!value.isTuple()) return {};
  std::vector<Type> fields;
  for (const Value& field : value.fields()) fields.push_back(typeOfValue(field));
  return tupleType(std::move(fields));
}

namespace {

/// "Tensor[(16, 256), float32], int64"
std::string inputTypesText(std::span<const NDArray> inputs) {
  std::string list;
  for (const NDArray& input : inputs) list += (list.empty() ? "" : ", ") + typeToString(input.type());
  return list;
}

}  // namespace

Result<Type> runTimeCallType(const CallNode& call, const OpDef& def, std::span<const Value> args,
                             std::span<const NDArray> flatInputs) {
  if (isStaticType(call.type())) return call.type();
  Result<Type> type = Type();
  if (kernels::ShapeFunction shapeFunction = kernels::findShapeFunction(def.name)) {
    type = shapeFunction(flatInputs, call.attrs);
  } else {
    std::vector<Type> argTypes;
    for (const Value& arg : args) argTypes.push_back(typeOfValue(arg));
    type = def.relation({argTypes, call.attrs});
  }
  if (!type) return type.error();
  if (!isStaticType(*type))
    return makeError(def.name + ": the result type " + typeToString(*type) + " is still unknown on inputs " +
                     inputTypesText(flatInputs));
  return type;
}

}  // namespace byoc
