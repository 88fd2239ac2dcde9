// Linked instead of the OpenCL backend when this build has no OpenCL.
#include "base/error.hpp"
#include "kernels/backends.hpp"

namespace frmini::kernels {
std::unique_ptr<Backend> make_opencl_backend(const BackendOptions&) {
  throw NotBuiltError("OpenCL", "backend opencl");
}
}  // namespace frmini::kernels
