#pragma once
/// \file
/// The signature of `@main` as an export's manifest records it: its parameters and results as
/// tensors, tuples flattened. The writer records it; the reader checks the module against it.

#include <string>
#include <vector>

#include "export/manifest.h"
#include "ir/expr.h"
#include "support/result.h"

namespace byoc {

/// The tensors `main` (type-checked) takes, named after their parameters, and those it returns.
void signatureOf(const Function& main, std::vector<ManifestTensor>& inputs, std::vector<ManifestTensor>& outputs);

/// Checks that `manifest` records the signature of `main` (type-checked). The error names
/// `manifestPath`, the JSON path of the first entry that differs, and what `main` has there.
Status checkSignature(const Manifest& manifest, const Function& main, const std::string& manifestPath);

}  // namespace byoc
