#pragma once
/// \file
/// Printer of the Relay text format, laid out the way TVM prints (temporaries `%0`, `%1`, …
/// numbered in the order TVM numbers them, scopes for `if` branches and functions).

#include <string>
#include <vector>

#include "ir/expr.h"
#include "ir/module.h"

namespace byoc {

struct PrintOptions {
  /// Append `/* ty=… */` after each typed expression, as TVM does.
  bool showTypes = false;
  /// Append the metadata section with the values of non-scalar constants.
  bool showMetadata = true;
};

/// Where a printed node's text lies: 1-based lines and columns, columns counted in characters
/// (Unicode code points); the end is just past the node's last character.
struct TextRange {
  int line = 0;
  int column = 0;
  int endLine = 0;
  int endColumn = 0;
};

/// One node written in a printed text. A call, tuple, projection, `if`, `let` or function spans its
/// whole text (a temporary's range starts at `%N` of its `%N = …` line); a variable spans its
/// declaration; a constant spans its first use. Ops and global names have no range.
struct PrintedNode {
  /// Valid as long as the printed module or expression lives.
  const ExprNode* node = nullptr;
  TextRange range;
};

/// A printed text and the place of every node written in it.
struct PrintedText {
  std::string text;
  /// In the order the nodes were written (an enclosing node's range may come after its parts').
  std::vector<PrintedNode> nodes;
};

/// `#[version = "0.0.5"]` followed by every function as `def @name(…) { … }`.
std::string printModule(const Module& module, const PrintOptions& options = {});
/// `#[version = "0.0.5"]` followed by one expression (a function prints as `fn (…) { … }`).
std::string printExpr(const Expr& expr, const PrintOptions& options = {});
/// `printModule`, with the range of every node written.
PrintedText printModuleWithRanges(const Module& module, const PrintOptions& options = {});
/// `printExpr`, with the range of every node written.
PrintedText printExprWithRanges(const Expr& expr, const PrintOptions& options = {});

}  // namespace byoc
