#include "runtime/kernels/conv_params.h"

#include <string>

namespace byoc::kernels {

namespace {

/// Position of each letter of `canonical` in `layout`; error if `layout` is not a permutation of it.
Result<std::vector<std::size_t>> permutationTo(std::string_view op, const std::string& layout,
                                               std::string_view canonical) {
  std::vector<std::size_t> perm;
  for (char letter : canonical) {
    std::size_t at = layout.find(letter);
    if (layout.size() != canonical.size() || at == std::string::npos)
      return makeError(std::string(op) + ": unsupported layout \"" + layout + "\"");
    perm.push_back(at);
  }
  return perm;
}

std::vector<int64_t> ints(const Attrs& attrs, const char* name) {
  const AttrValue* value = attrs.find(name);
  auto list = value ? value->asInts() : std::nullopt;
  return list ? *list : std::vector<int64_t>{};
}

}  // namespace

bool ConvGeometry::canonical() const {
  for (std::size_t i = 0; i < 4; ++i)
    if (dataToNchw[i] != i || kernelToCanonical[i] != i) return false;
  return true;
}

Result<ConvGeometry> convGeometry(std::string_view op, const Attrs& attrs, const Shape& data, const Shape& weight,
                                  const Shape& output, bool transposed) {
  ConvGeometry g;
  const AttrValue* dataLayout = attrs.find("data_layout");
  const AttrValue* kernelLayout = attrs.find("kernel_layout");
  if (!dataLayout || !kernelLayout || !dataLayout->isString() || !kernelLayout->isString())
    return makeError(std::string(op) + ": missing data_layout or kernel_layout");
  BYOC_ASSIGN_OR_RETURN(g.dataToNchw, permutationTo(op, dataLayout->asString(), "NCHW"));
  BYOC_ASSIGN_OR_RETURN(g.kernelToCanonical, permutationTo(op, kernelLayout->asString(), transposed ? "IOHW" : "OIHW"));
  std::vector<int64_t> strides = ints(attrs, "strides");
  std::vector<int64_t> dilation = ints(attrs, "dilation");
  std::vector<int64_t> padding = ints(attrs, "padding");
  if (strides.size() != 2 || dilation.size() != 2 || padding.size() != 4 || data.size() != 4 || weight.size() != 4 ||
      output.size() != 4)
    return makeError(std::string(op) + ": expected 4-d operands, 2 strides, 2 dilations and 4 paddings");
  const auto& d = g.dataToNchw;
  const auto& k = g.kernelToCanonical;
  g.batch = data[d[0]];
  g.inChannels = data[d[1]];
  g.inHeight = data[d[2]];
  g.inWidth = data[d[3]];
  g.outChannels = output[d[1]];
  g.outHeight = output[d[2]];
  g.outWidth = output[d[3]];
  g.kernelHeight = weight[k[2]];
  g.kernelWidth = weight[k[3]];
  const AttrValue* groups = attrs.find("groups");
  g.groups = groups && groups->isInt() ? groups->asInt() : 1;
  g.strideH = strides[0];
  g.strideW = strides[1];
  g.dilationH = dilation[0];
  g.dilationW = dilation[1];
  g.padTop = padding[0];
  g.padLeft = padding[1];
  g.padBottom = padding[2];
  g.padRight = padding[3];
  return g;
}

}  // namespace byoc::kernels
