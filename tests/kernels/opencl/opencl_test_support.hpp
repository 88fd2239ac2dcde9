// Shared by the opencl tests: the backend under test (or an honest skip), the operators to
// multiply by, and the check of one matmul kernel against the reference provider.
//
// No OpenCL device: the tests FAIL, unless FRMINI_ALLOW_NO_OPENCL=1 is set, in which case each
// prints "skipped: no OpenCL device (...)" as a Catch2 warning and passes. A machine that is
// meant to test OpenCL therefore cannot pass by silently testing nothing.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernels/matmul/provider.hpp"
#include "kernels/opencl/backend.hpp"

namespace frmini::test::opencl {

// The backend on the default device, or nullptr after a visible skip (see above). Points the
// kernel cache at the build tree's test cache unless FRMINI_CACHE_DIR is already set.
std::unique_ptr<kernels::opencl::OpenCLBackend> backend_or_skip();

// Operator `name` ("M0", ...) of `etype` at `order`, as a matmul HostMatrix.
kernels::matmul::HostMatrix op(const std::string& etype, int order, const std::string& name);

// Builds the kernel for a problem (the operands are filled in by check_kernel).
using KernelMaker =
    std::function<std::unique_ptr<kernels::matmul::Kernel>(const kernels::matmul::Problem&)>;

struct CheckResult {
  double rel_err = 0;     // max |C - C_ref| / max |C_ref| over the product's columns
  bool guards_ok = true;  // padding and offset regions of C untouched
  std::string strategy;
};

// For each n: B and C with padded leading dimensions and non-zero offsets, random B and C,
// C's padding filled with a sentinel; runs `make(problem)` and the reference provider on
// copies of C and compares. Each returned entry is one n. The kernels of all n are kept alive
// until the end, so a provider that compiles once per operator compiles once here.
std::vector<CheckResult> check_kernel(kernels::opencl::OpenCLBackend& be,
                                      const kernels::matmul::HostMatrix& a, double alpha,
                                      double beta, kernels::Precision p,
                                      const std::vector<std::size_t>& ns, const KernelMaker& make);

inline double tolerance(kernels::Precision p) {
  return p == kernels::Precision::double_ ? 1e-12 : 1e-5;
}

}  // namespace frmini::test::opencl
