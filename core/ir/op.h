#pragma once
/// \file
/// The op registry: every primitive operator's name, inputs, attribute schema with
/// defaults, type relation (shape and dtype inference) and fusion kind.
///
/// Built-in ops are registered explicitly by `registerBuiltinOps` (ops/*.cpp) the
/// first time `OpRegistry::global()` is used; nothing registers itself statically.

#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ir/attrs.h"
#include "ir/expr.h"
#include "ir/type.h"
#include "support/result.h"

namespace byoc {

/// How an op may be fused with its neighbours (Relay's `TOpPattern`), in increasing order of restriction.
enum class FusionKind : unsigned char {
  Elementwise = 0,
  Broadcast = 1,
  Injective = 2,
  CommReduce = 3,
  OutElementwiseFusable = 4,
  Tuple = 7,
  Opaque = 8,
};

/// Lower-case name of a fusion kind ("elementwise", "out-elementwise-fusable", …).
std::string_view fusionKindName(FusionKind kind);

/// One attribute of an op's schema.
struct AttrField {
  std::string name;
  AttrValue defaultValue;
  /// TVM's Relay parser needs the field spelled out: TVM's attrs declare it without a default,
  /// or with a default other than ours. The printer always prints such a field.
  bool requiredByTvm = false;
};

/// What a type relation sees: the types of the call's arguments and its (normalised) attributes.
struct TypeRelationInput {
  std::span<const Type> args;
  const Attrs& attrs;
};

/// Computes the result type of a call, or says precisely why the inputs do not fit.
/// The message names no location: the caller adds where the call is.
using TypeRelation = std::function<Result<Type>(const TypeRelationInput&)>;

/// Canonicalises attribute values after defaults are filled (e.g. 2-element padding → 4 elements).
using AttrNormalizer = std::function<Result<Attrs>(Attrs)>;

/// The definition of one op.
struct OpDef {
  std::string name;
  std::string summary;
  /// Input names, in order; `variadic` ops take any number of inputs.
  std::vector<std::string> inputs;
  bool variadic = false;
  /// Attribute schema: the order is the printing order.
  std::vector<AttrField> attrs;
  TypeRelation relation;
  AttrNormalizer normalizer;
  FusionKind fusion = FusionKind::Opaque;
  /// The expression node naming this op; set by the registry.
  Op handle;

  /// The field named `name`, or null.
  const AttrField* field(std::string_view name) const;
};

/// Name → op definition. Definitions live as long as the registry; handles point into it.
class OpRegistry {
 public:
  /// The process-wide registry with every built-in op.
  static OpRegistry& global();

  /// Adds an op; returns an error if the name is taken.
  Status add(OpDef def);
  /// The op named `name`, or null.
  const OpDef* find(std::string_view name) const;
  /// The callee expression of `name`, or null if unknown.
  Op get(std::string_view name) const;
  /// All ops, sorted by name.
  std::vector<const OpDef*> all() const;

 private:
  std::map<std::string, std::unique_ptr<OpDef>, std::less<>> ops_;
};

/// Registers the built-in ops (nn.conv2d, add, reshape, …) into `registry`.
void registerBuiltinOps(OpRegistry& registry);

/// Fills the schema's defaults into `given`, rejects unknown attribute names and a given value of
/// another kind than its default's (a None default admits any), and applies the op's
/// normaliser. The result lists attributes in schema order.
Result<Attrs> normalizeAttrs(const OpDef& def, const Attrs& given);

/// Builds a call of the registered op `name` with normalised attributes; the error names an
/// unknown op or a bad attribute.
Result<Call> makeOpCall(std::string_view name, std::vector<Expr> args, const Attrs& attrs = {}, Origin origin = {});

}  // namespace byoc
