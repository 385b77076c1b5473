#include "ir/ops/op_helpers.h"

namespace byoc::ops {

namespace {

/// Binary ops with numpy broadcasting; comparisons produce bool.
struct BinaryOp {
  const char* name;
  const char* summary;
  bool producesBool;
};

constexpr BinaryOp kBinaryOps[] = {
    {"add", "x + y", false},
    {"subtract", "x - y", false},
    {"multiply", "x * y", false},
    {"divide", "x / y", false},
    {"power", "x to the power y", false},
    {"maximum", "max(x, y)", false},
    {"minimum", "min(x, y)", false},
    {"logical_and", "x and y", false},
    {"logical_or", "x or y", false},
    {"less", "x < y", true},
    {"greater", "x > y", true},
    {"less_equal", "x <= y", true},
    {"greater_equal", "x >= y", true},
    {"equal", "x == y", true},
    {"not_equal", "x != y", true},
};

TypeRelation binaryRelation(std::string op, bool producesBool) {
  return [op, producesBool](const TypeRelationInput& input) -> Result<Type> {
    BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* x, tensorArg(op, input, 0));
    BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* y, tensorArg(op, input, 1));
    if (x->dtype != y->dtype)
      return makeError(op + ": operand dtypes differ: " + std::string(dtypeName(x->dtype)) + " and " +
                       std::string(dtypeName(y->dtype)));
    BYOC_ASSIGN_OR_RETURN(Shape shape, broadcastShapes(op, x->shape, y->shape));
    return tensorType(std::move(shape), producesBool ? DType::Bool : x->dtype);
  };
}

Result<Type> whereRelation(const TypeRelationInput& input) {
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* cond, tensorArg("where", input, 0));
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* x, tensorArg("where", input, 1));
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* y, tensorArg("where", input, 2));
  if (x->dtype != y->dtype)
    return makeError("where: value dtypes differ: " + std::string(dtypeName(x->dtype)) + " and " +
                     std::string(dtypeName(y->dtype)));
  BYOC_ASSIGN_OR_RETURN(Shape values, broadcastShapes("where", x->shape, y->shape));
  BYOC_ASSIGN_OR_RETURN(Shape shape, broadcastShapes("where", cond->shape, values));
  return tensorType(std::move(shape), x->dtype);
}

}  // namespace

void registerBroadcastOps(OpRegistry& registry) {
  for (const BinaryOp& op : kBinaryOps)
    declare(registry, op.name, op.summary, {"lhs", "rhs"}, {}, FusionKind::Broadcast,
            binaryRelation(op.name, op.producesBool));
  declare(registry, "where", "x where cond else y, broadcast", {"condition", "x", "y"}, {}, FusionKind::Broadcast,
          whereRelation);
}

}  // namespace byoc::ops
