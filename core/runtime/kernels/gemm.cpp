#include "runtime/kernels/gemm.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace byoc::kernels {

namespace {

constexpr int64_t kBlockM = 64;
constexpr int64_t kBlockN = 256;
constexpr int64_t kBlockK = 128;

/// Copies the transpose of `source` (rows × cols with leading dimension `ld`) into `target` (cols × rows).
void transposeInto(const float* source, int64_t rows, int64_t cols, int64_t ld, float* target) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) target[c * rows + r] = source[r * ld + c];
}

/// C += A · B over one block, the inner loop running along contiguous rows of B and C.
void blockKernel(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b, int64_t ldb, float* c,
                 int64_t ldc) {
  for (int64_t i = 0; i < m; ++i) {
    float* cRow = c + i * ldc;
    const float* aRow = a + i * lda;
    int64_t p = 0;
    // Four rows of B at a time keep four multiplies in flight per element of C.
    for (; p + 4 <= k; p += 4) {
      const float a0 = aRow[p], a1 = aRow[p + 1], a2 = aRow[p + 2], a3 = aRow[p + 3];
      const float* b0 = b + p * ldb;
      const float* b1 = b0 + ldb;
      const float* b2 = b1 + ldb;
      const float* b3 = b2 + ldb;
      for (int64_t j = 0; j < n; ++j) cRow[j] += a0 * b0[j] + a1 * b1[j] + a2 * b2[j] + a3 * b3[j];
    }
    for (; p < k; ++p) {
      const float ap = aRow[p];
      const float* bRow = b + p * ldb;
      for (int64_t j = 0; j < n; ++j) cRow[j] += ap * bRow[j];
    }
  }
}

}  // namespace

void gemm(int64_t m, int64_t n, int64_t k, const Matrix& a, const Matrix& b, float* c, int64_t ldc, bool accumulate) {
  std::vector<float> packedA;
  std::vector<float> packedB;
  const float* aData = a.data;
  int64_t lda = a.ld;
  if (a.transposed) {  // stored k × m
    packedA.resize(static_cast<std::size_t>(m * k));
    transposeInto(a.data, k, m, a.ld, packedA.data());
    aData = packedA.data();
    lda = k;
  }
  const float* bData = b.data;
  int64_t ldb = b.ld;
  if (b.transposed) {  // stored n × k
    packedB.resize(static_cast<std::size_t>(k * n));
    transposeInto(b.data, n, k, b.ld, packedB.data());
    bData = packedB.data();
    ldb = n;
  }
  if (!accumulate)
    for (int64_t i = 0; i < m; ++i) std::memset(c + i * ldc, 0, static_cast<std::size_t>(n) * sizeof(float));
  // Each (column block, row block) tile of C belongs to one thread, which runs the whole
  // reduction over k for it in order: the result does not depend on the thread count.
  const int64_t columnBlocks = (n + kBlockN - 1) / kBlockN;
  const int64_t rowBlocks = (m + kBlockM - 1) / kBlockM;
  const bool parallel = m * n * k >= (int64_t{1} << 18);
#pragma omp parallel for collapse(2) schedule(static) if (parallel)
  for (int64_t jb = 0; jb < columnBlocks; ++jb) {
    for (int64_t ib = 0; ib < rowBlocks; ++ib) {
      const int64_t j0 = jb * kBlockN, i0 = ib * kBlockM;
      const int64_t nb = std::min(kBlockN, n - j0);
      const int64_t mb = std::min(kBlockM, m - i0);
      for (int64_t p0 = 0; p0 < k; p0 += kBlockK) {
        const int64_t kb = std::min(kBlockK, k - p0);
        blockKernel(mb, nb, kb, aData + i0 * lda + p0, lda, bData + p0 * ldb + j0, ldb, c + i0 * ldc + j0, ldc);
      }
    }
  }
}

}  // namespace byoc::kernels
