// Device reductions on CUDA: the shared kernel of kernels/reduce.hpp, compiled once per
// precision and kept with its partials buffer (Backend::reduce runs every adaptive step).
#include "kernels/cuda/backend.hpp"
#include "kernels/reduce.hpp"

namespace frmini::kernels::cuda {

double CudaBackend::reduce(const Buffer& buf, std::size_t offset, std::size_t n, Precision p,
                           Reduction r) {
  if (n == 0) return 0.0;
  const int pi = p == Precision::double_ ? 1 : 0;
  if (!reduce_module_[pi]) {
    reduce_module_[pi] = std::static_pointer_cast<CudaModule>(
        compile(reduce_source(pointwise::cuda_dialect(), p)));
    if (!reduce_part_) reduce_part_ = alloc(reduce_max_groups * 8);
  }
  CUfunction f = reduce_module_[pi]->function("frmini_reduce");
  const std::size_t groups = reduce_groups(n);
  CUdeviceptr x = ptr(buf), pp = ptr(*reduce_part_);
  unsigned long long off = offset, len = n;
  int op = r == Reduction::sum ? 0 : 1;
  launch(f, groups, unsigned(reduce_group_size), 1,
         {{&x, sizeof x}, {&off, sizeof off}, {&len, sizeof len}, {&op, sizeof op}, {&pp, sizeof pp}});
  return finish_reduction(*this, *reduce_part_, groups, p, r);
}

}  // namespace frmini::kernels::cuda
