// The 'blas' provider: OpenBLAS cblas_[sd]gemm, row-major, the vendor baseline of the paper.
// It accepts every problem (any beta, any leading dimensions).
#include "kernels/cpu/matmul_providers.hpp"

#if FRMINI_CPU_HAVE_OPENBLAS
#include <cblas.h>

#include <cctype>
#include <string>
#include <vector>

#include "kernels/cpu/matmul_kernel.hpp"

namespace frmini::kernels::cpu {

namespace {

// dgemm or sgemm, and the kernels OpenBLAS chose for this CPU: a CPU newer than the library
// gets old ones (OpenBLAS 0.3.21 runs its SSE3 "Prescott" kernels on an Intel Xeon of family 6,
// model 207: the hex p3 operators 11-22x slower than generated in double, 4-7x with
// OPENBLAS_CORETYPE=SkylakeX), so tables and run reports say which baseline they measured.
std::string gemm_name(Precision p) {
  std::string s = p == Precision::double_ ? "dgemm" : "sgemm";
  if (const char* core = openblas_get_corename(); core && *core) {
    s += '-';
    for (const char* c = core; *c; ++c) s += char(std::tolower(static_cast<unsigned char>(*c)));
  }
  return s;
}

class BlasProvider : public matmul::Provider {
 public:
  std::string name() const override { return "blas"; }
  bool threads_its_own() const override { return true; }  // OpenBLAS's own threads
  std::vector<std::unique_ptr<matmul::Kernel>> candidates(const matmul::Problem& p,
                                                          std::string* why) override {
    std::vector<std::unique_ptr<matmul::Kernel>> out;
    if (p.block) {
      // OpenBLAS runs its own threads; called from every thread of a chain at once it would
      // oversubscribe the cores (or serialise on its locks).
      if (why) *why = "runs on whole panels only, not inside cache-blocked chains";
      return out;
    }
    const int m = int(p.m()), k = int(p.k()), ldb = int(p.b.ld), ldc = int(p.c.ld);
    const int lda = std::max(k, 1);
    CpuKernel::Body body;
    if (p.precision == Precision::double_) {
      auto a = std::make_shared<std::vector<double>>(p.a.data);
      double* b = panel_ptr<double>(p.b);
      double* c = panel_ptr<double>(p.c);
      double alpha = p.alpha, beta = p.beta;
      body = [=](std::size_t c0, std::size_t c1, std::ptrdiff_t, std::ptrdiff_t) {
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, int(c1 - c0), k, alpha,
                    a->data(), lda, b + c0, ldb, beta, c + c0, ldc);
      };
    } else {
      auto a = std::make_shared<std::vector<float>>(p.a.data.begin(), p.a.data.end());
      float* b = panel_ptr<float>(p.b);
      float* c = panel_ptr<float>(p.c);
      float alpha = float(p.alpha), beta = float(p.beta);
      body = [=](std::size_t c0, std::size_t c1, std::ptrdiff_t, std::ptrdiff_t) {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, int(c1 - c0), k, alpha,
                    a->data(), lda, b + c0, ldb, beta, c + c0, ldc);
      };
    }
    out.push_back(std::make_unique<CpuKernel>("blas", gemm_name(p.precision), p, std::move(body)));
    return out;
  }
};

}  // namespace

std::shared_ptr<matmul::Provider> make_blas_provider(CpuBackend&) { return std::make_shared<BlasProvider>(); }

}  // namespace frmini::kernels::cpu

#else
namespace frmini::kernels::cpu {
std::shared_ptr<matmul::Provider> make_blas_provider(CpuBackend&) { return nullptr; }
}  // namespace frmini::kernels::cpu
#endif
