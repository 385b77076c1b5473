// The C emitter of the ccompiler plugin: one loop nest per kernel, shapes fixed at compile time.

#include "c_emitter.h"

#include <functional>
#include <map>
#include <sstream>

#include "byoc/codegen_plugin.h"

namespace ccompiler {

namespace {

using nlohmann::json;

/// A value the C code refers to: its expression and shape.
struct Value {
  std::string name;
  Shape shape;
};

/// One kernel being emitted: its node, argument values and output shape.
struct Kernel {
  std::string op;
  const json* attrs;
  std::vector<Value> args;
  Shape out;
};

std::string num(int64_t value) { return std::to_string(value) + "L"; }

/// An integer list attribute, with `fallback` when absent or null.
std::vector<int64_t> ints(const Kernel& k, const char* name, std::vector<int64_t> fallback) {
  if (!k.attrs || !k.attrs->contains(name) || (*k.attrs)[name].is_null()) return fallback;
  const json& value = (*k.attrs)[name];
  if (value.is_number_integer()) return {value.get<int64_t>()};
  std::vector<int64_t> list;
  if (value.is_array())
    for (const json& item : value)
      if (item.is_number_integer()) list.push_back(item.get<int64_t>());
  return list;
}

int64_t integer(const Kernel& k, const char* name, int64_t fallback) {
  std::vector<int64_t> list = ints(k, name, {fallback});
  return list.size() == 1 ? list[0] : fallback;
}

double real(const Kernel& k, const char* name, double fallback) {
  if (!k.attrs || !k.attrs->contains(name) || !(*k.attrs)[name].is_number()) return fallback;
  return (*k.attrs)[name].get<double>();
}

std::string text(const Kernel& k, const char* name) {
  if (!k.attrs || !k.attrs->contains(name) || !(*k.attrs)[name].is_string()) return "";
  return (*k.attrs)[name].get<std::string>();
}

bool flag(const Kernel& k, const char* name) {
  return k.attrs && k.attrs->contains(name) && (*k.attrs)[name].is_boolean() && (*k.attrs)[name].get<bool>();
}

/// `padding` as top, left, bottom, right (Relay accepts 1, 2 or 4 values).
std::vector<int64_t> padding4(const Kernel& k) {
  std::vector<int64_t> p = ints(k, "padding", {0, 0, 0, 0});
  if (p.size() == 1) return {p[0], p[0], p[0], p[0]};
  if (p.size() == 2) return {p[0], p[1], p[0], p[1]};
  return p;
}

/// A 2-element attribute (strides, dilation, pool_size), a single value meaning both.
std::vector<int64_t> pair(const Kernel& k, const char* name, int64_t fallback) {
  std::vector<int64_t> p = ints(k, name, {fallback, fallback});
  return p.size() == 1 ? std::vector<int64_t>{p[0], p[0]} : p;
}

using Emitter = std::function<bool(const Kernel&, std::ostream&, std::string&)>;

bool fail(std::string& error, const std::string& message) {
  error = message;
  return false;
}

/// Elementwise op of two operands broadcast to the output, as NumPy broadcasts.
Emitter binary(const char* expression) {
  return [expression](const Kernel& k, std::ostream& c, std::string& error) {
    if (k.args.size() != 2) return fail(error, k.op + " takes 2 inputs");
    const std::size_t rank = k.out.dims.size();
    // Each operand's stride along each output dimension (0 where it is broadcast).
    std::vector<std::vector<int64_t>> strides;
    for (const Value& arg : k.args) {
      if (arg.shape.dims.size() > rank) return fail(error, k.op + ": an input has a higher rank than the output");
      std::vector<int64_t> stride(rank, 0);
      int64_t step = 1;
      for (std::size_t d = arg.shape.dims.size(); d-- > 0;) {
        const std::size_t o = d + rank - arg.shape.dims.size();
        stride[o] = arg.shape.dims[d] == 1 ? 0 : step;
        step *= arg.shape.dims[d];
      }
      strides.push_back(stride);
    }
    c << "  long o = 0;\n";
    for (std::size_t d = 0; d < rank; ++d) c << "  for (long i" << d << " = 0; i" << d << " < " << num(k.out.dims[d]) << "; ++i" << d << ")\n";
    std::string index[2];
    for (int operand = 0; operand < 2; ++operand) {
      index[operand] = "0";
      for (std::size_t d = 0; d < rank; ++d)
        if (strides[operand][d]) index[operand] += " + i" + std::to_string(d) + " * " + num(strides[operand][d]);
    }
    c << "  {\n    const float a = x0[" << index[0] << "], b = x1[" << index[1] << "];\n    out[o++] = " << expression << ";\n  }\n";
    return true;
  };
}

/// Elementwise op of one operand.
Emitter unary(std::function<std::string(const Kernel&)> expression) {
  return [expression](const Kernel& k, std::ostream& c, std::string& error) {
    if (k.args.empty()) return fail(error, k.op + " takes an input");
    c << "  for (long i = 0; i < " << num(k.out.elements()) << "; ++i) {\n    const float a = x0[i];\n    out[i] = "
      << expression(k) << ";\n  }\n";
    return true;
  };
}

Emitter unary(const char* expression) {
  return unary([expression](const Kernel&) { return std::string(expression); });
}

/// Ops that only reinterpret the shape: a copy.
bool copy(const Kernel& k, std::ostream& c, std::string& error) {
  if (k.args.empty() || k.args[0].shape.elements() != k.out.elements()) return fail(error, k.op + ": element counts differ");
  c << "  memcpy(out, x0, sizeof(float) * " << num(k.out.elements()) << ");\n";
  return true;
}

bool biasAdd(const Kernel& k, std::ostream& c, std::string& error) {
  const int64_t rank = static_cast<int64_t>(k.out.dims.size());
  int64_t axis = integer(k, "axis", 1);
  if (axis < 0) axis += rank;
  if (k.args.size() != 2 || axis < 0 || axis >= rank) return fail(error, "nn.bias_add: bad axis or inputs");
  int64_t inner = 1;
  for (int64_t d = axis + 1; d < rank; ++d) inner *= k.out.dims[static_cast<std::size_t>(d)];
  c << "  for (long i = 0; i < " << num(k.out.elements()) << "; ++i) out[i] = x0[i] + x1[(i / " << num(inner) << ") % "
    << num(k.out.dims[static_cast<std::size_t>(axis)]) << "];\n";
  return true;
}

bool checkNchw(const Kernel& k, const char* attr, const char* expected, std::string& error) {
  const std::string layout = text(k, attr);
  if (!layout.empty() && layout != expected) return fail(error, k.op + ": only " + attr + " " + expected + " is supported, found " + layout);
  return true;
}

bool conv2d(const Kernel& k, std::ostream& c, std::string& error) {
  if (!checkNchw(k, "data_layout", "NCHW", error) || !checkNchw(k, "kernel_layout", "OIHW", error)) return false;
  if (k.args.size() != 2 || k.args[0].shape.dims.size() != 4 || k.args[1].shape.dims.size() != 4 || k.out.dims.size() != 4)
    return fail(error, "nn.conv2d: expected 4-d data, weight and result");
  const auto& x = k.args[0].shape.dims;
  const auto& w = k.args[1].shape.dims;
  const auto& o = k.out.dims;
  const int64_t groups = integer(k, "groups", 1);
  const std::vector<int64_t> s = pair(k, "strides", 1), d = pair(k, "dilation", 1), p = padding4(k);
  if (groups < 1 || x[1] % groups || o[1] % groups || w[1] * groups != x[1] || s.size() != 2 || d.size() != 2 || p.size() != 4)
    return fail(error, "nn.conv2d: groups, strides, dilation or padding do not fit the shapes");
  c << "  const long N = " << num(x[0]) << ", C = " << num(x[1]) << ", H = " << num(x[2]) << ", W = " << num(x[3]) << ";\n"
    << "  const long OC = " << num(o[1]) << ", OH = " << num(o[2]) << ", OW = " << num(o[3]) << ", KH = " << num(w[2])
    << ", KW = " << num(w[3]) << ";\n"
    << "  const long G = " << num(groups) << ", SH = " << num(s[0]) << ", SW = " << num(s[1]) << ", DH = " << num(d[0])
    << ", DW = " << num(d[1]) << ", PT = " << num(p[0]) << ", PL = " << num(p[1]) << ";\n"
    << "  const long CG = C / G, OCG = OC / G;\n"
    << "  memset(out, 0, sizeof(float) * N * OC * OH * OW);\n"
    << "  for (long n = 0; n < N; ++n)\n"
    << "    for (long oc = 0; oc < OC; ++oc) {\n"
    << "      float* y = out + (n * OC + oc) * OH * OW;\n"
    << "      const long g = oc / OCG;\n"
    << "      for (long icg = 0; icg < CG; ++icg) {\n"
    << "        const float* xi = x0 + (n * C + g * CG + icg) * H * W;\n"
    << "        for (long kh = 0; kh < KH; ++kh)\n"
    << "          for (long kw = 0; kw < KW; ++kw) {\n"
    << "            const float wv = x1[((oc * CG + icg) * KH + kh) * KW + kw];\n"
    << "            /* the output columns whose input column lies inside the image */\n"
    << "            const long off = kw * DW - PL;\n"
    << "            long lo = off >= 0 ? 0 : (-off + SW - 1) / SW;\n"
    << "            long hi = W - 1 - off < 0 ? 0 : (W - 1 - off) / SW + 1;\n"
    << "            if (hi > OW) hi = OW;\n"
    << "            for (long oh = 0; oh < OH; ++oh) {\n"
    << "              const long ih = oh * SH - PT + kh * DH;\n"
    << "              if (ih < 0 || ih >= H) continue;\n"
    << "              const float* row = xi + ih * W + off;\n"
    << "              float* yr = y + oh * OW;\n"
    << "              for (long ow = lo; ow < hi; ++ow) yr[ow] += wv * row[ow * SW];\n"
    << "            }\n"
    << "          }\n"
    << "      }\n"
    << "    }\n";
  return true;
}

bool dense(const Kernel& k, std::ostream& c, std::string& error) {
  if (k.args.size() != 2 || k.args[0].shape.dims.size() != 2 || k.args[1].shape.dims.size() != 2 ||
      k.args[0].shape.dims[1] != k.args[1].shape.dims[1])
    return fail(error, "nn.dense: expected data [N, K] and weight [M, K]");
  const int64_t n = k.args[0].shape.dims[0], kk = k.args[0].shape.dims[1], m = k.args[1].shape.dims[0];
  c << "  for (long n = 0; n < " << num(n) << "; ++n)\n"
    << "    for (long m = 0; m < " << num(m) << "; ++m) {\n"
    << "      float acc = 0.0f;\n"
    << "      for (long k = 0; k < " << num(kk) << "; ++k) acc += x0[n * " << num(kk) << " + k] * x1[m * " << num(kk) << " + k];\n"
    << "      out[n * " << num(m) << " + m] = acc;\n"
    << "    }\n";
  return true;
}

/// max_pool2d and avg_pool2d over NCHW.
Emitter pool(bool isMax) {
  return [isMax](const Kernel& k, std::ostream& c, std::string& error) {
    if (!checkNchw(k, "layout", "NCHW", error)) return false;
    if (k.args.empty() || k.args[0].shape.dims.size() != 4 || k.out.dims.size() != 4) return fail(error, k.op + ": expected 4-d data");
    const auto& x = k.args[0].shape.dims;
    const auto& o = k.out.dims;
    const std::vector<int64_t> w = pair(k, "pool_size", 1), s = pair(k, "strides", 1), d = pair(k, "dilation", 1), p = padding4(k);
    if (w.size() != 2 || s.size() != 2 || d.size() != 2 || p.size() != 4) return fail(error, k.op + ": bad window attributes");
    const bool includePad = flag(k, "count_include_pad");
    c << "  for (long nc = 0; nc < " << num(x[0] * x[1]) << "; ++nc)\n"
      << "    for (long oh = 0; oh < " << num(o[2]) << "; ++oh)\n"
      << "      for (long ow = 0; ow < " << num(o[3]) << "; ++ow) {\n"
      << "        float acc = " << (isMax ? "-INFINITY" : "0.0f") << ";\n        long count = 0;\n"
      << "        for (long kh = 0; kh < " << num(w[0]) << "; ++kh)\n"
      << "          for (long kw = 0; kw < " << num(w[1]) << "; ++kw) {\n"
      << "            const long ih = oh * " << num(s[0]) << " - " << num(p[0]) << " + kh * " << num(d[0]) << ";\n"
      << "            const long iw = ow * " << num(s[1]) << " - " << num(p[1]) << " + kw * " << num(d[1]) << ";\n"
      << "            if (ih < 0 || ih >= " << num(x[2]) << " || iw < 0 || iw >= " << num(x[3]) << ") continue;\n"
      << "            const float v = x0[(nc * " << num(x[2]) << " + ih) * " << num(x[3]) << " + iw];\n"
      << "            " << (isMax ? "if (v > acc) acc = v;" : "acc += v;") << "\n            ++count;\n"
      << "          }\n";
    if (isMax)
      c << "        out[(nc * " << num(o[2]) << " + oh) * " << num(o[3]) << " + ow] = acc;\n";
    else
      c << "        out[(nc * " << num(o[2]) << " + oh) * " << num(o[3]) << " + ow] = acc / (float)"
        << (includePad ? num(w[0] * w[1]) : "(count ? count : 1)") << ";\n";
    c << "      }\n";
    return true;
  };
}

bool globalAvgPool(const Kernel& k, std::ostream& c, std::string& error) {
  if (!checkNchw(k, "layout", "NCHW", error)) return false;
  if (k.args.empty() || k.args[0].shape.dims.size() != 4) return fail(error, k.op + ": expected 4-d data");
  const auto& x = k.args[0].shape.dims;
  c << "  for (long nc = 0; nc < " << num(x[0] * x[1]) << "; ++nc) {\n"
    << "    float acc = 0.0f;\n"
    << "    for (long i = 0; i < " << num(x[2] * x[3]) << "; ++i) acc += x0[nc * " << num(x[2] * x[3]) << " + i];\n"
    << "    out[nc] = acc / (float)" << num(x[2] * x[3]) << ";\n  }\n";
  return true;
}

bool softmax(const Kernel& k, std::ostream& c, std::string& error) {
  const int64_t rank = static_cast<int64_t>(k.out.dims.size());
  int64_t axis = integer(k, "axis", -1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return fail(error, "nn.softmax: bad axis");
  int64_t inner = 1, outer = 1;
  for (int64_t d = 0; d < rank; ++d) {
    if (d < axis) outer *= k.out.dims[static_cast<std::size_t>(d)];
    if (d > axis) inner *= k.out.dims[static_cast<std::size_t>(d)];
  }
  const int64_t n = k.out.dims[static_cast<std::size_t>(axis)];
  c << "  for (long a = 0; a < " << num(outer) << "; ++a)\n"
    << "    for (long b = 0; b < " << num(inner) << "; ++b) {\n"
    << "      const long base = a * " << num(n * inner) << " + b;\n"
    << "      float top = -INFINITY, sum = 0.0f;\n"
    << "      for (long i = 0; i < " << num(n) << "; ++i) if (x0[base + i * " << num(inner) << "] > top) top = x0[base + i * " << num(inner) << "];\n"
    << "      for (long i = 0; i < " << num(n) << "; ++i) sum += out[base + i * " << num(inner) << "] = expf(x0[base + i * " << num(inner) << "] - top);\n"
    << "      for (long i = 0; i < " << num(n) << "; ++i) out[base + i * " << num(inner) << "] /= sum;\n"
    << "    }\n";
  return true;
}

std::string clipExpression(const Kernel& k) {
  std::ostringstream e;
  e.precision(9);
  e << "fminf(fmaxf(a, " << real(k, "a_min", -3.4e38) << "f), " << real(k, "a_max", 3.4e38) << "f)";
  return e.str();
}

/// Every op the plugin compiles.
const std::map<std::string, Emitter>& emitters() {
  static const std::map<std::string, Emitter> table = {
      {"nn.conv2d", conv2d},
      {"nn.dense", dense},
      {"nn.bias_add", biasAdd},
      {"add", binary("a + b")},
      {"subtract", binary("a - b")},
      {"multiply", binary("a * b")},
      {"divide", binary("a / b")},
      {"maximum", binary("fmaxf(a, b)")},
      {"minimum", binary("fminf(a, b)")},
      {"nn.relu", unary("a > 0.0f ? a : 0.0f")},
      {"sigmoid", unary("1.0f / (1.0f + expf(-a))")},
      {"tanh", unary("tanhf(a)")},
      {"exp", unary("expf(a)")},
      {"sqrt", unary("sqrtf(a)")},
      {"clip", unary(clipExpression)},
      {"nn.max_pool2d", pool(true)},
      {"nn.avg_pool2d", pool(false)},
      {"nn.global_avg_pool2d", globalAvgPool},
      {"nn.softmax", softmax},
      {"nn.batch_flatten", copy},
      {"reshape", copy},
      {"squeeze", copy},
      {"expand_dims", copy},
  };
  return table;
}

/// A float32 tensor spec of the graph, or an error.
bool readSpec(const json& spec, Shape& shape, std::string& error) {
  if (!spec.is_object() || spec.value("dtype", "") != "float32" || !spec.contains("shape") || !spec["shape"].is_array())
    return fail(error, "only float32 tensors are supported, found " + spec.dump());
  for (const json& dim : spec["shape"]) {
    if (!dim.is_number_integer() || dim.get<int64_t>() < 0) return fail(error, "a shape holds " + dim.dump());
    shape.dims.push_back(dim.get<int64_t>());
  }
  return true;
}

/// The node and output an entry `[node, output]` refers to, among the first `before` nodes.
bool readEntry(const json& entry, const std::vector<Value>& values, std::size_t before, Value& value, std::string& error) {
  if (!entry.is_array() || entry.size() != 2 || !entry[0].is_number_integer() || !entry[1].is_number_integer())
    return fail(error, "expected [node, output], found " + entry.dump());
  const int64_t node = entry[0].get<int64_t>();
  if (node < 0 || node >= static_cast<int64_t>(before) || entry[1].get<int64_t>() != 0)
    return fail(error, "refers to a node output that does not come before: " + entry.dump());
  value = values[static_cast<std::size_t>(node)];
  return true;
}

}  // namespace

int64_t Shape::elements() const {
  int64_t count = 1;
  for (int64_t dim : dims) count *= dim;
  return count;
}

bool emitRegion(const json& graph, std::string& source, RegionSignature& signature, std::string& error) {
  if (!graph.is_object() || graph.value("format", "") != BYOC_CODEGEN_PLUGIN_REGION_FORMAT || !graph.contains("nodes") ||
      !graph["nodes"].is_array() || !graph.contains("heads") || !graph["heads"].is_array())
    return fail(error, "the region is not a " BYOC_CODEGEN_PLUGIN_REGION_FORMAT);
  std::ostringstream kernels, body;
  std::vector<Value> values;
  std::vector<std::string> temporaries;
  const json& nodes = graph["nodes"];
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const json& node = nodes[i];
    const std::string op = node.value("op", "");
    Value value;
    if (op == "input" || op == "const") {
      if (!readSpec(node, value.shape, error)) return false;
      if (op == "input") {
        value.name = "inputs[" + std::to_string(signature.inputs.size()) + "]";
        signature.inputs.push_back(value.shape);
      } else {
        value.name = "constants[" + std::to_string(signature.constants.size()) + "]";
        signature.constants.push_back(node.value("param", ""));
        signature.constantShapes.push_back(value.shape);
      }
      values.push_back(value);
      continue;
    }
    if (op != "kernel") return fail(error, "node " + std::to_string(i) + " is neither input, const nor kernel");
    Kernel k;
    k.op = node.value("name", "");
    k.attrs = node.contains("attrs") && node["attrs"].is_object() ? &node["attrs"] : nullptr;
    if (!node.contains("outputs") || !node["outputs"].is_array() || node["outputs"].size() != 1)
      return fail(error, k.op + ": only kernels with one output are supported");
    if (!readSpec(node["outputs"][0], k.out, error)) return false;
    if (!node.contains("inputs") || !node["inputs"].is_array()) return fail(error, k.op + ": no inputs");
    for (const json& entry : node["inputs"]) {
      Value arg;
      if (!readEntry(entry, values, i, arg, error)) return false;
      k.args.push_back(arg);
    }
    auto emitter = emitters().find(k.op);
    if (emitter == emitters().end()) return fail(error, "the ccompiler codegen does not compile " + k.op);
    const std::string fn = "kernel_" + std::to_string(i);
    kernels << "/* " << k.op << " -> [";
    for (std::size_t d = 0; d < k.out.dims.size(); ++d) kernels << (d ? ", " : "") << k.out.dims[d];
    kernels << "] */\nstatic void " << fn << "(";
    for (std::size_t a = 0; a < k.args.size(); ++a) kernels << "const float* restrict x" << a << ", ";
    kernels << "float* restrict out) {\n";
    if (!emitter->second(k, kernels, error)) return false;
    kernels << "}\n\n";
    value.name = "t" + std::to_string(i);
    value.shape = k.out;
    body << "  " << value.name << " = (float*)malloc(sizeof(float) * " << num(std::max<int64_t>(k.out.elements(), 1)) << ");\n"
         << "  if (!" << value.name << ") { status = 1; goto done; }\n";
    temporaries.push_back(value.name);
    body << "  " << fn << "(";
    for (const Value& arg : k.args) body << arg.name << ", ";
    body << value.name << ");\n";
    values.push_back(value);
  }
  for (std::size_t h = 0; h < graph["heads"].size(); ++h) {
    Value head;
    if (!readEntry(graph["heads"][h], values, values.size(), head, error)) return false;
    signature.outputs.push_back(head.shape);
    body << "  memcpy(outputs[" << h << "], " << head.name << ", sizeof(float) * " << num(head.shape.elements()) << ");\n";
  }
  std::ostringstream c;
  c << "/* One region, compiled by the ccompiler codegen plugin of BYOC Studio. Self-contained: build it with\n"
       "   cc -O2 -shared -fPIC region.c -lm. */\n"
       "#include <math.h>\n#include <stdlib.h>\n#include <string.h>\n\n"
    << kernels.str()
    << "/* Runs the region: inputs in parameter order, constants in artifact order, outputs preallocated.\n"
       "   Returns 0, or 1 when memory runs out. */\n"
       "int byoc_region_run(const float* const* inputs, float* const* outputs, const float* const* constants) {\n"
       "  int status = 0;\n";
  // Every temporary is declared up front so that `goto done` never jumps over an initialisation.
  for (const std::string& name : temporaries) c << "  float* " << name << " = NULL;\n";
  c << body.str() << "done:\n";
  for (const std::string& name : temporaries) c << "  free(" << name << ");\n";
  c << "  return status;\n}\n";
  source = c.str();
  return true;
}

}  // namespace ccompiler
