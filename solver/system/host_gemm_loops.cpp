// host_gemm without BLAS (selected by CMake when the build has no OpenBLAS): row-by-row
// accumulation, which streams B and C rows and vectorises over n.
#include "solver/system/host_gemm.hpp"

namespace frmini::solver {

void host_gemm(std::size_t m, std::size_t n, std::size_t k, const double* a, std::size_t lda,
               const double* b, std::size_t ldb, double* c, std::size_t ldc) {
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < m; ++i) {
    double* ci = c + i * ldc;
    for (std::size_t j = 0; j < n; ++j) ci[j] = 0.0;
    for (std::size_t l = 0; l < k; ++l) {
      const double ail = a[i * lda + l];
      if (ail == 0.0) continue;
      const double* bl = b + l * ldb;
      for (std::size_t j = 0; j < n; ++j) ci[j] += ail * bl[j];
    }
  }
}

}  // namespace frmini::solver
