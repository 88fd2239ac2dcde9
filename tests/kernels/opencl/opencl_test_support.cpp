#include "tests/kernels/opencl/opencl_test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>

#include "operators/operators.hpp"
#include "tests/frmini_catch.hpp"

namespace frmini::test::opencl {

using kernels::Precision;
using kernels::matmul::HostMatrix;
using kernels::matmul::Problem;

std::unique_ptr<kernels::opencl::OpenCLBackend> backend_or_skip() {
  if (!std::getenv("FRMINI_CACHE_DIR")) setenv("FRMINI_CACHE_DIR", FRMINI_TEST_CACHE_DIR, 1);
  try {
    return std::make_unique<kernels::opencl::OpenCLBackend>(kernels::BackendOptions{});
  } catch (const UserError& e) {
    const char* allow = std::getenv("FRMINI_ALLOW_NO_OPENCL");
    if (allow && std::string(allow) == "1") {
      WARN("skipped: no OpenCL device (" << e.what() << ")");
      return nullptr;
    }
    FAIL(e.what() << " -- set FRMINI_ALLOW_NO_OPENCL=1 to skip the OpenCL tests on purpose");
  }
  return nullptr;
}

HostMatrix op(const std::string& etype, int order, const std::string& name) {
  auto ops = operators::build_operators(etype, order);
  const auto& m = operators::get(ops, name);
  HostMatrix a;
  a.rows = m.rows;
  a.cols = m.cols;
  a.data = m.data;
  return a;
}

namespace {

// Host <-> device in the data precision, through doubles on the host.
void put(kernels::Backend& be, kernels::Buffer& buf, const std::vector<double>& v, Precision p) {
  if (p == Precision::double_) {
    be.upload(buf, 0, v.data(), v.size() * sizeof(double));
  } else {
    std::vector<float> f(v.begin(), v.end());
    be.upload(buf, 0, f.data(), f.size() * sizeof(float));
  }
}
std::vector<double> get(kernels::Backend& be, const kernels::Buffer& buf, std::size_t count,
                        Precision p) {
  std::vector<double> v(count);
  if (p == Precision::double_) {
    be.download(v.data(), buf, 0, count * sizeof(double));
  } else {
    std::vector<float> f(count);
    be.download(f.data(), buf, 0, count * sizeof(float));
    std::copy(f.begin(), f.end(), v.begin());
  }
  return v;
}

}  // namespace

std::vector<CheckResult> check_kernel(kernels::opencl::OpenCLBackend& be, const HostMatrix& a,
                                      double alpha, double beta, Precision p,
                                      const std::vector<std::size_t>& ns,
                                      const KernelMaker& make) {
  std::vector<CheckResult> out;
  std::vector<std::unique_ptr<kernels::matmul::Kernel>> keep;  // keeps compiled programs alive
  auto reference = be.matmul_providers().back();
  REQUIRE(reference->name() == "reference");
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  const double sentinel = 1234.5;
  for (std::size_t n : ns) {
    // Padded leading dimensions (not a multiple of the SoA width either) and odd offsets.
    const std::size_t ldb = n + 5, ldc = n + 3, boff = 7, coff = 3;
    const std::size_t bsize = boff + a.cols * ldb, csize = coff + a.rows * ldc;
    std::vector<double> hb(bsize), hc(csize, sentinel);
    for (auto& x : hb) x = uni(rng);
    for (std::size_t r = 0; r < a.rows; ++r)
      for (std::size_t c = 0; c < n; ++c) hc[coff + r * ldc + c] = uni(rng);
    const std::size_t s = kernels::itemsize(p);
    auto b = be.alloc(bsize * s), c = be.alloc(csize * s), cref = be.alloc(csize * s);
    put(be, *b, hb, p);
    put(be, *c, hc, p);
    put(be, *cref, hc, p);

    Problem prob;
    prob.a = a;
    prob.alpha = alpha;
    prob.beta = beta;
    prob.precision = p;
    prob.n = n;
    prob.b = {b.get(), boff, ldb};
    prob.c = {cref.get(), coff, ldc};
    prob.name = "test";
    auto ref = reference->candidates(prob);
    REQUIRE(ref.size() == 1);
    ref[0]->run();
    prob.c = {c.get(), coff, ldc};
    auto k = make(prob);
    REQUIRE(k);
    k->run();
    be.synchronize();

    auto got = get(be, *c, csize, p), want = get(be, *cref, csize, p);
    CheckResult res;
    res.strategy = k->provider() + "/" + k->strategy();
    double maxdiff = 0, maxref = 0;
    for (std::size_t i = 0; i < csize; ++i) {
      bool inside = i >= coff && (i - coff) % ldc < n;
      if (!inside) {
        // The reference stores only inside too; both must leave the sentinel alone.
        if (got[i] != hc[i] || want[i] != hc[i]) res.guards_ok = false;
        continue;
      }
      maxdiff = std::max(maxdiff, std::abs(got[i] - want[i]));
      maxref = std::max(maxref, std::abs(want[i]));
      if (std::isnan(got[i])) maxdiff = INFINITY;
    }
    res.rel_err = maxref > 0 ? maxdiff / maxref : maxdiff;
    out.push_back(res);
    keep.push_back(std::move(k));
  }
  return out;
}

}  // namespace frmini::test::opencl
