#include "ir/ops/op_helpers.h"
#include "ir/ops/attr_views.h"

#include <algorithm>
#include <numeric>

#include "support/limits.h"

namespace byoc::ops {

namespace {

/// Relay's reshape: 0 copies the input dimension, -1 is inferred, -2 copies the rest, -3 merges two.
Result<Type> reshapeRelation(const TypeRelationInput& input) {
  const std::string op = "reshape";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> newshape, intsAttr(op, input.attrs, "newshape"));
  // Each entry adds at most one output dimension (-2 adds those left of the input, within its rank).
  BYOC_TRY(checkResultRank(op, static_cast<int64_t>(newshape.size())));
  const Shape& in = data->shape;
  Shape out;
  std::size_t source = 0;
  std::optional<std::size_t> inferred;
  for (std::size_t i = 0; i < newshape.size(); ++i) {
    int64_t value = newshape[i];
    if (value > 0) {
      out.push_back(value);
      ++source;
    } else if (value == 0) {
      if (source >= in.size()) return makeError(op + ": newshape 0 at position " + std::to_string(i) + " has no input dimension to copy");
      out.push_back(in[source++]);
    } else if (value == -1) {
      if (inferred) return makeError(op + ": newshape may contain -1 only once");
      inferred = out.size();
      out.push_back(1);
      ++source;
    } else if (value == -2) {
      for (; source < in.size(); ++source) out.push_back(in[source]);
    } else if (value == -3) {
      if (source + 1 >= in.size()) return makeError(op + ": newshape -3 needs two input dimensions to merge");
      std::optional<int64_t> merged =
          isStaticShape({in[source], in[source + 1]}) ? checkedProduct(in, source, source + 2) : kAnyDim;
      if (!merged) return makeError(op + ": newshape -3 merges dimensions whose product overflows");
      out.push_back(*merged);
      source += 2;
    } else {
      return makeError(op + ": unsupported newshape value " + std::to_string(value));
    }
  }
  BYOC_TRY(checkResultRank(op, static_cast<int64_t>(out.size())));
  // With an unknown input or copied dimension, the sizes are checked at run time: -1 stays unknown.
  if (!isStaticShape(in) || !isStaticShape(out)) {
    if (inferred) out[*inferred] = kAnyDim;
    return tensorType(std::move(out), data->dtype);
  }
  int64_t total = data->numElements();
  std::optional<int64_t> known = checkedProduct(out, 0, out.size());
  if (inferred) {
    if (!known || *known == 0 || total % *known != 0)
      return makeError(op + ": cannot reshape " + shapeText(in) + " into " + AttrValue::ints(newshape).str());
    out[*inferred] = total / *known;
    known = checkedProduct(out, 0, out.size());
  }
  if (known != total)
    return makeError(op + ": cannot reshape " + shapeText(in) + " (" + std::to_string(total) + " elements) into " +
                     shapeText(out));
  return tensorType(std::move(out), data->dtype);
}

/// Refuses more split parts than `limits::kMaxOpOutputs` before they are built.
Status checkSplitCount(const std::string& op, int64_t parts) {
  if (parts > limits::kMaxOpOutputs)
    return makeError(op + ": " + std::to_string(parts) + " parts exceed the limit of " +
                     std::to_string(limits::kMaxOpOutputs) + " outputs");
  return Status::ok();
}

Result<Type> transposeRelation(const TypeRelationInput& input) {
  const std::string op = "transpose";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(const std::vector<std::size_t> perm, readTransposeAxes(op, input.attrs, data->shape.size()));
  Shape out;
  for (std::size_t axis : perm) out.push_back(data->shape[axis]);
  return tensorType(std::move(out), data->dtype);
}

Result<Type> squeezeRelation(const TypeRelationInput& input) {
  const std::string op = "squeeze";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  std::vector<bool> drop(data->shape.size(), false);
  const AttrValue* given = input.attrs.find("axis");
  if (given && !given->isNone()) {
    BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> axes, intsAttr(op, input.attrs, "axis"));
    for (int64_t axis : axes) {
      BYOC_ASSIGN_OR_RETURN(int64_t a, normalizeAxis(op, axis, data->shape.size()));
      if (!dimsCompatible(data->shape[static_cast<std::size_t>(a)], 1))
        return makeError(op + ": axis " + std::to_string(axis) + " has size " +
                         std::to_string(data->shape[static_cast<std::size_t>(a)]) + ", not 1");
      drop[static_cast<std::size_t>(a)] = true;
    }
  } else {
    if (!isStaticShape(data->shape))
      return makeError(op + ": without axes, which axes of " + shapeText(data->shape) +
                       " are removed depends on the unknown dimensions; expected the axes listed");
    for (std::size_t i = 0; i < drop.size(); ++i) drop[i] = data->shape[i] == 1;
  }
  Shape out;
  for (std::size_t i = 0; i < drop.size(); ++i)
    if (!drop[i]) out.push_back(data->shape[i]);
  return tensorType(std::move(out), data->dtype);
}

