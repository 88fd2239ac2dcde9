// The correctness sweep shared by the unit and regression tests: one operator, one precision,
// one beta; every candidate of every provider compiled once and run over several n.
#pragma once

#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "kernels/matmul/provider.hpp"

namespace frmini::test {

struct SweepStats {
  int checked = 0;   // (candidate, n) pairs compared with the reference
  int declined = 0;  // providers that declined (xsmm: beta 0.5, n not a multiple of 8)
};

// Checks generated, blas and xsmm (where they accept) against reference for
// n in {1, 31, 33, 1000, 1024, 4099}, with ld = n_max rounded up to the SIMD width plus one width,
// and panels offset by one SIMD width. Fails (Catch REQUIRE) on an error above 1e-12 (double)
// or 1e-5 (single) or on a write outside the product.
SweepStats sweep_operator(kernels::Backend& be, const kernels::matmul::HostMatrix& a,
                          const std::string& name, kernels::Precision prec, double beta,
                          const std::vector<std::string>& providers = {"generated", "blas", "xsmm"});

}  // namespace frmini::test
