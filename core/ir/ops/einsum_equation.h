#pragma once
/// \file
/// Einsum equations ("ij,jk->ik"): parsed once for the type relation and the reference kernel.

#include <string>
#include <vector>

#include "support/result.h"

namespace byoc::ops {

/// The subscripts of each operand and of the result, one letter per axis.
struct EinsumEquation {
  std::vector<std::string> operands;
  std::string result;
};

/// Parses `equation` written for `count` operands. Without "->" the result is every letter that
/// appears once, in alphabetical order (numpy's implicit mode). The error names what is wrong.
Result<EinsumEquation> parseEinsum(const std::string& equation, std::size_t count);

}  // namespace byoc::ops