Result<Type> expandDimsRelation(const TypeRelationInput& input) {
  const std::string op = "expand_dims";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(int64_t axis, intAttr(op, input.attrs, "axis"));
  BYOC_ASSIGN_OR_RETURN(int64_t count, intAttr(op, input.attrs, "num_newaxis"));
  BYOC_ASSIGN_OR_RETURN(axis, normalizeAxis(op, axis, data->shape.size() + 1));
  if (count < 0) return makeError(op + ": num_newaxis must not be negative");
  // Checked before the shape grows: num_newaxis comes straight from the input.
  std::optional<int64_t> rank = limits::checkedAdd(static_cast<int64_t>(data->shape.size()), count);
  BYOC_TRY(checkResultRank(op, rank.value_or(INT64_MAX)));
  Shape out = data->shape;
  out.insert(out.begin() + axis, static_cast<std::size_t>(count), 1);
  return tensorType(std::move(out), data->dtype);
}

Result<Type> concatenateRelation(const TypeRelationInput& input) {
  const std::string op = "concatenate";
  const Type& tuple = input.args.empty() ? Type() : input.args[0];
  const auto* fields = tuple ? tuple->as<TupleTypeNode>() : nullptr;
  if (!fields || fields->fields.empty())
    return makeError(op + ": expects a non-empty tuple of tensors, found " + typeToString(tuple));
  BYOC_ASSIGN_OR_RETURN(int64_t axis, intAttr(op, input.attrs, "axis"));
  const auto* first = fields->fields[0] ? fields->fields[0]->as<TensorTypeNode>() : nullptr;
  if (!first) return makeError(op + ": field 0 must be a tensor");
  BYOC_ASSIGN_OR_RETURN(axis, normalizeAxis(op, axis, first->shape.size()));
  Shape out = first->shape;
  out[static_cast<std::size_t>(axis)] = 0;
  for (std::size_t f = 0; f < fields->fields.size(); ++f) {
    const auto* field = fields->fields[f] ? fields->fields[f]->as<TensorTypeNode>() : nullptr;
    if (!field) return makeError(op + ": field " + std::to_string(f) + " must be a tensor");
    if (field->dtype != first->dtype || field->shape.size() != first->shape.size())
      return makeError(op + ": field " + std::to_string(f) + " " + typeToString(fields->fields[f]) +
                       " does not match field 0 " + typeToString(fields->fields[0]));
    for (std::size_t d = 0; d < out.size(); ++d) {
      if (d == static_cast<std::size_t>(axis)) continue;
      if (!dimsCompatible(field->shape[d], first->shape[d]))
        return makeError(op + ": field " + std::to_string(f) + " has shape " + shapeText(field->shape) +
                         ", which differs from " + shapeText(first->shape) + " outside axis " + std::to_string(axis));
    }
    for (std::size_t d = 0; d < out.size(); ++d)
      if (d != static_cast<std::size_t>(axis)) out[d] = unifyDims(out[d], field->shape[d]);
    int64_t& joined = out[static_cast<std::size_t>(axis)];
    const int64_t part = field->shape[static_cast<std::size_t>(axis)];
    if (joined == kAnyDim || part == kAnyDim) {
      joined = kAnyDim;
      continue;
    }
    std::optional<int64_t> sum = limits::checkedAdd(joined, part);
    if (!sum) return makeError(op + ": the concatenated axis overflows");
    joined = *sum;
  }
  return tensorType(std::move(out), first->dtype);
}

/// Split of an axis of unknown size: equal sections and the part after the last index are of
/// unknown size; parts between two indices have their size.
Result<Type> splitUnknownAxis(const std::string& op, const TensorTypeNode& data, std::size_t axis, const AttrValue* sections) {
  std::vector<int64_t> sizes;
  if (sections && sections->isInt()) {
    if (sections->asInt() < 1) return makeError(op + ": indices_or_sections must be at least 1");
    BYOC_TRY(checkSplitCount(op, sections->asInt()));
    sizes.assign(static_cast<std::size_t>(sections->asInt()), kAnyDim);
  } else if (auto indices = sections ? sections->asInts() : std::nullopt) {
    BYOC_TRY(checkSplitCount(op, static_cast<int64_t>(indices->size()) + 1));
    int64_t begin = 0;
    for (int64_t end : *indices) {
      if (end < begin) return makeError(op + ": split indices must increase within the axis");
      sizes.push_back(end - begin);
      begin = end;
    }
    sizes.push_back(kAnyDim);
  } else {
    return makeError(op + ": indices_or_sections must be an integer or a list of integers");
  }
  std::vector<Type> parts;
  for (int64_t size : sizes) {
    Shape shape = data.shape;
    shape[axis] = size;
    parts.push_back(tensorType(std::move(shape), data.dtype));
  }
  return tupleType(std::move(parts));
}

