#pragma once
/// \file
/// Numbers as messages print them.

#include <string>

namespace byoc {

/// `value` in its shortest exact decimal form: "0.5", "1048576", "nan", "-inf".
std::string numberText(double value);
/// `value` in the shortest form that reads back as the same float: "0.1", not 0.100000001….
std::string numberText(float value);

}  // namespace byoc
