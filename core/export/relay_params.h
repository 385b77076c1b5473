#pragma once
/// \file
/// The parameters of a module printed as Relay text, written beside it as an `.npz`: one array per
/// constant of the text's metadata section, named as the text refers to it,
/// `meta[relay.Constant][i]` (so `numpy.load(f)["meta[relay.Constant][0]"]`). Scalar constants
/// are written inline in the text and have no array.

#include <string>
#include <string_view>

#include "support/result.h"

namespace byoc {

/// The name the Relay text gives its `index`-th metadata constant.
std::string relayConstantName(std::size_t index);

/// The `.npz` bytes of the metadata constants of `relayText` (as `printModule` writes it); an
/// archive without members when there are none.
Result<std::string> relayConstantsNpz(std::string_view relayText);

}  // namespace byoc
