#include "ir/ops/op_helpers.h"

#include <algorithm>

#include "support/limits.h"

namespace byoc::ops {

Result<const TensorTypeNode*> tensorArg(const std::string& op, const TypeRelationInput& input, std::size_t index) {
  if (index >= input.args.size())
    return makeError(op + ": missing argument " + std::to_string(index));
  const Type& type = input.args[index];
  const auto* tensor = type ? type->as<TensorTypeNode>() : nullptr;
  if (!tensor) return makeError(op + ": argument " + std::to_string(index) + " must be a tensor, found " + typeToString(type));
  return tensor;
}

Result<std::vector<int64_t>> intsAttr(const std::string& op, const Attrs& attrs, const char* name) {
  const AttrValue* value = attrs.find(name);
  if (!value) return makeError(op + ": missing attribute " + name);
  auto ints = value->asInts();
  if (!ints) return makeError(op + ": attribute " + name + " must be a list of integers, found " + value->str());
  return *ints;
}

Result<int64_t> intAttr(const std::string& op, const Attrs& attrs, const char* name) {
  const AttrValue* value = attrs.find(name);
  if (!value || !value->isInt())
    return makeError(op + ": attribute " + name + " must be an integer, found " + (value ? value->str() : "nothing"));
  return value->asInt();
}

Result<double> floatAttr(const std::string& op, const Attrs& attrs, const char* name) {
  const AttrValue* value = attrs.find(name);
  if (!value || !(value->isFloat() || value->isInt()))
    return makeError(op + ": attribute " + name + " must be a number, found " + (value ? value->str() : "nothing"));
  return value->asFloat();
}

bool boolAttr(const Attrs& attrs, const char* name) {
  const AttrValue* value = attrs.find(name);
  if (!value) return false;
  if (value->isBool()) return value->asBool();
  return value->isInt() && value->asInt() != 0;
}

std::string stringAttr(const Attrs& attrs, const char* name) {
  const AttrValue* value = attrs.find(name);
  return value && value->isString() ? value->asString() : std::string();
}

Result<bool> requiredBoolAttr(const std::string& op, const Attrs& attrs, const char* name) {
  const AttrValue* value = attrs.find(name);
  if (!value || !(value->isBool() || value->isInt()))
    return makeError(op + ": attribute " + name + " must be a boolean, found " + (value ? value->str() : "nothing"));
  return value->isBool() ? value->asBool() : value->asInt() != 0;
}

Result<std::string> requiredStringAttr(const std::string& op, const Attrs& attrs, const char* name) {
  const AttrValue* value = attrs.find(name);
  if (!value || !value->isString())
    return makeError(op + ": attribute " + name + " must be a string, found " + (value ? value->str() : "nothing"));
  return value->asString();
}

Result<int64_t> normalizeAxis(const std::string& op, int64_t axis, std::size_t rank) {
  int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r)
    return makeError(op + ": axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + r : axis;
}

bool dimsCompatible(int64_t a, int64_t b) { return a == b || a == kAnyDim || b == kAnyDim; }

int64_t unifyDims(int64_t a, int64_t b) { return a == kAnyDim ? b : a; }

bool isStaticShape(const Shape& shape) { return std::find(shape.begin(), shape.end(), kAnyDim) == shape.end(); }

std::string dimText(int64_t dim) { return dim == kAnyDim ? std::string("?") : std::to_string(dim); }

std::string shapeText(const Shape& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) text += ", ";
    text += dimText(shape[i]);
  }
  return text + ")";
}

Result<Shape> broadcastShapes(const std::string& op, const Shape& lhs, const Shape& rhs) {
  std::size_t rank = std::max(lhs.size(), rhs.size());
  Shape out(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    int64_t a = i < rank - lhs.size() ? 1 : lhs[i - (rank - lhs.size())];
    int64_t b = i < rank - rhs.size() ? 1 : rhs[i - (rank - rhs.size())];
    if (a == b || b == 1) out[i] = a;
    else if (a == 1) out[i] = b;
    else if (a == kAnyDim || b == kAnyDim) out[i] = a == kAnyDim ? b : a;
    else
      return makeError(op + ": shapes " + shapeText(lhs) + " and " + shapeText(rhs) + " cannot be broadcast together");
  }
  return out;
}

Result<Attrs> expandListAttr(const std::string& op, Attrs attrs, const char* name, std::size_t count) {
  const AttrValue* value = attrs.find(name);
  if (!value) return attrs;
  std::vector<int64_t> values;
  if (value->isInt()) values.assign(1, value->asInt());
  else if (auto ints = value->asInts()) values = *ints;
  else return makeError(op + ": attribute " + name + " must be an integer or a list of integers, found " + value->str());
  if (values.size() == 1) values.assign(count, values[0]);
  else if (count % 2 == 0 && values.size() == count / 2) {
    const std::vector<int64_t> begins = values;
    values.insert(values.end(), begins.begin(), begins.end());
  }
  if (values.size() != count)
    return makeError(op + ": attribute " + name + " needs " + std::to_string(count) + " values, found " + value->str());
  attrs.set(name, AttrValue::ints(values));
  return attrs;
}

