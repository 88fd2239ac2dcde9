// The cpu backend's matmul providers (matmul_provider_list.hpp), each defined in its own file.
#pragma once

#include <memory>

#include "kernels/cpu/matmul_provider_list.hpp"
#include "kernels/matmul/provider.hpp"

namespace frmini::kernels::cpu {

class CpuBackend;

// make_generated_provider, make_blas_provider (null without OpenBLAS), make_xsmm_provider
// (null without libxsmm), make_reference_provider.
#define FRMINI_DECLARE_PROVIDER(name, help) \
  std::shared_ptr<matmul::Provider> make_##name##_provider(CpuBackend& be);
FRMINI_CPU_MATMUL_PROVIDERS(FRMINI_DECLARE_PROVIDER)
#undef FRMINI_DECLARE_PROVIDER

}  // namespace frmini::kernels::cpu
