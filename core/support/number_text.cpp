#include "support/number_text.h"

#include <charconv>

namespace byoc {

namespace {

template <typename T>
std::string shortest(T value) {
  char text[48];
  return std::string(text, std::to_chars(text, text + sizeof text, value).ptr);
}

}  // namespace

std::string numberText(double value) { return shortest(value); }

std::string numberText(float value) { return shortest(value); }

}  // namespace byoc
