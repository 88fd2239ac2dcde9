// Linked instead of the CUDA backend when this build found no CUDA headers.
#include "base/error.hpp"
#include "kernels/backends.hpp"
#include "kernels/cuda/resource_table.hpp"

namespace frmini::kernels {
std::unique_ptr<Backend> make_cuda_backend(const BackendOptions&) {
  throw NotBuiltError("CUDA", "backend cuda");
}

namespace cuda {
// `frmini cuda-resources` is compiled in every configuration; without CUDA it reports so.
std::vector<ResourceRow> resource_table(const std::vector<NamedOperator>&,
                                        const std::vector<Precision>&, const std::vector<double>&,
                                        const TableOptions&) {
  throw NotBuiltError("CUDA", "cuda-resources");
}
std::string to_csv(const std::vector<ResourceRow>&) { throw NotBuiltError("CUDA", "cuda-resources"); }
}  // namespace cuda
}  // namespace frmini::kernels
