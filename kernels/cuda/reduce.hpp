// The CUDA source of the device reduction (CudaBackend::reduce), exposed for the compile-only
// tests that run without a GPU.
#pragma once

#include <string>

#include "kernels/precision.hpp"

namespace frmini::kernels::cuda {

std::string reduce_source(Precision p);

}  // namespace frmini::kernels::cuda
