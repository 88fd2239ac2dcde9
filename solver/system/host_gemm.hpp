// Host-side products over all elements of a group at once, C = A·B (row-major, A a small
// operator, B a panel with one column per element and component) — the setup work (geometry,
// initial conditions, output) is a handful of these, so it runs at BLAS speed: OpenBLAS when
// the build has it, a blocked loop otherwise.
#pragma once

#include <cstddef>

namespace frmini::solver {

// C (m×n, ldc) = A (m×k, lda) · B (k×n, ldb), all row-major, double.
void host_gemm(std::size_t m, std::size_t n, std::size_t k, const double* a, std::size_t lda,
               const double* b, std::size_t ldb, double* c, std::size_t ldc);

}  // namespace frmini::solver
