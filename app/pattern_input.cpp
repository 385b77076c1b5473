#include "pattern_input.h"

#include "pattern/pattern_json.h"
#include "pattern/pattern_parser.h"
#include "support/file_io.h"

namespace byoc::cli {

namespace {

/// The text of `--<flag>` or of the file `--<flag>-file` names, with the name errors give.
Result<std::pair<std::string, std::string>> textOption(const Options& options, const std::string& flag) {
  if (std::optional<std::string> file = options.value(flag + "-file")) {
    BYOC_ASSIGN_OR_RETURN(std::string content, readFile(*file));
    return std::pair{std::move(content), *file};
  }
  if (std::optional<std::string> text = options.value(flag)) return std::pair{*text, flag};
  return makeError("give " + flag + " TEXT or " + flag + "-file FILE");
}

}  // namespace

Result<OwnedPattern> loadPattern(const Options& options) {
  BYOC_ASSIGN_OR_RETURN(auto source, textOption(options, "--pattern"));
  const auto& [text, name] = source;
  BYOC_ASSIGN_OR_RETURN(Pattern pattern, name.ends_with(".json") ? parsePatternJson(text, name) : parsePattern(text, name));
  return OwnedPattern(std::move(pattern));
}

Result<Replacement> loadReplacement(const Options& options, const Pattern& pattern) {
  BYOC_ASSIGN_OR_RETURN(auto source, textOption(options, "--replace"));
  return Replacement::parse(source.first, pattern, source.second);
}

}  // namespace byoc::cli
