#include "export/safetensors.h"

#include <algorithm>
#include <limits>
#include <tuple>
#include <nlohmann/json.hpp>

namespace byoc {

namespace {

using json = nlohmann::json;

/// Header lengths above this are rejected before anything is allocated.
constexpr uint64_t kMaxHeaderSize = 100'000'000;

Diagnostic fileError(std::string_view fileName, std::string message) { return makeError(std::move(message), {std::string(fileName)}); }

/// `count * size`, or nothing on overflow past 2^63.
std::optional<uint64_t> checkedProduct(const std::vector<int64_t>& shape, uint64_t elementSize) {
  uint64_t total = elementSize;
  for (int64_t dim : shape) {
    if (dim != 0 && total > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) / static_cast<uint64_t>(dim))
      return std::nullopt;
    total *= static_cast<uint64_t>(dim);
  }
  return total;
}

Result<SafetensorsEntry> readEntry(const std::string& name, const json& value, uint64_t dataSize, std::string_view fileName) {
  const std::string where = "tensor '" + name + "': ";
  if (!value.is_object()) return fileError(fileName, where + "expected an object");
  SafetensorsEntry entry;
  entry.name = name;
  auto dtype = value.find("dtype");
  if (dtype == value.end() || !dtype->is_string()) return fileError(fileName, where + "missing \"dtype\" string");
  entry.dtype = dtype->get<std::string>();
  const std::size_t elementSize = safetensorsDTypeSize(entry.dtype);
  if (elementSize == 0) return fileError(fileName, where + "unknown dtype \"" + entry.dtype + "\"");
  auto shape = value.find("shape");
  if (shape == value.end() || !shape->is_array()) return fileError(fileName, where + "missing \"shape\" array");
  for (const json& dim : *shape) {
    if (!dim.is_number_unsigned() || dim.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return fileError(fileName, where + "shape holds " + dim.dump(-1, ' ', false, json::error_handler_t::replace) +
                                     ", expected non-negative integers");
    entry.shape.push_back(dim.get<int64_t>());
  }
  auto offsets = value.find("data_offsets");
  if (offsets == value.end() || !offsets->is_array() || offsets->size() != 2 || !(*offsets)[0].is_number_unsigned() ||
      !(*offsets)[1].is_number_unsigned())
    return fileError(fileName, where + "expected \"data_offsets\": [begin, end] with non-negative integers");
  entry.begin = (*offsets)[0].get<uint64_t>();
  entry.end = (*offsets)[1].get<uint64_t>();
  if (entry.begin > entry.end)
    return fileError(fileName, where + "data_offsets [" + std::to_string(entry.begin) + ", " + std::to_string(entry.end) +
                                   "] begin after end");
  if (entry.end > dataSize)
    return fileError(fileName, where + "data_offsets [" + std::to_string(entry.begin) + ", " + std::to_string(entry.end) +
                                   "] run past the data (" + std::to_string(dataSize) + " bytes)");
  std::optional<uint64_t> expected = checkedProduct(entry.shape, elementSize);
  if (!expected || *expected != entry.end - entry.begin)
    return fileError(fileName, where + "holds " + std::to_string(entry.end - entry.begin) + " bytes, expected " +
                                   (expected ? std::to_string(*expected) : std::string("more than 2^63")) +
                                   " for its shape and dtype");
  return entry;
}

std::string rangeText(const SafetensorsEntry& entry) {
  return "[" + std::to_string(entry.begin) + ", " + std::to_string(entry.end) + "]";
}

/// Checks that every tensor starts at a multiple of `kSafetensorsAlignment` and that no two
/// tensors share a byte.
Status checkLayout(std::vector<SafetensorsEntry> entries, std::string_view fileName) {
  std::sort(entries.begin(), entries.end(), [](const SafetensorsEntry& a, const SafetensorsEntry& b) {
    return std::tie(a.begin, a.end, a.name) < std::tie(b.begin, b.end, b.name);
  });
  const SafetensorsEntry* furthest = nullptr;  // of the tensors so far, the one that ends last
  for (const SafetensorsEntry& entry : entries) {
    if (entry.begin % kSafetensorsAlignment != 0)
      return fileError(fileName, "tensor '" + entry.name + "': data_offsets " + rangeText(entry) + " start at byte " +
                                     std::to_string(entry.begin) + ", expected a multiple of " +
                                     std::to_string(kSafetensorsAlignment));
    if (entry.begin == entry.end) continue;
    if (furthest && entry.begin < furthest->end)
      return fileError(fileName, "tensor '" + entry.name + "': data_offsets " + rangeText(entry) + " overlap those of tensor '" +
                                     furthest->name + "' " + rangeText(*furthest));
    furthest = &entry;
  }
  return Status::ok();
}

}  // namespace

const SafetensorsEntry* SafetensorsIndex::find(std::string_view name) const {
  auto found = std::lower_bound(entries.begin(), entries.end(), name,
                                [](const SafetensorsEntry& entry, std::string_view key) { return entry.name < key; });
  return found != entries.end() && found->name == name ? &*found : nullptr;
}

std::size_t safetensorsDTypeSize(std::string_view dtype) {
  static const std::map<std::string_view, std::size_t> sizes = {
      {"BOOL", 1}, {"U8", 1}, {"I8", 1}, {"F16", 2}, {"BF16", 2}, {"I16", 2}, {"U16", 2},
      {"F32", 4},  {"I32", 4}, {"U32", 4}, {"F64", 8}, {"I64", 8}, {"U64", 8}};
  auto found = sizes.find(dtype);
  return found == sizes.end() ? 0 : found->second;
}

std::string writeSafetensors(const std::vector<SafetensorsTensor>& tensors, const std::map<std::string, std::string>& metadata) {
  json header = json::object();
  if (!metadata.empty()) header["__metadata__"] = metadata;
  uint64_t offset = 0;
  std::vector<uint64_t> begins;
  for (const SafetensorsTensor& tensor : tensors) {
    offset = (offset + kSafetensorsAlignment - 1) / kSafetensorsAlignment * kSafetensorsAlignment;
    begins.push_back(offset);
    header[tensor.name] = {{"dtype", tensor.dtype}, {"shape", tensor.shape}, {"data_offsets", {offset, offset + tensor.bytes.size()}}};
    offset += tensor.bytes.size();
  }
  std::string headerText = header.dump();
  headerText.append((kSafetensorsAlignment - headerText.size() % kSafetensorsAlignment) % kSafetensorsAlignment,
                    ' ');  // keeps the data aligned
  std::string file(8, '\0');
  for (int i = 0; i < 8; ++i) file[i] = static_cast<char>((uint64_t(headerText.size()) >> (8 * i)) & 0xff);
  file += headerText;
  const std::size_t dataStart = file.size();
  file.resize(dataStart + offset, '\0');
  for (std::size_t i = 0; i < tensors.size(); ++i)
    std::copy(tensors[i].bytes.begin(), tensors[i].bytes.end(), reinterpret_cast<std::byte*>(file.data() + dataStart + begins[i]));
  return file;
}

Result<SafetensorsIndex> parseSafetensors(std::string_view bytes, std::string_view fileName) {
  if (bytes.size() < 8)
    return fileError(fileName, "truncated: " + std::to_string(bytes.size()) + " bytes, expected at least the 8-byte header length");
  uint64_t headerSize = 0;
  for (int i = 0; i < 8; ++i) headerSize |= uint64_t(static_cast<unsigned char>(bytes[i])) << (8 * i);
  if (headerSize > bytes.size() - 8 || headerSize > kMaxHeaderSize)
    return fileError(fileName, "truncated: the header is " + std::to_string(headerSize) + " bytes but only " +
                                   std::to_string(bytes.size() - 8) + " follow the length");
  json header = json::parse(bytes.substr(8, headerSize), nullptr, /*allow_exceptions=*/false);
  if (!header.is_object()) return fileError(fileName, "the header is not a JSON object");
  SafetensorsIndex index;
  index.data = bytes.substr(8 + headerSize);
  for (const auto& [name, value] : header.items()) {
    if (name == "__metadata__") {
      if (!value.is_object()) return fileError(fileName, "\"__metadata__\" is not an object");
      for (const auto& [key, text] : value.items()) {
        if (!text.is_string()) return fileError(fileName, "metadata '" + key + "' is not a string");
        index.metadata[key] = text.get<std::string>();
      }
      continue;
    }
    BYOC_ASSIGN_OR_RETURN(SafetensorsEntry entry, readEntry(name, value, index.data.size(), fileName));
    index.entries.push_back(std::move(entry));
  }
  BYOC_TRY(checkLayout(index.entries, fileName));
  std::sort(index.entries.begin(), index.entries.end(),
            [](const SafetensorsEntry& a, const SafetensorsEntry& b) { return a.name < b.name; });
  return index;
}

}  // namespace byoc
