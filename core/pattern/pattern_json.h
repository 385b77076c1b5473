#pragma once
/// \file
/// The JSON form of patterns, for files that keep patterns as data.
///
/// ```json
/// {"format": "byoc-studio-pattern", "version": 1, "root": 3,
///  "nodes": [{"kind": "op", "name": "nn.conv2d"}, {"kind": "wildcard"}, {"kind": "wildcard"},
///            {"kind": "call", "callee": 0, "args": [1, 2]}]}
/// ```
/// Nodes are listed children first; a node refers to its children by index, so a node used
/// twice is listed once (sharing survives). A wildcard's `redirect` may refer to any node
/// (recursive patterns). Every node may carry a `"label"` (its name in the text form). Kinds and their fields:
/// `wildcard` {redirect?}, `op` {name}, `global` {name}, `literal` {value: "1f"},
/// `var` {var?}, `constant`, `call` {callee, args?}, `function` {params?, body},
/// `tuple` {fields?}, `tuple_get_item` {tuple, index?}, `alt` {left, right},
/// `attr` {pattern, attrs}, `type` {pattern, type: "Tensor[(1), float32]"},
/// `dtype` {pattern, dtype}, `shape` {pattern, shape: [1, -1]}, `dominator` {parent, path, child},
/// `if` {cond, then, else}, `let` {var, value, body}. An absent list means "any".

#include <string>
#include <string_view>

#include "pattern/pattern.h"
#include "support/result.h"

namespace byoc {

/// Writes the JSON form; fails only for an expression pattern that is not an op, a global or
/// a scalar constant.
Result<std::string> serializePattern(const Pattern& pattern);

/// Reads the JSON form; errors name `fileName` and the JSON path of the offending value.
Result<Pattern> parsePatternJson(std::string_view json, std::string_view fileName = "<pattern.json>");

}  // namespace byoc