Result<Type> splitRelation(const TypeRelationInput& input) {
  const std::string op = "split";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(int64_t axis, intAttr(op, input.attrs, "axis"));
  BYOC_ASSIGN_OR_RETURN(axis, normalizeAxis(op, axis, data->shape.size()));
  int64_t extent = data->shape[static_cast<std::size_t>(axis)];
  const AttrValue* sections = input.attrs.find("indices_or_sections");
  std::vector<int64_t> bounds;
  if (extent == kAnyDim) return splitUnknownAxis(op, *data, static_cast<std::size_t>(axis), sections);
  if (sections && sections->isInt()) {
    int64_t count = sections->asInt();
    if (count < 1 || extent % count != 0)
      return makeError(op + ": axis of size " + std::to_string(extent) + " cannot be split into " +
                       std::to_string(count) + " equal sections");
    BYOC_TRY(checkSplitCount(op, count));
    for (int64_t i = 1; i < count; ++i) bounds.push_back(extent / count * i);
  } else if (auto indices = sections ? sections->asInts() : std::nullopt) {
    BYOC_TRY(checkSplitCount(op, static_cast<int64_t>(indices->size()) + 1));
    bounds = *indices;
  } else {
    return makeError(op + ": indices_or_sections must be an integer or a list of integers");
  }
  std::vector<Type> parts;
  int64_t begin = 0;
  bounds.push_back(extent);
  for (int64_t end : bounds) {
    if (end < begin || end > extent) return makeError(op + ": split indices must increase within the axis");
    Shape shape = data->shape;
    shape[static_cast<std::size_t>(axis)] = end - begin;
    parts.push_back(tensorType(std::move(shape), data->dtype));
    begin = end;
  }
  return tupleType(std::move(parts));
}

Result<Type> stridedSliceRelation(const TypeRelationInput& input) {
  const std::string op = "strided_slice";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> begin, intsAttr(op, input.attrs, "begin"));
  BYOC_ASSIGN_OR_RETURN(std::vector<int64_t> end, intsAttr(op, input.attrs, "end"));
  std::vector<int64_t> strides;
  const AttrValue* stridesValue = input.attrs.find("strides");
  if (stridesValue && !stridesValue->isNone()) {
      BYOC_ASSIGN_OR_RETURN(strides, intsAttr(op, input.attrs, "strides"));
    }
  std::vector<int64_t> axes;
  const AttrValue* axesValue = input.attrs.find("axes");
  if (axesValue && !axesValue->isNone()) {
    BYOC_ASSIGN_OR_RETURN(axes, intsAttr(op, input.attrs, "axes"));
  } else {
    axes.resize(begin.size());
    std::iota(axes.begin(), axes.end(), 0);
  }
  if (begin.size() != axes.size() || end.size() != axes.size())
    return makeError(op + ": begin, end and axes must have the same length");
  bool sizeMode = stringAttr(input.attrs, "slice_mode") == "size";
  Shape out = data->shape;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    BYOC_ASSIGN_OR_RETURN(int64_t axis, normalizeAxis(op, axes[i], data->shape.size()));
    int64_t extent = data->shape[static_cast<std::size_t>(axis)];
    int64_t stride = i < strides.size() ? strides[i] : (strides.size() == 1 ? strides[0] : 1);
    if (stride == 0) return makeError(op + ": strides must not be 0");
    if (extent == kAnyDim) {
      out[static_cast<std::size_t>(axis)] = kAnyDim;
      continue;
    }
    // Negative indices count from the end; out-of-range ones clamp as numpy does.
    auto clamp = [&](int64_t index) {
      if (index < 0) index += extent;
      return stride > 0 ? std::clamp<int64_t>(index, 0, extent) : std::clamp<int64_t>(index, -1, extent - 1);
    };
    int64_t b = clamp(begin[i]);
    int64_t e = sizeMode ? (end[i] < 0 ? extent : b + std::min(end[i], extent - b)) : clamp(end[i]);
    // Written so that no step overflows, whatever the stride: |e - b| is at most extent + 1.
    int64_t span = stride > 0 ? e - b : b - e;
    int64_t step = stride > 0 ? stride : (stride == INT64_MIN ? INT64_MAX : -stride);
    out[static_cast<std::size_t>(axis)] = span > 0 ? (span - 1) / step + 1 : 0;
  }
  return tensorType(std::move(out), data->dtype);
}

