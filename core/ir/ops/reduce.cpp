#include "ir/ops/op_helpers.h"

namespace byoc::ops {

namespace {

/// Reductions over `axis` (None = all), keeping reduced axes as 1 with keepdims, or reducing all
/// but the listed axes with exclude.
TypeRelation reduceRelation(std::string op, std::optional<DType> resultDType) {
  return [op, resultDType](const TypeRelationInput& input) -> Result<Type> {
    BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
    std::size_t rank = data->shape.size();
    std::vector<bool> reduced(rank, true);
    const AttrValue* axisValue = input.attrs.find("axis");
    if (axisValue && !axisValue->isNone()) {
      std::vector<int64_t> axes;
      if (axisValue->isInt()) axes = {axisValue->asInt()};
      else {
      BYOC_ASSIGN_OR_RETURN(axes, intsAttr(op, input.attrs, "axis"));
    }
      bool exclude = boolAttr(input.attrs, "exclude");
      reduced.assign(rank, exclude);
      for (int64_t axis : axes) {
        BYOC_ASSIGN_OR_RETURN(int64_t a, normalizeAxis(op, axis, rank));
        reduced[static_cast<std::size_t>(a)] = !exclude;
      }
    }
    bool keepdims = boolAttr(input.attrs, "keepdims");
    Shape out;
    for (std::size_t i = 0; i < rank; ++i) {
      if (!reduced[i]) out.push_back(data->shape[i]);
      else if (keepdims) out.push_back(1);
    }
    return tensorType(std::move(out), resultDType ? *resultDType : data->dtype);
  };
}

std::vector<AttrField> reduceAttrs() { return {{"axis", AttrValue()}, {"keepdims", false}, {"exclude", false}}; }

}  // namespace

void registerReduceOps(OpRegistry& registry) {
  const std::pair<const char*, const char*> reductions[] = {
      {"mean", "mean over axes"}, {"sum", "sum over axes"},         {"max", "maximum over axes"},
      {"min", "minimum over axes"}, {"prod", "product over axes"},
  };
  for (const auto& [name, summary] : reductions)
    declare(registry, name, summary, {"data"}, reduceAttrs(), FusionKind::CommReduce, reduceRelation(name, std::nullopt));
  std::vector<AttrField> argAttrs = reduceAttrs();
  argAttrs.push_back({"select_last_index", false});
  declare(registry, "argmax", "index of the maximum over axes", {"data"}, argAttrs, FusionKind::CommReduce,
          reduceRelation("argmax", DType::Int32));
  declare(registry, "argmin", "index of the minimum over axes", {"data"}, argAttrs, FusionKind::CommReduce,
          reduceRelation("argmin", DType::Int32));
}

}  // namespace byoc::ops
