#include "runtime/npy.h"

#include <cctype>
#include <cstring>
#include <optional>

#include "support/file_io.h"
#include "support/limits.h"

namespace byoc {

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

/// NumPy's `descr` for each dtype ('|' marks single-byte types, '<' little-endian).
struct DescrEntry {
  DType dtype;
  std::string_view descr;
};

constexpr DescrEntry kDescrs[] = {
    {DType::Float32, "<f4"}, {DType::Float16, "<f2"}, {DType::Float64, "<f8"}, {DType::Int8, "|i1"},
    {DType::Int16, "<i2"},   {DType::Int32, "<i4"},   {DType::Int64, "<i8"},   {DType::UInt8, "|u1"},
    {DType::Bool, "|b1"},
};

std::optional<DType> dtypeOfDescr(std::string_view descr) {
  for (const DescrEntry& entry : kDescrs) {
    if (entry.descr == descr) return entry.dtype;
    // Single-byte types may also be written with '<' or '='.
    if (entry.descr[0] == '|' && descr.size() == 3 && (descr[0] == '<' || descr[0] == '=') &&
        descr.substr(1) == entry.descr.substr(1))
      return entry.dtype;
  }
  return std::nullopt;
}

/// A cursor over the Python-literal header dictionary.
class HeaderReader {
 public:
  explicit HeaderReader(std::string_view text) : text_(text) {}

  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool consume(char c) {
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  std::optional<std::string> quoted() {
    skipSpace();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) return std::nullopt;
    char quote = text_[pos_++];
    std::size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos) return std::nullopt;
    std::string value(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return value;
  }
  std::optional<bool> boolean() {
    skipSpace();
    for (auto [word, value] : {std::pair{std::string_view("True"), true}, std::pair{std::string_view("False"), false}}) {
      if (text_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        return value;
      }
    }
    return std::nullopt;
  }
  std::optional<Shape> shape() {
    if (!consume('(')) return std::nullopt;
    Shape shape;
    while (!consume(')')) {
      skipSpace();
      std::size_t start = pos_;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
      if (start == pos_ || pos_ - start > 15) return std::nullopt;
      shape.push_back(std::stoll(std::string(text_.substr(start, pos_ - start))));
      if (!consume(',')) {
        if (!consume(')')) return std::nullopt;
        break;
      }
    }
    return shape;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

struct Header {
  DType dtype;
  bool fortranOrder;
  Shape shape;
};

Result<Header> parseHeader(std::string_view text, const std::string& name) {
  auto fail = [&](const std::string& what) { return makeError("bad .npy header: " + what, {name}); };
  HeaderReader reader(text);
  if (!reader.consume('{')) return fail("expected a dictionary starting with '{'");
  std::optional<std::string> descr;
  std::optional<bool> fortran;
  std::optional<Shape> shape;
  while (!reader.consume('}')) {
    std::optional<std::string> key = reader.quoted();
    if (!key) return fail("expected a quoted key");
    if (!reader.consume(':')) return fail("expected ':' after '" + *key + "'");
    if (*key == "descr") {
      descr = reader.quoted();
      if (!descr) return fail("'descr' must be a string");
    } else if (*key == "fortran_order") {
      fortran = reader.boolean();
      if (!fortran) return fail("'fortran_order' must be True or False");
    } else if (*key == "shape") {
      shape = reader.shape();
      if (!shape) return fail("'shape' must be a tuple of non-negative integers");
    } else {
      return fail("unknown key '" + *key + "'");
    }
    if (!reader.consume(',')) {
      if (!reader.consume('}')) return fail("expected ',' or '}'");
      break;
    }
  }
  if (!descr || !fortran || !shape) return fail("expected the keys 'descr', 'fortran_order' and 'shape'");
  std::optional<DType> dtype = dtypeOfDescr(*descr);
  if (!dtype)
    return makeError("unsupported .npy dtype '" + *descr +
                         "'; expected little-endian float16/32/64, int8/16/32/64, uint8 or bool",
                     {name});
  if (*fortran) return makeError("Fortran-ordered .npy arrays are not supported; save in C order", {name});
  if (const std::string problem = limits::shapeProblem(*shape); !problem.empty()) return fail("'shape': " + problem);
  return Header{*dtype, false, *shape};
}

uint32_t littleEndian(std::string_view bytes) {
  uint32_t value = 0;
  for (std::size_t i = bytes.size(); i-- > 0;) value = (value << 8) | static_cast<unsigned char>(bytes[i]);
  return value;
}

}  // namespace

Result<NDArray> parseNpy(std::string_view content, const std::string& name) {
  if (content.substr(0, kMagic.size()) != kMagic)
    return makeError("not a .npy file: expected the magic string \\x93NUMPY at the start", {name});
  if (content.size() < 10) return makeError("truncated .npy file: the header is incomplete", {name});
  int major = static_cast<unsigned char>(content[6]);
  std::size_t lengthBytes = major == 1 ? 2 : 4;
  if (major < 1 || major > 3)
    return makeError("unsupported .npy version " + std::to_string(major) + "; expected 1, 2 or 3", {name});
  std::size_t headerStart = 8 + lengthBytes;
  if (content.size() < headerStart) return makeError("truncated .npy file: the header is incomplete", {name});
  std::size_t headerLength = littleEndian(content.substr(8, lengthBytes));
  if (content.size() < headerStart + headerLength)
    return makeError("truncated .npy file: the header is incomplete", {name});
  BYOC_ASSIGN_OR_RETURN(Header header, parseHeader(content.substr(headerStart, headerLength), name));
  const std::size_t dataStart = headerStart + headerLength;
  const std::size_t available = content.size() - dataStart;
  // Checked before allocating: the shape is within the limits, so the product cannot overflow.
  const std::size_t needed = static_cast<std::size_t>(*limits::elementCount(header.shape)) * dtypeSize(header.dtype);
  if (available != needed)
    return makeError("truncated or oversized .npy file: " + describeArray(header.dtype, header.shape) + " needs " +
                         std::to_string(needed) + " data bytes, found " + std::to_string(available),
                     {name});
  Result<NDArray> array = NDArray::allocate(header.dtype, header.shape);
  if (!array) return makeError(array.error().message, {name});
  if (available) std::memcpy(array->bytes(), content.data() + dataStart, available);
  return array;
}

Result<NDArray> readNpy(const std::string& path) {
  BYOC_ASSIGN_OR_RETURN(std::string content, readFile(path));
  return parseNpy(content, path);
}

Result<std::string> encodeNpy(const NDArray& array) {
  std::string_view descr;
  for (const DescrEntry& entry : kDescrs)
    if (entry.dtype == array.dtype()) descr = entry.descr;
  if (descr.empty()) return makeError("cannot store " + std::string(dtypeName(array.dtype())) + " in a .npy file");
  std::string shape = "(";
  for (int64_t dim : array.shape()) shape += std::to_string(dim) + ", ";
  if (array.rank() > 1) shape.resize(shape.size() - 2);
  else if (array.rank() == 1) shape.resize(shape.size() - 1);
  shape += ")";
  std::string header = "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad with spaces so that the data starts at a multiple of 64 bytes; end with a newline.
  std::size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out(kMagic);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>((header.size() >> 8) & 0xff);
  out += header;
  out.append(reinterpret_cast<const char*>(array.bytes()), array.byteSize());
  return out;
}

Status writeNpy(const std::string& path, const NDArray& array) {
  BYOC_ASSIGN_OR_RETURN(std::string content, encodeNpy(array));
  return writeFileAtomic(path, content);
}

}  // namespace byoc
