// CUDA C++ source of one generated matmul kernel (C = A*B + beta*C with alpha folded into A),
// from an operator analysis and a Strategy (matmul_plan.hpp). Pure text generation: no CUDA
// API is called here, so the generator is testable without a GPU or a driver.
//
// Kernel interface (all strategies):
//   extern "C" __global__ void <name>(int nv, const VT* __restrict__ b, VT* __restrict__ c)
// where VT is float/double (width 1) or float2/double2 (width 2), b and c point at the first
// column of the range, and nv = columns / width. n is a run-time argument so one kernel serves
// every column range (run_columns) and mesh size; ldb and ldc are baked in (as PyFR does on
// CUDA), so every B/C address is a literal offset from the thread's base pointer, and the index
// arithmetic is 64-bit only where k*ldb or m*ldc needs it (the offsets are computed here).
// Grid: Strategy::grid(columns) CTAs of (blockx, ny) threads; static shared memory only.
#pragma once

#include <string>

#include "kernels/cuda/matmul_plan.hpp"

namespace frmini::kernels::cuda {

struct SourceParams {
  Precision precision = Precision::double_;
  double beta = 0.0;
  std::size_t ldb = 0, ldc = 0;  // elements; multiples of the width
  std::string name = "frmini_matmul";
};

std::string matmul_source(const matmul::Analysis& a, const Strategy& s, const SourceParams& sp);

// The naive reference kernel: one thread per column, A read from a device array of doubles
// (m*k, row-major), every sum in double. Runtime m, k, n, ld, alpha, beta.
//   extern "C" __global__ void frmini_matmul_ref(int m, int k, int n, const double* a,
//       double alpha, double beta, const T* b, long ldb, T* c, long ldc)
std::string reference_source(Precision p);

}  // namespace frmini::kernels::cuda
