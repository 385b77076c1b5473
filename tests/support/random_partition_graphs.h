#pragma once
/// \file
/// Random graphs for checking the partitioning passes against their simple oracles: plain graphs
/// of composite calls of several codegens (MergeCompositeFunctions' grouping), and Relay functions
/// of elementwise ops with tuples, Ifs and lets, with targets that each support a random set of
/// those ops (MergeCompilerRegions). `choose(n)` gives a number in [0, n): a seeded generator in
/// the tests, the fuzzer's bytes in the fuzz target.

#include <functional>
#include <string>
#include <vector>

namespace byoc::testing {

using Choose = std::function<int(int)>;

/// An operand of node `node`: mostly a recent one, sometimes one far back (a skip edge).
inline int randomOperand(const Choose& choose, int node) {
  if (choose(4) == 0) return choose(node);
  return node - 1 - choose(std::min(node, 4));
}

/// A graph in binding order: what each node reads and its codegen ("" for a node that is not a
/// composite call), among `codegenCount` codegens.
struct CodegenGraph {
  std::vector<std::vector<int>> operands;
  std::vector<std::string> codegens;
};

inline CodegenGraph randomCodegenGraph(const Choose& choose, int nodes, int codegenCount) {
  CodegenGraph graph;
  const int hostShare = choose(4);  // 0 to 3 in 8 nodes are host nodes
  for (int node = 0; node < nodes; ++node) {
    std::vector<int> operands;
    const int fanIn = node == 0 ? 0 : choose(4);
    for (int k = 0; k < fanIn; ++k) operands.push_back(randomOperand(choose, node));
    graph.operands.push_back(std::move(operands));
    graph.codegens.push_back(choose(8) < hostShare ? "" : std::string(1, static_cast<char>('a' + choose(codegenCount))));
  }
  return graph;
}

inline const std::vector<std::string>& randomGraphUnaryOps() {
  static const std::vector<std::string> ops{"tanh", "nn.relu", "sigmoid"};
  return ops;
}
inline const std::vector<std::string>& randomGraphBinaryOps() {
  static const std::vector<std::string> ops{"add", "multiply", "subtract", "maximum", "minimum"};
  return ops;
}

/// Relay text of `@main` over `nodes` values: elementwise calls on float32 vectors of 2 reading
/// recent and far-back values, with tuples read by index and, as asked, Ifs on a boolean parameter
/// and lets (which the region set refuses where a region reads them, as TVM's does).
struct RandomFunctionForms {
  bool ifs = true;
  bool lets = false;
};

inline std::string randomRelayFunction(const Choose& choose, int nodes, RandomFunctionForms forms) {
  const auto& unary = randomGraphUnaryOps();
  const auto& binary = randomGraphBinaryOps();
  std::vector<std::string> values{"%x0", "%x1"};
  std::string body;
  int next = 0;
  auto value = [&] { return values[randomOperand(choose, static_cast<int>(values.size()))]; };
  auto call = [&] {
    if (choose(3) == 0) return unary[choose(static_cast<int>(unary.size()))] + "(" + value() + ")";
    return binary[choose(static_cast<int>(binary.size()))] + "(" + value() + ", " + value() + ")";
  };
  for (int i = 0; i < nodes; ++i) {
    const std::string name = "%" + std::to_string(next++);
    int form = choose(forms.lets ? 10 : 9);
    if (form == 1 && !forms.ifs) form = 2;
    switch (form) {
      case 0: {  // a tuple read by index
        const std::string tuple = "%" + std::to_string(next++);
        body += "  " + tuple + " = (" + value() + ", " + call() + ");\n";
        body += "  " + name + " = " + tuple + "." + std::to_string(choose(2)) + ";\n";
        break;
      }
      case 1: body += "  " + name + " = if (%c) { " + call() + " } else { " + call() + " };\n"; break;
      case 9: {
        const std::string let = "%v" + std::to_string(next);
        body += "  let " + let + ": Tensor[(2), float32] = " + call() + ";\n";
        values.push_back(let);
        continue;
      }
      default: body += "  " + name + " = " + call() + ";\n";
    }
    values.push_back(name);
  }
  std::string result = "(" + values.back();
  for (int k = 0, extra = choose(3); k < extra; ++k) result += ", " + value();
  return "#[version = \"0.0.5\"]\ndef @main(%x0: Tensor[(2), float32], %x1: Tensor[(2), float32], %c: bool) {\n" + body + "  " +
         result + ")\n}\n";
}

/// Target files for `count` targets `t0`, `t1`, … each supporting a random set of the ops above.
inline std::vector<std::string> randomTargetFiles(const Choose& choose, int count) {
  std::vector<std::string> ops = randomGraphUnaryOps();
  ops.insert(ops.end(), randomGraphBinaryOps().begin(), randomGraphBinaryOps().end());
  std::vector<std::string> files;
  for (int t = 0; t < count; ++t) {
    std::string rules;
    for (const std::string& op : ops)
      if (choose(2)) rules += (rules.empty() ? "" : ", ") + op;
    files.push_back(R"({"format": "byoc-studio-target", "version": 1, "name": "t)" + std::to_string(t) +
                    R"(", "codegen": "", "op_rules": [)" + (rules.empty() ? "" : "\"" + rules + "\"") + "]}");
  }
  return files;
}

}  // namespace byoc::testing
