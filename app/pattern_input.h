#pragma once
/// \file
/// The pattern a command is given: `--pattern TEXT` or `--pattern-file F` (its JSON form when F
/// ends in .json), and a replacement for it: `--replace TEXT` or `--replace-file F`.

#include "cli_options.h"
#include "pattern/owned_pattern.h"
#include "pattern/replacement.h"
#include "support/result.h"

namespace byoc::cli {

/// The pattern of `--pattern` or `--pattern-file`.
Result<OwnedPattern> loadPattern(const Options& options);

/// The replacement of `--replace` or `--replace-file`, read against `pattern`.
Result<Replacement> loadReplacement(const Options& options, const Pattern& pattern);

}  // namespace byoc::cli
