#pragma once
/// \file
/// Python source text for values: string literals, numbers, attribute values, identifiers and
/// docstrings, each valid Python 3 whatever the input holds.

#include <set>
#include <string>
#include <string_view>

#include "ir/attrs.h"

namespace byoc {

/// A double-quoted Python string literal holding exactly `text` (UTF-8 passes through).
std::string pythonString(std::string_view text);
/// A Python float literal that reads back as `value` (`1.0`, `1e-05`, `float("inf")`).
std::string pythonFloat(double value);
/// The shortest Python float literal that reads back as the single-precision `value`.
std::string pythonFloat(float value);
/// The Python literal of an attribute value: `None`, `True`, `3`, `0.5`, `"NCHW"`, `[1, 1]`.
std::string pythonValue(const AttrValue& value);
/// A triple-quoted docstring holding `text`, its continuation lines indented by `indent`.
std::string pythonDocstring(std::string_view text, std::string_view indent);

/// `hint` made a Python identifier (other characters become `_`) that is not a keyword and not
/// in `taken`, with `_2`, `_3`, … appended when needed; the result is added to `taken`.
std::string uniquePythonName(std::string_view hint, std::set<std::string>& taken);

}  // namespace byoc
