// The host side of the GPU-style device reductions (opencl, cuda): download the per-group
// partial results and combine them in group order, in double (deterministic for a given n).
#pragma once

#include <algorithm>
#include <vector>

#include "kernels/backend.hpp"

namespace frmini::kernels {

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
