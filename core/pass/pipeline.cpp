/// \file
/// Pipeline text: a small hand-written scanner over one line, with columns in every error.

#include "pass/pipeline.h"

#include <cctype>
#include <charconv>
#include <cstdio>

namespace byoc {

namespace {

bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-'; }

/// Reads a pipeline left to right; `pos_` is a 0-based offset, columns are 1-based.
class PipelineParser {
 public:
  PipelineParser(std::string_view text, const PassRegistry& registry) : text_(text), registry_(registry) {}

  Result<std::vector<PipelineStep>> parse() {
    std::vector<PipelineStep> steps;
    skipSpaces();
    if (atEnd()) return error("expected a pass name, found the end of the pipeline");
    while (true) {
      BYOC_ASSIGN_OR_RETURN(PipelineStep step, parseStep());
      steps.push_back(std::move(step));
      skipSpaces();
      if (atEnd()) return steps;
      if (!accept(',')) return error("expected ',' or the end of the pipeline, found '" + std::string(1, peek()) + "'");
      skipSpaces();
    }
  }

 private:
  Result<PipelineStep> parseStep() {
    PipelineStep step;
    step.column = column();
    std::string name = readName();
    if (name.empty()) return error(std::string("expected a pass name, found ") + describeHere());
    const PassRegistration* registration = registry_.find(name);
    if (!registration) return error("unknown pass '" + name + "'", step.column);
    step.pass = name;
    skipSpaces();
    if (!accept('(')) return step;
    skipSpaces();
    if (accept(')')) return step;
    while (true) {
      BYOC_TRY(parseOption(registration->info, step.options));
      skipSpaces();
      if (accept(')')) return step;
      if (!accept(',')) return error(std::string("expected ',' or ')', found ") + describeHere());
      skipSpaces();
    }
  }

  Status parseOption(const PassInfo& pass, Attrs& options) {
    int nameColumn = column();
    std::string name = readName();
    if (name.empty()) return error(std::string("expected an option name, found ") + describeHere());
    const PassOption* option = nullptr;
    for (const PassOption& candidate : pass.options)
      if (candidate.name == name) option = &candidate;
    if (!option) {
      Result<Attrs> check = completePassOptions(pass, Attrs{{name, AttrValue()}});
      return error(check.error().message, nameColumn);
    }
    if (options.contains(name)) return error("option '" + name + "' is given twice", nameColumn);
    skipSpaces();
    if (!accept('=')) return error("expected '=' after option '" + name + "', found " + describeHere());
    skipSpaces();
    int valueColumn = column();
    BYOC_ASSIGN_OR_RETURN(AttrValue value, readValue(pass, *option, valueColumn));
    options.set(name, std::move(value));
    return Status::ok();
  }

  /// Reads one value as the kind of `option`'s default.
  Result<AttrValue> readValue(const PassInfo& pass, const PassOption& option, int valueColumn) {
    std::string word;
    bool quoted = false;
    if (accept('"')) {
      quoted = true;
      while (!atEnd() && peek() != '"') word += text_[pos_++];
      if (!accept('"')) return error("unterminated string", valueColumn);
    } else {
      word = readName();
    }
    if (word.empty() && !quoted) return error(std::string("expected a value, found ") + describeHere());
    const AttrValue& model = option.defaultValue;
    auto bad = [&](const char* expected) {
      return error("bad value '" + word + "' for option '" + option.name + "' of " + pass.name + ": expected " +
                       expected,
                   valueColumn);
    };
    if (model.isString()) return AttrValue(word);
    if (quoted) return bad(model.isBool() ? "true or false" : model.isInt() ? "an integer" : "a number");
    if (model.isBool()) {  // Python's spelling too, as TVM users write it
      if (word == "true" || word == "True" || word == "1") return AttrValue(true);
      if (word == "false" || word == "False" || word == "0") return AttrValue(false);
      return bad("true or false");
    }
    if (model.isInt()) {
      int64_t value = 0;
      auto [end, code] = std::from_chars(word.data(), word.data() + word.size(), value);
      if (code != std::errc() || end != word.data() + word.size()) return bad("an integer");
      return AttrValue(value);
    }
    double value = 0;
    auto [end, code] = std::from_chars(word.data(), word.data() + word.size(), value);
    if (code != std::errc() || end != word.data() + word.size()) return bad("a number");
    return AttrValue(value);
  }

  std::string readName() {
    std::size_t start = pos_;
    while (!atEnd() && isNameChar(peek())) ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }

  std::string describeHere() const {
    return atEnd() ? std::string("the end of the pipeline") : "'" + std::string(1, peek()) + "'";
  }

  Diagnostic error(std::string message, int at = 0) const {
    return makeError(std::move(message), SourceLocation{"<pipeline>", 1, at ? at : column()});
  }

  void skipSpaces() {
    while (!atEnd() && std::isspace(static_cast<unsigned char>(peek()))) ++pos_;
  }
  bool accept(char c) {
    if (atEnd() || peek() != c) return false;
    ++pos_;
    return true;
  }
  bool atEnd() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }
  int column() const { return static_cast<int>(pos_) + 1; }

  std::string_view text_;
  const PassRegistry& registry_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string pipelineValueText(const AttrValue& value) {
  if (value.isBool()) return value.asBool() ? "true" : "false";
  if (value.isInt()) return std::to_string(value.asInt());
  if (value.isFloat()) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", value.asFloat());
    return buffer;
  }
  if (value.isString()) {
    const std::string& text = value.asString();
    bool bare = !text.empty();
    for (char c : text) bare = bare && isNameChar(c);
    return bare ? text : "\"" + text + "\"";
  }
  return value.str();
}

Result<std::vector<PipelineStep>> parsePipeline(std::string_view text, const PassRegistry& registry) {
  return PipelineParser(text, registry).parse();
}

std::string printPipeline(std::span<const PipelineStep> steps) {
  std::string out;
  for (const PipelineStep& step : steps) {
    if (!out.empty()) out += ",";
    out += step.pass;
    if (step.options.empty()) continue;
    out += "(";
    bool first = true;
    for (const auto& [name, value] : step.options.entries()) {
      out += (first ? "" : ", ") + name + "=" + pipelineValueText(value);
      first = false;
    }
    out += ")";
  }
  return out;
}

Result<std::vector<PassPtr>> createPipelinePasses(std::span<const PipelineStep> steps, const PassRegistry& registry) {
  std::vector<PassPtr> passes;
  passes.reserve(steps.size());
  for (const PipelineStep& step : steps) {
    Result<PassPtr> pass = registry.create(step.pass, step.options);
    if (!pass) {
      Diagnostic error = pass.error();
      // An error with a place of its own (a target file named by an option) keeps it.
      if (step.column > 0 && error.location.file.empty()) error.location = SourceLocation{"<pipeline>", 1, step.column};
      return error;
    }
    passes.push_back(std::move(pass).value());
  }
  return passes;
}

Result<PassPtr> buildPipeline(std::span<const PipelineStep> steps, const PassRegistry& registry, std::string name) {
  BYOC_ASSIGN_OR_RETURN(std::vector<PassPtr> passes, createPipelinePasses(steps, registry));
  return makeSequential(std::move(passes), std::move(name));
}

}  // namespace byoc
