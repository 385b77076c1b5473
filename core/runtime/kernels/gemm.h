#pragma once
/// \file
/// Single-precision matrix product for the reference kernels, blocked for the caches.
///
/// Matrices are row-major with explicit leading dimensions. Either operand may be read
/// transposed; transposed operands are packed once into a contiguous copy. Large products
/// split their output tiles over the OpenMP threads (the count `omp_set_num_threads` set);
/// the result is the same for any thread count.

#include <cstdint>

namespace byoc::kernels {

/// Operand layout of `gemm`.
struct Matrix {
  const float* data;       ///< The first element as stored.
  int64_t ld;              ///< Elements between consecutive rows as stored.
  bool transposed = false;  ///< Read as the transpose of the stored matrix.
};

/// C[m, n] = A[m, k] · B[k, n] (+ C when `accumulate`), with `ldc` the leading dimension of C.
void gemm(int64_t m, int64_t n, int64_t k, const Matrix& a, const Matrix& b, float* c, int64_t ldc,
          bool accumulate = false);

}  // namespace byoc::kernels
