#pragma once
/// \file
/// Small helpers shared by the files that lower kernels to oneDNN primitives.

#include <string>
#include <vector>

#include <dnnl.hpp>

#include "runtime/dnnl/lowering.h"

namespace byoc::dnnl_backend {

/// A descriptor of `dims` (f32 unless `type` says otherwise) that lets the primitive choose the format.
inline dnnl::memory::desc anyDesc(const dnnl::memory::dims& dims,
                                  dnnl::memory::data_type type = dnnl::memory::data_type::f32) {
  return {dims, type, dnnl::memory::format_tag::any};
}

/// "op: what", the error of a call oneDNN cannot run.
inline Diagnostic unsupported(const std::string& op, const std::string& what) { return makeError(op + ": " + what); }

/// Runs `lower`, turning oneDNN's exceptions into an error naming `op`.
template <typename F>
Result<std::vector<Tensor>> guarded(const std::string& op, F&& lower) {
  try {
    return lower();
  } catch (const dnnl::error& error) {
    return unsupported(op, std::string("oneDNN cannot build the primitive: ") + error.what());
  }
}

}  // namespace byoc::dnnl_backend
