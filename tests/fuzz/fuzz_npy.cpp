/// \file
/// libFuzzer target: `parseNpy` on arbitrary bytes must return an array or an error, never crash,
/// read out of bounds or allocate more than the file describes. An array it accepts is encoded
/// again, and the encoding must parse to the same dtype, shape and bytes.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "runtime/npy.h"
#include "support/result.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  byoc::Result<byoc::NDArray> array = byoc::parseNpy(bytes, "input.npy");
  if (!array) return 0;
  byoc::Result<std::string> encoded = byoc::encodeNpy(*array);
  BYOC_CHECK(encoded.isOk(), encoded.error().str());
  byoc::Result<byoc::NDArray> decoded = byoc::parseNpy(*encoded, "encoded.npy");
  BYOC_CHECK(decoded.isOk(), decoded.error().str());
  BYOC_CHECK(decoded->dtype() == array->dtype() && decoded->shape() == array->shape(),
             "encoding changed the dtype or shape");
  BYOC_CHECK(array->byteSize() == 0 || std::memcmp(decoded->bytes(), array->bytes(), array->byteSize()) == 0,
             "encoding changed the data");
  return 0;
}