Result<Type> takeRelation(const TypeRelationInput& input) {
  const std::string op = "take";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* indices, tensorArg(op, input, 1));
  if (!isInteger(indices->dtype)) return makeError(op + ": indices must be integers, found " + std::string(dtypeName(indices->dtype)));
  const AttrValue* axisValue = input.attrs.find("axis");
  if (!axisValue || axisValue->isNone()) return tensorType(indices->shape, data->dtype);
  BYOC_ASSIGN_OR_RETURN(int64_t axis, intAttr(op, input.attrs, "axis"));
  BYOC_ASSIGN_OR_RETURN(axis, normalizeAxis(op, axis, data->shape.size()));
  Shape out(data->shape.begin(), data->shape.begin() + axis);
  out.insert(out.end(), indices->shape.begin(), indices->shape.end());
  out.insert(out.end(), data->shape.begin() + axis + 1, data->shape.end());
  return tensorType(std::move(out), data->dtype);
}

Result<Type> padRelation(const TypeRelationInput& input) {
  const std::string op = "nn.pad";
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg(op, input, 0));
  const AttrValue* width = input.attrs.find("pad_width");
  if (!width || !width->isList() || width->asList().size() != data->shape.size())
    return makeError(op + ": pad_width must list one [before, after] pair per axis (" +
                     std::to_string(data->shape.size()) + ")");
  Shape out = data->shape;
  for (std::size_t i = 0; i < out.size(); ++i) {
    auto pair = width->asList()[i].asInts();
    if (!pair || pair->size() != 2) return makeError(op + ": pad_width entry " + std::to_string(i) + " must be [before, after]");
    std::optional<int64_t> padding = limits::checkedAdd((*pair)[0], (*pair)[1]);
    std::optional<int64_t> padded = padding ? limits::checkedAdd(out[i], *padding) : std::nullopt;
    if (!padded || *padded < 0)
      return makeError(op + ": padding " + AttrValue::ints(*pair).str() + " does not fit axis " + std::to_string(i) + " of size " +
                       std::to_string(out[i]));
    out[i] = *padded;
  }
  return tensorType(std::move(out), data->dtype);
}

Result<Type> batchFlattenRelation(const TypeRelationInput& input) {
  BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* data, tensorArg("nn.batch_flatten", input, 0));
  if (data->shape.empty()) return makeError("nn.batch_flatten: data must have rank at least 1");
  const bool unknown = std::find(data->shape.begin() + 1, data->shape.end(), kAnyDim) != data->shape.end();
  std::optional<int64_t> rest = unknown ? kAnyDim : checkedProduct(data->shape, 1, data->shape.size());
  if (!rest) return makeError("nn.batch_flatten: the flattened axes overflow");
  return tensorType({data->shape[0], *rest}, data->dtype);
}

}  // namespace

void registerTransformOps(OpRegistry& registry) {
  declare(registry, "reshape", "changes the shape, keeping the elements", {"data"},
          {tvmRequired("newshape", AttrValue::ints({})), {"allowzero", 0}}, FusionKind::Injective, reshapeRelation);
  declare(registry, "transpose", "permutes the axes", {"data"}, {tvmRequired("axes")}, FusionKind::Injective,
          transposeRelation);
  declare(registry, "squeeze", "removes axes of size 1", {"data"}, {{"axis", AttrValue()}}, FusionKind::Injective,
          squeezeRelation);
  declare(registry, "expand_dims", "inserts axes of size 1", {"data"}, {tvmRequired("axis", 0), {"num_newaxis", 1}},
          FusionKind::Broadcast, expandDimsRelation);
  declare(registry, "concatenate", "joins a tuple of tensors along `axis`", {"data"}, {{"axis", 0}},
          FusionKind::Injective, concatenateRelation);
  declare(registry, "split", "splits along `axis` into a tuple", {"data"},
          {tvmRequired("indices_or_sections", 1), {"axis", 0}}, FusionKind::Injective, splitRelation);
  declare(registry, "strided_slice", "takes a strided slice", {"data"},
          {tvmRequired("begin", AttrValue::ints({})),
           tvmRequired("end", AttrValue::ints({})),
           tvmRequired("strides"),
           {"slice_mode", "end"},
           tvmRequired("axes")},
          FusionKind::Injective, stridedSliceRelation);
  declare(registry, "take", "gathers elements along `axis` by index", {"data", "indices"},
          {{"batch_dims", 0}, {"axis", AttrValue()}, {"mode", "clip"}}, FusionKind::Injective, takeRelation);
  declare(registry, "nn.pad", "pads with a constant value", {"data", "pad_value"},
          {tvmRequired("pad_width", AttrValue(AttrValue::List{})), {"pad_mode", "constant"}}, FusionKind::Injective, padRelation);
  declare(registry, "nn.batch_flatten", "flattens all but the first axis", {"data"}, {}, FusionKind::Injective,
          batchFlattenRelation);
}

}  // namespace byoc::ops
