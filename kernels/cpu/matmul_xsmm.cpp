// The 'xsmm' provider: libxsmm's fixed-sparse x dense kernels (libxsmm_[ds]fsspmdm), the path
// PyFR's OpenMP backend uses. libxsmm JITs a kernel for the constant A and a block of N
// columns; we run it per block in an OpenMP loop with ldb, ldc = the panels' leading
// dimensions, exactly as PyFR does.
//
// What libxsmm supports, and therefore when this provider declines (with the reason):
//  - beta must be 0 or 1;
//  - ldb and ldc must be multiples of the vector length (8 doubles / 16 floats on AVX-512)
//    and the panels 64-byte aligned;
//  - n must have a block width N dividing it that is a multiple of two vector lengths (near
//    32, 64 or 128 columns): libxsmm 1.17's dense kernels write whole pairs of vectors (asked
//    for N = 40 doubles, they write 48 columns), so any other N overwrites its neighbour.
//    Every block then uses the same handle (no remainder).
// Candidates: those block widths, each also with non-temporal C stores when beta = 0 (PyFR's
// choice for large C); the tuner times them all so the peer is at its best.
#include "kernels/cpu/providers.hpp"

#if FRMINI_CPU_HAVE_XSMM
#include <libxsmm.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "kernels/cpu/cpu_kernel.hpp"
#include "kernels/cpu/machine.hpp"
#include "kernels/matmul/analysis.hpp"

