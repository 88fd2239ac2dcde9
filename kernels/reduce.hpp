// The device reduction of the GPU-style backends (opencl, cuda; Backend::reduce), written
// once: one kernel source rendered for each dialect, and the host side that combines the
// per-group partial results. A fixed number of groups, each over a contiguous chunk, a tree
// in local/shared memory, the partials combined in group order in double: deterministic for
// a given n, so adaptive runs restart bit for bit.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "kernels/pointwise/render.hpp"

namespace frmini::kernels {

constexpr std::size_t reduce_group_size = 256;  // work-items (threads) per group
constexpr std::size_t reduce_max_groups = 256;

// Source of `frmini_reduce(x, off, n, op, part)`: part[g] = sum (op 0) or largest |x|
// (op 1) of group g's chunk of x[off, off + n). Dialect opencl or cuda.
std::string reduce_source(const pointwise::Dialect& d, Precision p);

// Groups for n values.
inline std::size_t reduce_groups(std::size_t n) {
  return std::min(reduce_max_groups, (n + reduce_group_size - 1) / reduce_group_size);
}

// Downloads `n` partial results and combines them in order.
inline double finish_reduction(Backend& be, const Buffer& part, std::size_t n, Precision p,
                               Backend::Reduction r) {
  std::vector<double> v(n);
  if (p == Precision::double_) {
    be.download(v.data(), part, 0, n * 8);
  } else {
    std::vector<float> f(n);
    be.download(f.data(), part, 0, n * 4);
    std::copy(f.begin(), f.end(), v.begin());
  }
  double acc = 0;
  // max_abs: a NaN, once seen, is kept (comparisons with NaN are false).
  for (double x : v) acc = r == Backend::Reduction::sum ? acc + x : ((acc != acc || x <= acc) ? acc : x);
  return acc;
}

}  // namespace frmini::kernels
