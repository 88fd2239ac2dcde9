// The cpu backend's matmul providers, in the order 'auto' asks them.
#pragma once

#include <memory>

#include "kernels/matmul/provider.hpp"

namespace frmini::kernels::cpu {

class CpuBackend;

std::shared_ptr<matmul::Provider> make_generated_provider(CpuBackend& be);
std::shared_ptr<matmul::Provider> make_blas_provider();            // null without OpenBLAS
std::shared_ptr<matmul::Provider> make_xsmm_provider(CpuBackend& be);  // null without libxsmm
std::shared_ptr<matmul::Provider> make_reference_provider();

}  // namespace frmini::kernels::cpu
