#include "ir/ops/einsum_equation.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace byoc::ops {

namespace {

bool isLetter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

}  // namespace

Result<EinsumEquation> parseEinsum(const std::string& equation, std::size_t count) {
  const std::string quoted = "einsum: equation \"" + equation + "\"";
  for (char c : equation) {
    if (c == '.') return makeError(quoted + ": ellipsis ('...') is not supported; name every axis");
    if (!isLetter(c) && c != ',' && c != '-' && c != '>' && c != ' ')
      return makeError(quoted + ": unexpected character '" + std::string(1, c) + "'; expected letters, ',' and '->'");
  }
  std::string text;
  std::copy_if(equation.begin(), equation.end(), std::back_inserter(text), [](char c) { return c != ' '; });
  EinsumEquation parsed;
  const std::size_t arrow = text.find("->");
  const std::string inputs = text.substr(0, arrow);
  if (arrow != std::string::npos) {
    parsed.result = text.substr(arrow + 2);
    if (parsed.result.find_first_of("->") != std::string::npos) return makeError(quoted + ": more than one '->'");
  }
  if (inputs.find_first_of("->") != std::string::npos) return makeError(quoted + ": '-' or '>' outside '->'");
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = inputs.find(',', start);
    parsed.operands.push_back(inputs.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (parsed.operands.size() != count)
    return makeError(quoted + " names " + std::to_string(parsed.operands.size()) + " operand(s) but " +
                     std::to_string(count) + " were given");
  std::map<char, int> uses;
  for (const std::string& operand : parsed.operands)
    for (char c : operand) ++uses[c];
  if (arrow == std::string::npos) {
    for (const auto& [letter, n] : uses)
      if (n == 1) parsed.result += letter;
    return parsed;
  }
  for (std::size_t i = 0; i < parsed.result.size(); ++i) {
    const char c = parsed.result[i];
    if (!uses.count(c)) return makeError(quoted + ": output subscript '" + std::string(1, c) + "' appears in no operand");
    if (parsed.result.find(c, i + 1) != std::string::npos)
      return makeError(quoted + ": output subscript '" + std::string(1, c) + "' appears more than once");
  }
  return parsed;
}

}  // namespace byoc::ops
