#include "export/relay_params.h"

#include "export/npz_writer.h"
#include "text/parser.h"

namespace byoc {

std::string relayConstantName(std::size_t index) { return "meta[relay.Constant][" + std::to_string(index) + "]"; }

Result<std::string> relayConstantsNpz(std::string_view relayText) {
  BYOC_ASSIGN_OR_RETURN(std::vector<TensorData> constants, parseMetadataConstants(relayText));
  std::vector<NpzArray> arrays;
  arrays.reserve(constants.size());
  for (std::size_t i = 0; i < constants.size(); ++i)
    arrays.push_back({relayConstantName(i), NDArray::fromTensorData(constants[i])});
  return encodeNpz(arrays);
}

}  // namespace byoc