Result<std::vector<std::size_t>> layoutPermutation(const std::string& op, const std::string& src, const std::string& dst) {
  for (const std::string* layout : {&src, &dst})
    for (std::size_t i = 0; i < layout->size(); ++i) {
      const char c = (*layout)[i];
      if (c < 'A' || c > 'Z' || layout->find(c, i + 1) != std::string::npos)
        return makeError(op + ": layout \"" + *layout + "\" is not supported; expected each axis once as a capital letter");
    }
  if (src.size() != dst.size() || !std::is_permutation(src.begin(), src.end(), dst.begin()))
    return makeError(op + ": dst_layout \"" + dst + "\" does not name the axes of src_layout \"" + src + "\"");
  std::vector<std::size_t> perm;
  for (char axis : dst) perm.push_back(src.find(axis));
  return perm;
}

Status checkResultRank(const std::string& op, int64_t rank) {
  if (rank > limits::kMaxRank)
    return makeError(op + ": result shape: rank " + std::to_string(rank) + " exceeds the limit of " +
                     std::to_string(limits::kMaxRank) + " dimensions");
  return Status::ok();
}

std::optional<int64_t> checkedProduct(const Shape& shape, std::size_t begin, std::size_t end) {
  int64_t result = 1;
  for (std::size_t i = begin; i < end; ++i) {
    std::optional<int64_t> next = limits::checkedMul(result, shape[i]);
    if (!next) return std::nullopt;
    result = *next;
  }
  return result;
}

CheckedSize operator+(CheckedSize a, CheckedSize b) {
  return CheckedSize(a.value_ && b.value_ ? limits::checkedAdd(*a.value_, *b.value_) : std::nullopt);
}

CheckedSize operator-(CheckedSize a, CheckedSize b) {
  if (!a.value_ || !b.value_ || *b.value_ == INT64_MIN) return CheckedSize(std::optional<int64_t>());
  return CheckedSize(limits::checkedAdd(*a.value_, -*b.value_));
}

CheckedSize operator*(CheckedSize a, CheckedSize b) {
  return CheckedSize(a.value_ && b.value_ ? limits::checkedMul(*a.value_, *b.value_) : std::nullopt);
}

CheckedSize operator/(CheckedSize a, CheckedSize b) {
  if (!a.value_ || !b.value_ || *b.value_ <= 0) return CheckedSize(std::optional<int64_t>());
  return CheckedSize(*a.value_ / *b.value_);
}

namespace {

/// `relation`, refusing a result whose tensor shapes a reader would refuse (negative dimensions,
/// rank or element count beyond the limits); the error names the op.
TypeRelation refusingShapesBeyondLimits(const std::string& op, TypeRelation relation) {
  return [op, relation = std::move(relation)](const TypeRelationInput& input) -> Result<Type> {
    BYOC_ASSIGN_OR_RETURN(Type result, relation(input));
    for (const TypeNode* node : flattenTupleTypes(result)) {
      const auto* tensor = node ? node->as<TensorTypeNode>() : nullptr;
      if (!tensor) continue;
      if (std::string problem = limits::typeShapeProblem(tensor->shape); !problem.empty())
        return makeError(op + ": result shape: " + problem);
    }
    return result;
  };
}

}  // namespace

void declare(OpRegistry& registry, std::string name, std::string summary, std::vector<std::string> inputs,
             std::vector<AttrField> attrs, FusionKind fusion, TypeRelation relation, AttrNormalizer normalizer) {
  OpDef def;
  def.name = std::move(name);
  def.summary = std::move(summary);
  def.inputs = std::move(inputs);
  def.attrs = std::move(attrs);
  def.fusion = fusion;
  def.relation = refusingShapesBeyondLimits(def.name, std::move(relation));
  def.normalizer = std::move(normalizer);
  std::string registered = def.name;
  Status status = registry.add(std::move(def));
  BYOC_CHECK(status.isOk(), "duplicate op " + registered);
}

AttrField tvmRequired(std::string name, AttrValue defaultValue) {
  return AttrField{std::move(name), std::move(defaultValue), true};
}

TypeRelation sameAsFirstArg(const std::string& op) {
  return [op](const TypeRelationInput& input) -> Result<Type> {
    BYOC_ASSIGN_OR_RETURN(const TensorTypeNode* x, tensorArg(op, input, 0));
    return tensorType(x->shape, x->dtype);
  };
}

}  // namespace byoc::ops
