#pragma once
/// \file
/// Parser of the Relay text format (`#[version = "0.0.5"]`).
///
/// Accepts a module (`def @name(…) { … }` definitions) or a single function expression
/// (`fn (…) { … }`, which becomes `@main`), plus the optional metadata section holding the
/// constants referred to as `meta[relay.Constant][i]`. Every node created gets a fresh
/// `NodeId` as its origin, and the module's provenance maps it to its line and column.

#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "ir/tensor_data.h"
#include "support/result.h"

namespace byoc {

/// Parses `text`; `fileName` is used in locations. Errors are `file:line:col: found X, expected Y`.
Result<Module> parseModule(std::string_view text, std::string_view fileName = "<input>");

/// The constants of the metadata section of `text`, in the order `meta[relay.Constant][i]` refers
/// to them; none when there is no section. Errors name `fileName` and the section's line.
Result<std::vector<TensorData>> parseMetadataConstants(std::string_view text, std::string_view fileName = "<input>");

}  // namespace byoc
