#pragma once
/// \file
/// The node of the loaded model an IR node came from, as run-time errors name it: a model's
/// sizes and indices are the user's, so an error met while running says which of their nodes
/// it is about.

#include <string>

#include "ir/module.h"

namespace byoc {

/// The name the loaded model gave the first node of `origin` that has one, or "".
std::string sourceNodeName(const Module& module, const Origin& origin);

/// "node 'n' (Gather): " for an IR node that came from model node `n` of operator type Gather
/// ("node 'n': " without a known type), or "" when the model named none of `origin`'s nodes.
std::string sourceNodePrefix(const Module& module, const Origin& origin);

}  // namespace byoc
