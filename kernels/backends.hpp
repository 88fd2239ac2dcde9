// Factories of the three backends. Each is defined in its own folder; a backend this build
// lacks is replaced (by CMake, not the preprocessor) with a factory that throws NotBuiltError.
#pragma once

#include <memory>

#include "kernels/backend.hpp"

namespace frmini::kernels {

std::unique_ptr<Backend> make_cpu_backend(const BackendOptions& opts);
std::unique_ptr<Backend> make_opencl_backend(const BackendOptions& opts);
std::unique_ptr<Backend> make_cuda_backend(const BackendOptions& opts);

// Called first thing in main() by programs that run the cpu backend: makes its OpenMP threads
// spin briefly at a barrier and then sleep, so a run beside other busy processes keeps its
// pace (cpu/thread_wait.cpp). Unless GOMP_SPINCOUNT or OMP_WAIT_POLICY is set already, it sets
// GOMP_SPINCOUNT and executes the program again with the same arguments; it returns when it
// has nothing to do or the exec fails.
void choose_thread_wait(char** argv);

}  // namespace frmini::kernels