namespace frmini::kernels::cpu {

namespace {

template <class T>
struct Traits;
template <>
struct Traits<double> {
  using handle = libxsmm_dfsspmdm;
  static handle* create(int m, int n, int k, int ldb, int ldc, double beta, int nt,
                        const double* a) {
    return libxsmm_dfsspmdm_create(m, n, k, k, ldb, ldc, 1.0, beta, nt, a);
  }
  static void execute(const handle* h, const double* b, double* c) {
    libxsmm_dfsspmdm_execute(h, b, c);
  }
  static void destroy(handle* h) { libxsmm_dfsspmdm_destroy(h); }
};
template <>
struct Traits<float> {
  using handle = libxsmm_sfsspmdm;
  static handle* create(int m, int n, int k, int ldb, int ldc, double beta, int nt,
                        const float* a) {
    return libxsmm_sfsspmdm_create(m, n, k, k, ldb, ldc, 1.0f, float(beta), nt, a);
  }
  static void execute(const handle* h, const float* b, float* c) {
    libxsmm_sfsspmdm_execute(h, b, c);
  }
  static void destroy(handle* h) { libxsmm_sfsspmdm_destroy(h); }
};

template <class T>
struct Handles {
  typename Traits<T>::handle* full = nullptr;
  typename Traits<T>::handle* tail = nullptr;
  ~Handles() {
    if (full) Traits<T>::destroy(full);
    if (tail) Traits<T>::destroy(tail);
  }
};

template <class T>
std::unique_ptr<matmul::Kernel> make(const matmul::Problem& p, std::size_t blk, bool nt,
                                     std::string* why) {
  const std::size_t m = p.m(), k = p.k(), n = p.n;
  // alpha folded into A and entries below the zero tolerance cleaned, as for every provider.
  std::vector<T> a(m * k);
  for (std::size_t i = 0; i < m * k; ++i) {
    double v = p.alpha * p.a.data[i];
    a[i] = std::abs(p.a.data[i]) <= matmul::zero_tol ? T(0) : T(v);
  }
  std::size_t an_nnz = 0;
  for (const T& x : a) an_nnz += x != T(0);
  auto h = std::make_shared<Handles<T>>();
  const std::size_t nfull = n / blk, rem = n % blk;
  if (nfull) {
    h->full = Traits<T>::create(int(m), int(blk), int(k), int(p.b.ld), int(p.c.ld), p.beta,
                                nt ? 1 : 0, a.data());
    if (!h->full) {
      if (why) *why = "libxsmm_fsspmdm_create failed for N=" + std::to_string(blk);
      return nullptr;
    }
  }
  if (rem) {
    h->tail = Traits<T>::create(int(m), int(rem), int(k), int(p.b.ld), int(p.c.ld), p.beta,
                                nt ? 1 : 0, a.data());
    if (!h->tail) {
      if (why) *why = "libxsmm_fsspmdm_create failed for N=" + std::to_string(rem);
      return nullptr;
    }
  }
  const T* b = panel_ptr<T>(p.b);
  T* c = panel_ptr<T>(p.c);
  const std::size_t work = (an_nnz + m) * blk;
  auto body = [h, b, c, blk, rem, work](std::size_t c0, std::size_t c1) {
    // run_columns ranges start on multiples of the soa width; whole blocks from c0, then the
    // tail handle only if the remainder is exactly the panel's tail width.
    const std::size_t nb = (c1 - c0) / blk;
#pragma omp parallel for schedule(static) if (nb > 1 && nb * work > (std::size_t(1) << 20))
    for (std::size_t ib = 0; ib < nb; ++ib)
      Traits<T>::execute(h->full, b + c0 + ib * blk, c + c0 + ib * blk);
    const std::size_t done = c0 + nb * blk;
    if (done < c1) {
      // The tail handle has the panel's remainder width: a sub-range must end at n or after
      // whole blocks (cache-blocked callers use block-multiple ranges).
      if (c1 - done != rem || !h->tail)
        throw std::logic_error("xsmm kernel: column range not a multiple of its block");
      Traits<T>::execute(h->tail, b + done, c + done);
    }
  };
  std::string strat = "fsspmdm-n" + std::to_string(blk) + (nt ? "-nt" : "");
  return std::make_unique<CpuKernel>("xsmm", strat, n, body);
}

class XsmmProvider : public matmul::Provider {
 public:
  std::string name() const override { return "xsmm"; }
  std::vector<std::unique_ptr<matmul::Kernel>> candidates(const matmul::Problem& p,
                                                          std::string* why) override {
    std::vector<std::unique_ptr<matmul::Kernel>> out;
    const std::size_t s = itemsize(p.precision), vl = simd_bytes() / s;
    auto decline = [&](const std::string& r) {
      if (why) *why = r;
      return std::vector<std::unique_ptr<matmul::Kernel>>{};
    };
    if (p.beta != 0.0 && p.beta != 1.0) return decline("libxsmm supports beta 0 or 1 only");
    if (p.b.ld % vl || p.c.ld % vl)
      return decline("ldb and ldc must be multiples of " + std::to_string(vl));
    if (p.n % vl) return decline("n must be a multiple of " + std::to_string(vl));
    if ((p.b.offset * s) % 64 || (p.c.offset * s) % 64)
      return decline("panels must be 64-byte aligned");
    if (p.m() == 0 || p.k() == 0 || p.n == 0) return decline("empty product");
    // libxsmm writes outside the product for an all-zero A (seen with 1.17): nothing to gain.
    // and leaves the C rows of all-zero A rows unwritten when beta = 0.
    const auto an = matmul::analyse(p.a, p.alpha);
    if (an.nnz == 0) return decline("A is all zero");
    if (p.beta == 0.0 && an.m_nz < an.m) return decline("A has all-zero rows (libxsmm skips them)");
    static std::once_flag init;
    std::call_once(init, [] { libxsmm_init(); });
    // Block widths dividing n, so that no handle of another width is needed.
    // Its dense kernels also write whole pairs of vectors (N = 40 doubles writes 48 columns),
    // so block widths are multiples of two vectors.
    std::vector<std::size_t> blks;
    const std::size_t step = 2 * vl;
    for (std::size_t want : {std::size_t(64), std::size_t(128), std::size_t(32)}) {
      // The multiple of 2 vl dividing n nearest to `want` within [want/2, 2*want].
      std::size_t best = 0;
      for (std::size_t b = step; b <= 2 * want && b <= p.n; b += step)
        if (p.n % b == 0 && 2 * b >= want &&
            (!best || (b > want ? b - want : want - b) < (best > want ? best - want : want - best)))
          best = b;
      if (best && std::find(blks.begin(), blks.end(), best) == blks.end()) blks.push_back(best);
    }
    if (blks.empty() && p.n <= 256 && p.n % step == 0) blks.push_back(p.n);
    if (blks.empty())
      return decline("n = " + std::to_string(p.n) + " has no block width (a multiple of " +
                     std::to_string(step) + " in [16, 256]) dividing it");
    for (std::size_t blk : blks)
      for (bool nt : {false, true}) {
        if (nt && p.beta != 0.0) continue;
        std::string w;
        auto k = p.precision == Precision::double_ ? make<double>(p, blk, nt, &w)
                                                   : make<float>(p, blk, nt, &w);
        if (k) out.push_back(std::move(k));
        else if (why) *why = w;
      }
    return out;
  }
};

}  // namespace

std::shared_ptr<matmul::Provider> make_xsmm_provider(CpuBackend&) {
  return std::make_shared<XsmmProvider>();
}

}  // namespace frmini::kernels::cpu

#else
namespace frmini::kernels::cpu {
std::shared_ptr<matmul::Provider> make_xsmm_provider(CpuBackend&) { return nullptr; }
}  // namespace frmini::kernels::cpu
#endif
