#include "ir/type.h"

#include <functional>
#include <utility>
#include <variant>
#include <vector>

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

void hashCombine(std::size_t& seed, std::size_t value) {
  seed ^= value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

}  // namespace

// The walks below are iterative: a type built by inference nests as deep as the tuples of its
// program, which bindings (`%1 = (%0,);`) make as deep as the program is long.

bool typeEqual(const Type& lhs, const Type& rhs) {
  // The usual questions (one node, or two tensor types) need no stack: passes ask them per node.
  if (lhs.get() == rhs.get()) return true;
  if (!lhs || !rhs || lhs->kind() != rhs->kind()) return false;
  if (const auto* x = lhs->as<TensorTypeNode>()) {
    const auto* y = rhs->as<TensorTypeNode>();
    return x->dtype == y->dtype && x->shape == y->shape;
  }
  std::vector<std::pair<const TypeNode*, const TypeNode*>> stack = {{lhs.get(), rhs.get()}};
  auto pushPairs = [&stack](const std::vector<Type>& a, const std::vector<Type>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) stack.emplace_back(a[i].get(), b[i].get());
    return true;
  };
  while (!stack.empty()) {
    auto [a, b] = stack.back();
    stack.pop_back();
    if (a == b) continue;
    if (!a || !b || a->kind() != b->kind()) return false;
    switch (a->kind()) {
      case TypeNode::Kind::Tensor: {
        const auto* x = a->as<TensorTypeNode>();
        const auto* y = b->as<TensorTypeNode>();
        if (x->dtype != y->dtype || x->shape != y->shape) return false;
        break;
      }
      case TypeNode::Kind::Tuple:
        if (!pushPairs(a->as<TupleTypeNode>()->fields, b->as<TupleTypeNode>()->fields)) return false;
        break;
      case TypeNode::Kind::Func: {
        const auto* x = a->as<FuncTypeNode>();
        const auto* y = b->as<FuncTypeNode>();
        if (!pushPairs(x->params, y->params)) return false;
        stack.emplace_back(x->ret.get(), y->ret.get());
        break;
      }
    }
  }
  return true;
}

std::size_t typeHash(const Type& type) {
  // Hashes the pre-order sequence of nodes, with each node's kind and field count.
  std::size_t seed = 0;
  std::vector<const TypeNode*> stack = {type.get()};
  auto pushReversed = [&stack, &seed](const std::vector<Type>& types) {
    hashCombine(seed, types.size());
    for (std::size_t i = types.size(); i-- > 0;) stack.push_back(types[i].get());
  };
  while (!stack.empty()) {
    const TypeNode* node = stack.back();
    stack.pop_back();
    if (!node) {
      hashCombine(seed, 0);
      continue;
    }
    hashCombine(seed, static_cast<std::size_t>(node->kind()) + 1);
    switch (node->kind()) {
      case TypeNode::Kind::Tensor: {
        const auto* tensor = node->as<TensorTypeNode>();
        hashCombine(seed, static_cast<std::size_t>(tensor->dtype));
        hashCombine(seed, tensor->shape.size());
        for (int64_t dim : tensor->shape) hashCombine(seed, std::hash<int64_t>()(dim));
        break;
      }
      case TypeNode::Kind::Tuple:
        pushReversed(node->as<TupleTypeNode>()->fields);
        break;
      case TypeNode::Kind::Func: {
        const auto* func = node->as<FuncTypeNode>();
        stack.push_back(func->ret.get());
        pushReversed(func->params);
        break;
      }
    }
  }
  return seed;
}

namespace {

std::string tensorTypeText(const TensorTypeNode& tensor) {
  if (tensor.shape.empty()) return std::string(dtypeName(tensor.dtype));
  std::string out = "Tensor[(";
  for (std::size_t i = 0; i < tensor.shape.size(); ++i) {
    if (i) out += ", ";
    out += tensor.shape[i] == kAnyDim ? std::string("?") : std::to_string(tensor.shape[i]);
  }
  out += "), ";
  out += dtypeName(tensor.dtype);
  out += ']';
  return out;
}

}  // namespace

std::string typeToString(const Type& type) {
  // A stack of what is left to write: types, and the punctuation between them.
  using Item = std::variant<const TypeNode*, const char*>;
  std::vector<Item> stack = {type.get()};
  auto pushList = [&stack](const std::vector<Type>& types) {
    for (std::size_t i = types.size(); i-- > 0;) {
      stack.emplace_back(types[i].get());
      if (i) stack.emplace_back(", ");
    }
  };
  std::string out;
  while (!stack.empty()) {
    Item item = stack.back();
    stack.pop_back();
    if (const char* const* text = std::get_if<const char*>(&item)) {
      out += *text;
      continue;
    }
    const TypeNode* node = std::get<const TypeNode*>(item);
    if (!node) {
      out += '?';
      continue;
    }
    switch (node->kind()) {
      case TypeNode::Kind::Tensor:
        out += tensorTypeText(*node->as<TensorTypeNode>());
        break;
      case TypeNode::Kind::Tuple: {
        const auto& fields = node->as<TupleTypeNode>()->fields;
        out += '(';
        stack.emplace_back(fields.size() == 1 ? ",)" : ")");
        pushList(fields);
        break;
      }
      case TypeNode::Kind::Func: {
        const auto* func = node->as<FuncTypeNode>();
        out += "fn (";
        stack.emplace_back(func->ret.get());
        stack.emplace_back(") -> ");
        pushList(func->params);
        break;
      }
    }
  }
  return out;
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
