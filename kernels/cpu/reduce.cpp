// Device reductions on the cpu: each thread reduces a fixed contiguous share into its own
// slot and the slots are combined in thread order, so the result does not depend on which
// thread finishes first (an OpenMP reduction clause combines in completion order, which
// would make restarts of an adaptive run differ in the last bit).
#include <omp.h>

#include <cmath>
#include <vector>

#include "kernels/cpu/backend.hpp"

namespace frmini::kernels::cpu {

namespace {

template <class T>
double reduce_typed(const T* x, std::size_t n, Backend::Reduction r, int nthreads) {
  std::vector<double> part(std::size_t(nthreads), 0.0);
  const bool sum = r == Backend::Reduction::sum;
#pragma omp parallel num_threads(nthreads)
  {
    const std::size_t nt = std::size_t(omp_get_num_threads()), t = std::size_t(omp_get_thread_num());
    const std::size_t b = n * t / nt, e = n * (t + 1) / nt;
    double acc = 0;
    if (sum) {
      for (std::size_t i = b; i < e; ++i) acc += double(x[i]);
    } else {
      for (std::size_t i = b; i < e; ++i) {
        const double v = std::fabs(double(x[i]));
        if (acc == acc && !(v <= acc)) acc = v;  // a NaN wins and stays
      }
    }
    part[t] = acc;
  }
  double acc = 0;
  for (double v : part) acc = sum ? acc + v : ((acc != acc || v <= acc) ? acc : v);
  return acc;
}

}  // namespace

double CpuBackend::reduce(const Buffer& buf, std::size_t offset, std::size_t n, Precision p,
                          Reduction r) {
  if (n == 0) return 0.0;
  // Small arrays on the calling thread (no team to wake and wait for; see pointwise.cpp).
  const int nt = n < (std::size_t(1) << 16) ? 1 : std::max(1, threads());
  if (p == Precision::double_)
    return reduce_typed(static_cast<const double*>(host_ptr(buf, offset * 8)), n, r, nt);
  return reduce_typed(static_cast<const float*>(host_ptr(buf, offset * 4)), n, r, nt);
}

}  // namespace frmini::kernels::cpu
