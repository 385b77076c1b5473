#pragma once
/// \file
/// Files shipped inside the binaries: the demo model and the built-in targets.

#include <optional>
#include <string_view>
#include <vector>

namespace byoc {

/// One embedded file, named by its path under resources/ (e.g. "models/demo.relay").
struct BuiltinResource {
  std::string_view name;
  std::string_view content;
};

/// Every embedded file.
const std::vector<BuiltinResource>& builtinResources();
/// The content of the embedded file `name`, if there is one.
std::optional<std::string_view> findBuiltinResource(std::string_view name);

/// Name of the built-in demo model (seed 000's while-loop of conv2d → bias_add → relu).
inline constexpr std::string_view kDemoModelName = "models/demo.relay";

}  // namespace byoc
