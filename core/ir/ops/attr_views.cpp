#include "ir/ops/attr_views.h"

#include <numeric>

#include "ir/ops/op_helpers.h"

namespace byoc::ops {

Result<std::size_t> axisAttr(const std::string& op, const Attrs& attrs, std::size_t rank) {
  BYOC_ASSIGN_OR_RETURN(int64_t axis, intAttr(op, attrs, "axis"));
  BYOC_ASSIGN_OR_RETURN(axis, normalizeAxis(op, axis, rank));
  return static_cast<std::size_t>(axis);
}

Result<std::vector<std::size_t>> readTransposeAxes(const std::string& op, const Attrs& attrs, std::size_t rank) {
  std::vector<std::size_t> perm;
  const AttrValue* given = attrs.find("axes");
  if (!given || given->isNone()) {
    for (std::size_t i = rank; i-- > 0;) perm.push_back(i);
    return perm;
  }
  BYOC_ASSIGN_OR_RETURN(const std::vector<int64_t> axes, intsAttr(op, attrs, "axes"));
  if (axes.size() != rank) return makeError(op + ": axes must list " + std::to_string(rank) + " axes");
  std::vector<bool> seen(rank, false);
  for (int64_t axis : axes) {
    BYOC_ASSIGN_OR_RETURN(const int64_t normalized, normalizeAxis(op, axis, rank));
    const auto at = static_cast<std::size_t>(normalized);
    if (seen[at]) return makeError(op + ": axis " + std::to_string(normalized) + " appears twice");
    seen[at] = true;
    perm.push_back(at);
  }
  return perm;
}

Result<ClipAttrs> readClipAttrs(const std::string& op, const Attrs& attrs) {
  ClipAttrs clip;
  BYOC_ASSIGN_OR_RETURN(clip.low, floatAttr(op, attrs, "a_min"));
  BYOC_ASSIGN_OR_RETURN(clip.high, floatAttr(op, attrs, "a_max"));
  return clip;
}

Result<NormAttrs> readNormAttrs(const std::string& op, const Attrs& attrs, std::size_t rank) {
  NormAttrs norm;
  BYOC_ASSIGN_OR_RETURN(norm.axis, axisAttr(op, attrs, rank));
  BYOC_ASSIGN_OR_RETURN(norm.epsilon, floatAttr(op, attrs, "epsilon"));
  BYOC_ASSIGN_OR_RETURN(norm.center, requiredBoolAttr(op, attrs, "center"));
  BYOC_ASSIGN_OR_RETURN(norm.scale, requiredBoolAttr(op, attrs, "scale"));
  return norm;
}

Result<PadAttrs> readPadAttrs(const std::string& op, const Attrs& attrs) {
  PadAttrs pad;
  const AttrValue* width = attrs.find("pad_width");
  if (!width || !width->isList()) return makeError(op + ": attribute pad_width must be a list of [before, after] pairs");
  for (const AttrValue& entry : width->asList()) {
    const auto pair = entry.asInts();
    if (!pair || pair->size() != 2)
      return makeError(op + ": attribute pad_width entry " + std::to_string(pad.before.size()) + " must be [before, after], found " +
                       entry.str());
    pad.before.push_back((*pair)[0]);
    pad.after.push_back((*pair)[1]);
  }
  BYOC_ASSIGN_OR_RETURN(pad.mode, requiredStringAttr(op, attrs, "pad_mode"));
  return pad;
}

Result<StridedSliceAttrs> readStridedSliceAttrs(const std::string& op, const Attrs& attrs, std::size_t rank) {
  StridedSliceAttrs slice;
  BYOC_ASSIGN_OR_RETURN(slice.begin, intsAttr(op, attrs, "begin"));
  BYOC_ASSIGN_OR_RETURN(slice.end, intsAttr(op, attrs, "end"));
  if (const AttrValue* strides = attrs.find("strides"); strides && !strides->isNone()) {
    BYOC_ASSIGN_OR_RETURN(slice.strides, intsAttr(op, attrs, "strides"));
  }
  std::vector<int64_t> axes(slice.begin.size());
  std::iota(axes.begin(), axes.end(), 0);
  if (const AttrValue* given = attrs.find("axes"); given && !given->isNone()) {
    BYOC_ASSIGN_OR_RETURN(axes, intsAttr(op, attrs, "axes"));
  }
  if (slice.begin.size() != axes.size() || slice.end.size() != axes.size())
    return makeError(op + ": begin, end and axes must have the same length");
  for (int64_t axis : axes) {
    BYOC_ASSIGN_OR_RETURN(int64_t normalized, normalizeAxis(op, axis, rank));
    slice.axes.push_back(static_cast<std::size_t>(normalized));
  }
  slice.sizeMode = stringAttr(attrs, "slice_mode") == "size";
  return slice;
}

Result<WindowAttrs> readWindowAttrs(const std::string& op, const Attrs& attrs, std::size_t dims, bool pooled) {
  WindowAttrs w;
  auto read = [&](const char* name, std::size_t count, std::vector<int64_t>& into) -> Status {
    BYOC_ASSIGN_OR_RETURN(into, intsAttr(op, attrs, name));
    if (into.size() != count)
      return makeError(op + ": attribute " + name + " must have " + std::to_string(count) + " values, found " +
                       AttrValue::ints(into).str());
    return Status::ok();
  };
  if (pooled) BYOC_TRY(read("pool_size", dims, w.size));
  BYOC_TRY(read("strides", dims, w.strides));
  BYOC_TRY(read("dilation", dims, w.dilation));
  BYOC_TRY(read("padding", 2 * dims, w.padding));
  return w;
}

Result<ConvLayouts> readConvLayouts(const std::string& op, const Attrs& attrs) {
  ConvLayouts layouts;
  BYOC_ASSIGN_OR_RETURN(layouts.data, requiredStringAttr(op, attrs, "data_layout"));
  BYOC_ASSIGN_OR_RETURN(layouts.kernel, requiredStringAttr(op, attrs, "kernel_layout"));
  BYOC_ASSIGN_OR_RETURN(layouts.out, requiredStringAttr(op, attrs, "out_layout"));
  if (layouts.out.empty()) layouts.out = layouts.data;
  return layouts;
}

}  // namespace byoc::ops
