// Device reductions on OpenCL: the shared kernel of kernels/reduce.hpp, built once per
// precision and kept with its partials buffer (Backend::reduce runs every adaptive step).
#include "kernels/opencl/backend.hpp"
#include "kernels/reduce.hpp"

namespace frmini::kernels::opencl {

double OpenCLBackend::reduce(const Buffer& buf, std::size_t offset, std::size_t n, Precision p,
                             Reduction r) {
  if (n == 0) return 0.0;
  const int pi = p == Precision::double_ ? 1 : 0;
  if (!reduce_kernel_[pi].get()) {
    reduce_kernel_[pi] =
        KernelHandle(compile(reduce_source(pointwise::opencl_dialect(), p)), "frmini_reduce");
    if (!reduce_part_) reduce_part_ = alloc(reduce_max_groups * 8);
  }
  KernelHandle& k = reduce_kernel_[pi];
  const std::size_t groups = reduce_groups(n);
  const cl_ulong off = offset, len = n;
  const cl_int op = r == Reduction::sum ? 0 : 1;
  k.arg(0, mem_of(buf));
  k.arg(1, off);
  k.arg(2, len);
  k.arg(3, op);
  k.arg(4, mem_of(*reduce_part_));
  launch(k, groups * reduce_group_size, reduce_group_size);
  return finish_reduction(*this, *reduce_part_, groups, p, r);
}

}  // namespace frmini::kernels::opencl
