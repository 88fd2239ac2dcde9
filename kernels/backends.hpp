// Factories of the three backends. Each is defined in its own folder; a backend this build
// lacks is replaced (by CMake, not the preprocessor) with a factory that throws NotBuiltError.
#pragma once

#include <memory>

#include "kernels/backend.hpp"

namespace frmini::kernels {

std::unique_ptr<Backend> make_cpu_backend(const BackendOptions& opts);
std::unique_ptr<Backend> make_opencl_backend(const BackendOptions& opts);
std::unique_ptr<Backend> make_cuda_backend(const BackendOptions& opts);

}  // namespace frmini::kernels
