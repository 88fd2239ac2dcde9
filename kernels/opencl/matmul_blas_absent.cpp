// Linked instead of matmul_blas.cpp when CMake found no CLBlast: the opencl backend then
// simply offers no `blas` provider (make_kernel names the missing provider to the user).
#include "kernels/opencl/matmul_providers.hpp"

namespace frmini::kernels::opencl {
std::shared_ptr<matmul::Provider> make_blas_provider(OpenCLBackend&) { return nullptr; }
}  // namespace frmini::kernels::opencl
