// Host-side pieces of the cuBLASLt `blas` provider (matmul_lt.cpp), kept free of cuBLASLt's
// headers so that the unit tests check them on machines without a GPU:
//  - the mapping of our row-major product onto cuBLASLt's column-major matmul descriptor;
//  - the key under which a searched algorithm is cached (kernels/cache.hpp, like every other
//    tuning decision), and the encoding of the decision itself.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "kernels/precision.hpp"

namespace frmini::kernels::cuda {

// One column-major operand as cublasLtMatrixLayoutCreate takes it.
struct LtMatrix {
  std::uint64_t rows = 0, cols = 0;
  std::int64_t ld = 0;
};

// The column-major product D = op(A) op(B) (+ beta C) cuBLASLt computes, with no transposes:
// (m, n, k) are cuBLASLt's, not ours.
struct LtLayouts {
  std::uint64_t m = 0, n = 0, k = 0;
  LtMatrix a, b, c;  // c also describes D
};

// Our C (m x n, ldc) = A (m x k, lda) * B (k x n, ldb), all row-major, is C^T = B^T A^T in
// column-major terms, and a row-major matrix read column-major is its transpose with the same
// ld. So cuBLASLt's A is our B (n x k, ldb), its B our A (k x m, lda), its C ours (n x m, ldc).
LtLayouts lt_layouts(std::size_t m, std::size_t n, std::size_t k, std::size_t lda,
                     std::size_t ldb, std::size_t ldc);

// The largest power of two (<= 256) dividing a device address: what cuBLASLt's heuristic may
// assume (CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_*_BYTES); an algorithm chosen for one alignment
// may be invalid for a smaller one, so it is part of the key.
std::uint32_t lt_alignment(std::uint64_t address);

// Everything the fastest algorithm depends on. A's values are not in it: cuBLASLt's kernels
// do not look at them (unlike the generated provider's).
struct LtKey {
  std::string device;       // e.g. "NVIDIA H200"
  int arch = 0;             // compute capability as 10 * major + minor (90)
  std::size_t version = 0;  // cublasLtGetVersion()
  Precision precision = Precision::double_;
  std::size_t m = 0, n = 0, k = 0, lda = 0, ldb = 0, ldc = 0;
  bool beta_zero = true;    // beta = 0 lets an algorithm skip reading C
  std::uint32_t align_a = 0, align_b = 0, align_c = 0;
  int candidates = 0;       // how many the heuristic was asked for
};

// The key's text (every field, readable, stored with the decision) and its cache entry name
// "cublaslt/<hash of the text>".
std::string lt_key_text(const LtKey& key);
std::string lt_cache_name(const LtKey& key);

// cublasLtMatmulAlgo_t's opaque contents (8 x uint64 in every cuBLASLt so far).
using LtAlgoBytes = std::array<std::uint64_t, 8>;

// The decision on disk: the key's text, then the algorithm in hex, then its time. A read
// returns the algorithm only when the stored text equals the key's (a hash collision or an
// older format misses). Both honour $FRMINI_TUNE_CACHE=0 (no cache) as the tuner does.
void lt_cache_store(const LtKey& key, const LtAlgoBytes& algo, double seconds);
std::optional<LtAlgoBytes> lt_cache_lookup(const LtKey& key);

}  // namespace frmini::kernels::cuda
