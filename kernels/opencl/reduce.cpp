// Device reductions on OpenCL: one work-group per contiguous chunk (a fixed number of them),
// a tree in local memory, the partial results combined on the host in group order —
// deterministic for a given n.
#include <algorithm>
#include <string>
#include <vector>

#include "kernels/opencl/opencl_backend.hpp"
#include "kernels/reduce_partials.hpp"

namespace frmini::kernels::opencl {

namespace {

constexpr std::size_t local_size = 256, max_groups = 256;

std::string reduce_source(Precision p) {
  const bool dbl = p == Precision::double_;
  std::string s = dbl ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\ntypedef double fp;\n"
                      : "typedef float fp;\n";
  s += "#define LOCAL " + std::to_string(local_size) + "\n";
  s += R"CL(
// op 0: sum; op 1: largest |x|; a NaN, once seen, is kept (comparisons with NaN are false).
__kernel __attribute__((reqd_work_group_size(LOCAL, 1, 1)))
void frmini_reduce(__global const fp* x, ulong off, ulong n, int op, __global fp* part) {
  __local fp s[LOCAL];
  const ulong l = get_local_id(0), g = get_group_id(0), ng = get_num_groups(0);
  const ulong chunk = (n + ng - 1) / ng, b = g * chunk, e = min(n, b + chunk);
  fp acc = 0;
  for (ulong i = b + l; i < e; i += LOCAL) {
    fp v = x[off + i];
    if (op == 0) acc += v;
    else { v = fabs(v); if (acc == acc && !(v <= acc)) acc = v; }
  }
  s[l] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (ulong w = LOCAL / 2; w > 0; w >>= 1) {
    if (l < w) {
      const fp a = s[l], c = s[l + w];
      s[l] = op == 0 ? a + c : ((a != a || c <= a) ? a : c);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) part[g] = s[0];
}
)CL";
  return s;
}

}  // namespace

double OpenCLBackend::reduce(const Buffer& buf, std::size_t offset, std::size_t n, Precision p,
                             Reduction r) {
  if (n == 0) return 0.0;
  const std::size_t item = itemsize(p);
  const std::size_t groups = std::min(max_groups, (n + local_size - 1) / local_size);
  auto part = alloc(groups * item);
  KernelHandle k(compile(reduce_source(p)), "frmini_reduce");  // compiled once per process
  const cl_ulong off = offset, len = n;
  const cl_int op = r == Reduction::sum ? 0 : 1;
  k.arg(0, mem_of(buf));
  k.arg(1, off);
  k.arg(2, len);
  k.arg(3, op);
  k.arg(4, mem_of(*part));
  launch(k, groups * local_size, local_size);
  return finish_reduction(*this, *part, groups, p, r);
}

}  // namespace frmini::kernels::opencl
