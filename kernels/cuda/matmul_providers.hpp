// The cuda backend's matmul providers, in the order `auto` asks them:
//   generated  GiMMiK-style kernels with A's entries as literals (matmul_plan/matmul_source),
//              one candidate per strategy, compiled in parallel through NVRTC;
//   blas       cuBLAS (opened at run time), row-major via C^T = B^T A^T;
//   reference  a naive kernel summing in double (for tests; never chosen by auto).
#pragma once

#include <memory>

#include "kernels/matmul/provider.hpp"

namespace frmini::kernels::cuda {

class CudaBackend;

std::shared_ptr<matmul::Provider> make_generated_provider(CudaBackend& be);
std::shared_ptr<matmul::Provider> make_blas_provider(CudaBackend& be);
std::shared_ptr<matmul::Provider> make_reference_provider(CudaBackend& be);

}  // namespace frmini::kernels::cuda
