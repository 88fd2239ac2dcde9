// host_gemm through OpenBLAS (selected by CMake when the build has it).
#include <cblas.h>

#include "solver/system/host_gemm.hpp"

namespace frmini::solver {

void host_gemm(std::size_t m, std::size_t n, std::size_t k, const double* a, std::size_t lda,
               const double* b, std::size_t ldb, double* c, std::size_t ldc) {
  if (!m || !n) return;
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(n), int(k), 1.0, a,
              int(lda), b, int(ldb), 0.0, c, int(ldc));
}

}  // namespace frmini::solver
