// The cuda backend's matmul providers, in the order `auto` asks them (matmul_provider_list.hpp):
//   generated  GiMMiK-style kernels with A's entries as literals (matmul_plan/matmul_source),
//              one candidate per strategy, compiled in parallel through NVRTC;
//   blas       cuBLASLt (opened at run time), the heuristic's candidates timed on the real
//              operands and the fastest kept and cached (matmul_lt.cpp), as PyFR does;
//   cublas     plain cuBLAS gemm (opened at run time), the paper's baseline; both row-major
//              via C^T = B^T A^T;
//   reference  a naive kernel summing in double (for tests; never chosen by auto).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "kernels/cuda/matmul_provider_list.hpp"
#include "kernels/matmul/provider.hpp"

namespace frmini::kernels::cuda {

class CudaBackend;

#define FRMINI_DECLARE_PROVIDER(name, help) \
  std::shared_ptr<matmul::Provider> make_##name##_provider(CudaBackend& be);
FRMINI_CUDA_MATMUL_PROVIDERS(FRMINI_DECLARE_PROVIDER)
#undef FRMINI_DECLARE_PROVIDER

// Why cuBLASLt cannot be used from the first of `names` that opens ("" when it can: then
// *version, if given, is cublasLtGetVersion()); one line. No device needed.
std::string cublaslt_unavailable(const std::vector<std::string>& names,
                                 std::size_t* version = nullptr);

}  // namespace frmini::kernels::cuda
