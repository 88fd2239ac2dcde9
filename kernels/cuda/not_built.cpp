// Linked instead of the CUDA backend when this build found no CUDA headers.
#include "kernels/backends.hpp"
#include "operators/error.hpp"

namespace frmini::kernels {
std::unique_ptr<Backend> make_cuda_backend(const BackendOptions&) {
  throw NotBuiltError("CUDA", "backend cuda");
}
}  // namespace frmini::kernels
