#pragma once
/// \file
/// Helpers shared by the op families: reading argument types and attributes inside type
/// relations, broadcasting, and a compact way to declare an op.

#include <optional>
#include <string>
#include <vector>

#include "ir/op.h"

namespace byoc::ops {

/// The tensor type of argument `index`, or an error naming the op and the argument.
Result<const TensorTypeNode*> tensorArg(const std::string& op, const TypeRelationInput& input, std::size_t index);

/// The integer list attribute `name` (error if absent or not a list of integers).
Result<std::vector<int64_t>> intsAttr(const std::string& op, const Attrs& attrs, const char* name);
/// The integer attribute `name`.
Result<int64_t> intAttr(const std::string& op, const Attrs& attrs, const char* name);
/// The number attribute `name` (an integer or a float).
Result<double> floatAttr(const std::string& op, const Attrs& attrs, const char* name);
/// The boolean attribute `name` (an integer counts as true when non-zero); false if absent.
bool boolAttr(const Attrs& attrs, const char* name);
/// The string attribute `name`, "" if None.
std::string stringAttr(const Attrs& attrs, const char* name);
/// The boolean attribute `name` (an integer counts as true when non-zero); error naming `op`
/// and the attribute if it is absent or of another kind. Also reads pass options.
Result<bool> requiredBoolAttr(const std::string& op, const Attrs& attrs, const char* name);
/// The string attribute `name`; error naming `op` and the attribute if it is absent or not a string.
Result<std::string> requiredStringAttr(const std::string& op, const Attrs& attrs, const char* name);

/// Normalises a possibly negative `axis` against `rank`; error if out of range.
Result<int64_t> normalizeAxis(const std::string& op, int64_t axis, std::size_t rank);

/// Numpy broadcasting of two shapes; the error names both shapes. An unknown dimension (`kAnyDim`)
/// against a known one other than 1 is that one (any other size would not broadcast); against 1
/// or another unknown it stays unknown.
Result<Shape> broadcastShapes(const std::string& op, const Shape& lhs, const Shape& rhs);

/// Whether two dimensions can be the same size: equal, or one of them unknown.
bool dimsCompatible(int64_t a, int64_t b);
/// The size two compatible dimensions share: the known one when the other is unknown.
int64_t unifyDims(int64_t a, int64_t b);
/// Whether every dimension of `shape` is known.
bool isStaticShape(const Shape& shape);

/// "?" for an unknown dimension, else its size.
std::string dimText(int64_t dim);
/// "(1, 3, 224, 224)"; "(?, 256)" with an unknown dimension.
std::string shapeText(const Shape& shape);

/// Normalises a list attribute to `count` values: one value repeats; for padding of an even
/// `count`, half as many values (the begins) repeat as the ends: [a, b] becomes [a, b, a, b].
/// Error if the list has another length.
Result<Attrs> expandListAttr(const std::string& op, Attrs attrs, const char* name, std::size_t count);

/// The permutation taking layout `src` to `dst` (output axis i is input axis perm[i]); both must
/// name the same axes, each once, as capital letters (packed layouts such as NCHW8c are refused).
Result<std::vector<std::size_t>> layoutPermutation(const std::string& op, const std::string& src, const std::string& dst);

/// Refuses a result of rank `rank` beyond `limits::kMaxRank`, before a shape of that rank is built.
Status checkResultRank(const std::string& op, int64_t rank);

/// The product of `shape[begin, end)`, or nothing on overflow of int64_t.
std::optional<int64_t> checkedProduct(const Shape& shape, std::size_t begin, std::size_t end);

/// A size computed from dimensions and attributes: a step that overflows int64_t makes it
/// invalid instead of wrapping around, and it stays invalid through later steps.
class CheckedSize {
 public:
  CheckedSize(int64_t value) : value_(value) {}  // NOLINT(google-explicit-constructor)
  /// The value, or nothing when a step overflowed.
  std::optional<int64_t> value() const { return value_; }

  friend CheckedSize operator+(CheckedSize a, CheckedSize b);
  friend CheckedSize operator-(CheckedSize a, CheckedSize b);
  friend CheckedSize operator*(CheckedSize a, CheckedSize b);
  /// Division rounding toward zero; `b` must be positive.
  friend CheckedSize operator/(CheckedSize a, CheckedSize b);

 private:
  explicit CheckedSize(std::optional<int64_t> value) : value_(value) {}
  std::optional<int64_t> value_;
};

/// Declares an op from its parts; its relation also refuses result shapes beyond the limits
/// (see support/limits.h), naming the op. Reports a duplicate name as an internal error.
void declare(OpRegistry& registry, std::string name, std::string summary, std::vector<std::string> inputs,
             std::vector<AttrField> attrs, FusionKind fusion, TypeRelation relation, AttrNormalizer normalizer = {});

/// A field TVM's Relay parser requires spelled out (see AttrField::requiredByTvm).
AttrField tvmRequired(std::string name, AttrValue defaultValue = {});

/// A relation returning the type of argument 0 unchanged (unary elementwise ops).
TypeRelation sameAsFirstArg(const std::string& op);

// One registration function per op family.
void registerElementwiseOps(OpRegistry& registry);
void registerBroadcastOps(OpRegistry& registry);
void registerConvolutionOps(OpRegistry& registry);
void registerDenseOps(OpRegistry& registry);
void registerNormalizationOps(OpRegistry& registry);
void registerPoolingOps(OpRegistry& registry);
void registerTransformOps(OpRegistry& registry);
void registerReduceOps(OpRegistry& registry);
void registerImageOps(OpRegistry& registry);
void registerAnnotationOps(OpRegistry& registry);
void registerSpatialNdOps(OpRegistry& registry);
void registerCreationOps(OpRegistry& registry);
void registerReplicateOps(OpRegistry& registry);
void registerAlgorithmOps(OpRegistry& registry);
void registerIndexingOps(OpRegistry& registry);
void registerVisionOps(OpRegistry& registry);
/// shape_of, dyn.reshape and argwhere: the ops of shapes known only at run time.
void registerDynamicShapeOps(OpRegistry& registry);
/// The qnn ops; registered after nn.conv2d and nn.dense, whose shapes they share.
void registerQnnOps(OpRegistry& registry);

}  // namespace byoc::ops
