// Placeholder until the cpu backend lands.
#include "base/error.hpp"
#include "kernels/backends.hpp"

namespace frmini::kernels {
std::unique_ptr<Backend> make_cpu_backend(const BackendOptions&) {
  throw NotBuiltError("the cpu backend", "backend cpu");
}
}  // namespace frmini::kernels
