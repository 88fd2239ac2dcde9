// Placeholder until the cpu backend lands.
#include "kernels/backends.hpp"
#include "operators/error.hpp"

namespace frmini::kernels {
std::unique_ptr<Backend> make_cpu_backend(const BackendOptions&) {
  throw NotBuiltError("the cpu backend", "backend cpu");
}
}  // namespace frmini::kernels
