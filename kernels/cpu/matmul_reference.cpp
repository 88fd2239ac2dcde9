// The 'reference' provider: a plain loop accumulating in double (even for float data), the
// oracle every other provider is tested against. Never chosen by auto.
#include <vector>

#include "kernels/cpu/matmul_kernel.hpp"
#include "kernels/cpu/matmul_providers.hpp"

namespace frmini::kernels::cpu {

namespace {

template <class T>
void reference_columns(const matmul::Problem& p, std::size_t c0, std::size_t c1,
                       std::ptrdiff_t bs, std::ptrdiff_t cs) {
  const std::size_t m = p.m(), k = p.k();
  const T* b = shifted(panel_ptr<T>(p.b), bs);
  T* c = shifted(panel_ptr<T>(p.c), cs);
  const std::size_t ldb = p.b.ld, ldc = p.c.ld;
  const std::size_t chunk = 256;
  const bool big = (c1 - c0) * (m + 1) * (k + 1) > (std::size_t(1) << 22);
#pragma omp parallel for schedule(static) if (big)
  for (std::size_t i0 = c0; i0 < c1; i0 += chunk) {
    const std::size_t i1 = std::min(c1, i0 + chunk);
    std::vector<double> acc(i1 - i0);
    for (std::size_t j = 0; j < m; ++j) {
      std::fill(acc.begin(), acc.end(), 0.0);
      for (std::size_t x = 0; x < k; ++x) {
        const double a = p.alpha * p.a(j, x);
        if (a == 0.0) continue;
        const T* brow = b + x * ldb;
        for (std::size_t i = i0; i < i1; ++i) acc[i - i0] += a * double(brow[i]);
      }
      T* crow = c + j * ldc;
      for (std::size_t i = i0; i < i1; ++i)
        crow[i] = p.beta == 0.0 ? T(acc[i - i0]) : T(acc[i - i0] + p.beta * double(crow[i]));
    }
  }
}

class ReferenceProvider : public matmul::Provider {
 public:
  std::string name() const override { return "reference"; }
  std::vector<std::unique_ptr<matmul::Kernel>> candidates(const matmul::Problem& p,
                                                          std::string*) override {
    std::vector<std::unique_ptr<matmul::Kernel>> out;
    auto body = p.precision == Precision::single
                    ? CpuKernel::Body([p](std::size_t b, std::size_t e, std::ptrdiff_t bs, std::ptrdiff_t cs) {
                        reference_columns<float>(p, b, e, bs, cs);
                      })
                    : CpuKernel::Body([p](std::size_t b, std::size_t e, std::ptrdiff_t bs, std::ptrdiff_t cs) {
                        reference_columns<double>(p, b, e, bs, cs);
                      });
    out.push_back(std::make_unique<CpuKernel>("reference", "loop", p, std::move(body)));
    return out;
  }
};

}  // namespace

std::shared_ptr<matmul::Provider> make_reference_provider(CpuBackend&) {
  return std::make_shared<ReferenceProvider>();
}

}  // namespace frmini::kernels::cpu
