#include "ir/type.h"

#include <functional>

#include "support/limits.h"

namespace byoc {

int64_t TensorTypeNode::numElements() const {
  // Readers and type relations refuse shapes beyond the limits, so a count past them comes from
  // no valid type; it reads as unknown rather than wrapping around.
  std::optional<int64_t> count = limits::elementCount(shape);
  return count ? *count : -1;
}

Type tensorType(Shape shape, DType dtype) { return makeRef<TensorTypeNode>(std::move(shape), dtype); }
Type scalarType(DType dtype) { return tensorType({}, dtype); }
Type tupleType(std::vector<Type> fields) { return makeRef<TupleTypeNode>(std::move(fields)); }
Type funcType(std::vector<Type> params, Type ret) {
  return makeRef<FuncTypeNode>(std::move(params), std::move(ret));
}

namespace {

bool typeListEqual(const std::vector<Type>& lhs, const std::vector<Type>& rhs) {
  if (lhs.size() != rhs.size()) return false;
  for (std::size_t i = 0; i < lhs.size(); ++i)
    if (!typeEqual(lhs[i], rhs[i])) return false;
  return true;
}

void hashCombine(std::size_t& seed, std::size_t value) {
  seed ^= value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

}  // namespace

// Types nest only as deep as their written form, so plain recursion is fine here.
bool typeEqual(const Type& lhs, const Type& rhs) {
  if (lhs == rhs) return true;
  if (!lhs || !rhs || lhs->kind() != rhs->kind()) return false;
  switch (lhs->kind()) {
    case TypeNode::Kind::Tensor: {
      const auto* a = lhs->as<TensorTypeNode>();
      const auto* b = rhs->as<TensorTypeNode>();
      return a->dtype == b->dtype && a->shape == b->shape;
    }
    case TypeNode::Kind::Tuple:
      return typeListEqual(lhs->as<TupleTypeNode>()->fields, rhs->as<TupleTypeNode>()->fields);
    case TypeNode::Kind::Func: {
      const auto* a = lhs->as<FuncTypeNode>();
      const auto* b = rhs->as<FuncTypeNode>();
      return typeListEqual(a->params, b->params) && typeEqual(a->ret, b->ret);
    }
  }
  return false;
}

std::size_t typeHash(const Type& type) {
  if (!type) return 0;
  std::size_t seed = static_cast<std::size_t>(type->kind()) + 1;
  switch (type->kind()) {
    case TypeNode::Kind::Tensor: {
      const auto* tensor = type->as<TensorTypeNode>();
      hashCombine(seed, static_cast<std::size_t>(tensor->dtype));
      for (int64_t dim : tensor->shape) hashCombine(seed, std::hash<int64_t>()(dim));
      break;
    }
    case TypeNode::Kind::Tuple:
      for (const Type& field : type->as<TupleTypeNode>()->fields) hashCombine(seed, typeHash(field));
      break;
    case TypeNode::Kind::Func: {
      const auto* func = type->as<FuncTypeNode>();
      for (const Type& param : func->params) hashCombine(seed, typeHash(param));
      hashCombine(seed, typeHash(func->ret));
      break;
    }
  }
  return seed;
}

namespace {

void appendTypeList(std::string& out, const std::vector<Type>& types) {
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (i) out += ", ";
    out += typeToString(types[i]);
  }
}

}  // namespace

std::string typeToString(const Type& type) {
  if (!type) return "?";
  switch (type->kind()) {
    case TypeNode::Kind::Tensor: {
      const auto* tensor = type->as<TensorTypeNode>();
      if (tensor->shape.empty()) return std::string(dtypeName(tensor->dtype));
      std::string out = "Tensor[(";
      for (std::size_t i = 0; i < tensor->shape.size(); ++i) {
        if (i) out += ", ";
        out += tensor->shape[i] == kAnyDim ? std::string("?") : std::to_string(tensor->shape[i]);
      }
      out += "), ";
      out += dtypeName(tensor->dtype);
      out += ']';
      return out;
    }
    case TypeNode::Kind::Tuple: {
      std::string out = "(";
      const auto& fields = type->as<TupleTypeNode>()->fields;
      appendTypeList(out, fields);
      if (fields.size() == 1) out += ',';
      out += ')';
      return out;
    }
    case TypeNode::Kind::Func: {
      const auto* func = type->as<FuncTypeNode>();
      std::string out = "fn (";
      appendTypeList(out, func->params);
      out += ") -> ";
      out += typeToString(func->ret);
      return out;
    }
  }
  return "?";
}

std::vector<const TypeNode*> flattenTupleTypes(const Type& type) {
  std::vector<const TypeNode*> leaves;
  std::vector<const TypeNode*> stack = {type.get()};
  while (!stack.empty()) {
    const TypeNode* node = stack.back();
    stack.pop_back();
    if (const auto* tuple = node ? node->as<TupleTypeNode>() : nullptr) {
      for (std::size_t i = tuple->fields.size(); i-- > 0;) stack.push_back(tuple->fields[i].get());
    } else {
      leaves.push_back(node);
    }
  }
  return leaves;
}

}  // namespace byoc
