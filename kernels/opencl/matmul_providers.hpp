// The matmul providers of the opencl backend (matmul_provider_list.hpp), each defined in its
// own file. The blas one is
// CLBlast's; a build without CLBlast links matmul_blas_absent.cpp instead (CMake selects), whose
// factory returns nullptr so the provider is simply not offered.
#pragma once

#include <memory>

#include "kernels/matmul/analysis.hpp"
#include "kernels/matmul/provider.hpp"
#include "kernels/opencl/matmul_provider_list.hpp"
#include "kernels/opencl/matmul_source.hpp"

namespace frmini::kernels::opencl {

class OpenCLBackend;

#define FRMINI_DECLARE_PROVIDER(name, help) \
  std::shared_ptr<matmul::Provider> make_##name##_provider(OpenCLBackend& backend);
FRMINI_OPENCL_MATMUL_PROVIDERS(FRMINI_DECLARE_PROVIDER)
#undef FRMINI_DECLARE_PROVIDER

// One generated kernel of a given strategy, bound to `p` (what the generated provider makes of
// each of its candidates; the tests use it to check every strategy, not only the tuner's pick).
// `analysis` (of p.a with p.alpha) saves recomputing it when given.
std::unique_ptr<matmul::Kernel> make_generated_kernel(OpenCLBackend& backend,
                                                      const matmul::Problem& p,
                                                      const Strategy& s,
                                                      const matmul::Analysis* analysis = nullptr);

}  // namespace frmini::kernels::opencl
