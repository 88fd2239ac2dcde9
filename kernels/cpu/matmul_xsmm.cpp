// The 'xsmm' provider: libxsmm's fixed-sparse x dense kernels (libxsmm_[ds]fsspmdm), the path
// PyFR's OpenMP backend uses. libxsmm JITs a kernel for the constant A and a block of N
// columns; we run it per block in an OpenMP loop with ldb, ldc = the panels' leading
// dimensions, as PyFR does.
//
// What libxsmm 1.17 (Debian 12) does, and so what this provider must respect:
//  - A handle of width N runs its JIT kernel on chunks of 16 columns (8 for the AVX-512
//    sparse kernel in double) in `for (i = 0; i < N; i += chunk)`: N must be a multiple of 16,
//    or the last chunk reads and writes past the block (1.17 only asserts it, and its asserts
//    are compiled out). Without AVX-512 (or LIBXSMM_TARGET=hsw) every handle takes the
//    16-column dense path, so the 8-column multiples that suit AVX-512 overran there.
//  - Without AVX there is no JIT: the handle's kernel is null and executing it crashes.
//  - beta must be 0 or 1; all-zero A, and all-zero rows with beta = 0, are mishandled.
// So every handle is 16k columns wide, and a column range [c0, c1) (any range: the solver's
// cache-blocked chains ask for multiples of the SIMD width) runs as whole blocks of the
// candidate's width, then whole 16-column chunks, then a ragged rest of fewer than 16 columns
// copied through a 16-column scratch panel. No call reaches outside [c0, c1).
// Candidates: block widths near 64, 128 and 32 columns, each also with non-temporal C stores
// when beta = 0 (PyFR's choice for large C); the tuner times them all so the peer is at its best.
#include "kernels/cpu/matmul_providers.hpp"

#if FRMINI_CPU_HAVE_XSMM
#include <libxsmm.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <vector>

#include "kernels/cpu/matmul_kernel.hpp"
#include "kernels/cpu/device.hpp"
#include "kernels/matmul/analysis.hpp"

namespace frmini::kernels::cpu {

namespace {

// libxsmm 1.17's fsspmdm chunk: every handle's width is a multiple of it.
constexpr std::size_t chunk = 16;

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
  // The dense kernel fsspmdm falls back to (always, without AVX-512): null = none can be JITed.
  static bool dense_available(int m, int k, int ldb, int ldc, double beta, int flags) {
    const double one = 1.0;
    return libxsmm_dmmdispatch(int(chunk), m, k, &ldb, &k, &ldc, &one, &beta, &flags,
                               nullptr) != nullptr;
  }
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
  static bool dense_available(int m, int k, int ldb, int ldc, double beta, int flags) {
    const float one = 1.0f, b = float(beta);
    return libxsmm_smmdispatch(int(chunk), m, k, &ldb, &k, &ldc, &one, &b, &flags,
                               nullptr) != nullptr;
  }
};

template <class T>
struct Handles {
  typename Traits<T>::handle* full = nullptr;     // the candidate's block width, panel lds
  typename Traits<T>::handle* chunk16 = nullptr;  // 16 columns, panel lds
  typename Traits<T>::handle* scratch = nullptr;  // 16 columns, ld 16: the ragged rest
  ~Handles() {
    for (auto* h : {full, chunk16, scratch})
      if (h) Traits<T>::destroy(h);
  }
};

// Columns [c0, c0 + r), r < 16, through a zero-padded 16-column copy: libxsmm never sees a
// column outside the range.
template <class T>
void run_ragged(const typename Traits<T>::handle* h, const T* b, T* c, std::size_t ldb,
                std::size_t ldc, std::size_t m, std::size_t k, bool beta1, std::size_t r) {
  // 64-byte aligned, as the panels are (vectors of the scratch rows start on cache lines).
  constexpr std::size_t pad = 64 / sizeof(T);
  thread_local std::vector<T> bbuf, cbuf;
  bbuf.assign(k * chunk + pad, T(0));
  cbuf.assign(m * chunk + pad, T(0));
  auto aligned = [](std::vector<T>& v) {
    const auto mis = reinterpret_cast<std::uintptr_t>(v.data()) % 64;
    return v.data() + (mis ? (64 - mis) / sizeof(T) : 0);
  };
  T* bs = aligned(bbuf);
  T* cs = aligned(cbuf);
  for (std::size_t i = 0; i < k; ++i) std::copy_n(b + i * ldb, r, bs + i * chunk);
  if (beta1)
    for (std::size_t i = 0; i < m; ++i) std::copy_n(c + i * ldc, r, cs + i * chunk);
  Traits<T>::execute(h, bs, cs);
  for (std::size_t i = 0; i < m; ++i) std::copy_n(cs + i * chunk, r, c + i * ldc);
}

template <class T>
std::unique_ptr<matmul::Kernel> make(const matmul::Problem& p, std::size_t blk, bool nt,
                                     std::string* why) {
  const std::size_t m = p.m(), k = p.k(), ldb = p.b.ld, ldc = p.c.ld;
  // alpha folded into A and entries below the zero tolerance cleaned, as for every provider.
  std::vector<T> a(m * k);
  for (std::size_t i = 0; i < m * k; ++i) {
    double v = p.alpha * p.a.data[i];
    a[i] = std::abs(p.a.data[i]) <= matmul::zero_tol ? T(0) : T(v);
  }
  std::size_t an_nnz = 0;
  for (const T& x : a) an_nnz += x != T(0);
  auto h = std::make_shared<Handles<T>>();
  auto create = [&](std::size_t width, std::size_t lb, std::size_t lc, bool use_nt) {
    auto* x = Traits<T>::create(int(m), int(width), int(k), int(lb), int(lc), p.beta,
                                use_nt ? 1 : 0, a.data());
    if (!x && why) *why = "libxsmm_fsspmdm_create failed for N=" + std::to_string(width);
    return x;
  };
  if (!(h->full = create(blk, ldb, ldc, nt))) return nullptr;
  if (blk == chunk) h->chunk16 = nullptr;
  else if (!(h->chunk16 = create(chunk, ldb, ldc, nt))) return nullptr;
  if (!(h->scratch = create(chunk, chunk, chunk, false))) return nullptr;
  const T* b = panel_ptr<T>(p.b);
  T* c = panel_ptr<T>(p.c);
  const bool beta1 = p.beta != 0.0;
  const std::size_t work = (an_nnz + m) * blk;
  auto body = [h, b0 = b, c0p = c, blk, work, m, k, ldb, ldc, beta1](
                  std::size_t c0, std::size_t c1, std::ptrdiff_t bs, std::ptrdiff_t cs) {
    const T* b = shifted(b0, bs);
    T* c = shifted(c0p, cs);
    const std::size_t nb = (c1 - c0) / blk;
#pragma omp parallel for schedule(static) if (nb > 1 && nb * work > (std::size_t(1) << 20))
    for (std::size_t ib = 0; ib < nb; ++ib)
      Traits<T>::execute(h->full, b + c0 + ib * blk, c + c0 + ib * blk);
    std::size_t j = c0 + nb * blk;
    for (; j + chunk <= c1; j += chunk)
      Traits<T>::execute(h->chunk16 ? h->chunk16 : h->full, b + j, c + j);
    if (j < c1) run_ragged<T>(h->scratch, b + j, c + j, ldb, ldc, m, k, beta1, c1 - j);
  };
  std::string strat = "fsspmdm-n" + std::to_string(blk) + (nt ? "-nt" : "");
  return std::make_unique<CpuKernel>("xsmm", strat, p, body);
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
    if ((p.b.offset * s) % 64 || (p.c.offset * s) % 64)
      return decline("panels must be 64-byte aligned");
    if (p.m() == 0 || p.k() == 0 || p.n == 0) return decline("empty product");
    if (p.n < chunk) return decline("n < 16: narrower than libxsmm's 16-column kernels");
    // libxsmm writes outside the product for an all-zero A (seen with 1.17): nothing to gain.
    // and leaves the C rows of all-zero A rows unwritten when beta = 0.
    const auto an = matmul::analyse(p.a, p.alpha);
    if (an.nnz == 0) return decline("A is all zero");
    if (p.beta == 0.0 && an.m_nz < an.m) return decline("A has all-zero rows (libxsmm skips them)");
    static std::once_flag init;
    std::call_once(init, [] {
      libxsmm_init();
      // The ISA frmini targets (device.hpp) is libxsmm's too, so FRMINI_CPU_ISA=avx2 tests
      // the path an AVX2-only machine takes; "native" leaves it to libxsmm (and LIBXSMM_TARGET).
      if (!isa_target().xsmm_arch.empty())
        libxsmm_set_target_arch(isa_target().xsmm_arch.c_str());
    });
    if (libxsmm_get_target_archid() < LIBXSMM_X86_AVX)
      return decline(std::string("libxsmm has no JIT for target '") + libxsmm_get_target_arch() +
                     "' (needs AVX)");
    const bool single = p.precision == Precision::single;
    for (std::size_t lb : {p.b.ld, chunk}) {
      const std::size_t lc = lb == chunk ? chunk : p.c.ld;
      const int flags = LIBXSMM_GEMM_FLAGS('N', 'N');
      const bool ok = single ? Traits<float>::dense_available(int(p.m()), int(p.k()), int(lb),
                                                              int(lc), p.beta, flags)
                             : Traits<double>::dense_available(int(p.m()), int(p.k()), int(lb),
                                                               int(lc), p.beta, flags);
      if (!ok) return decline("libxsmm cannot JIT its dense kernel for this shape");
    }
    // Block widths near 64, 128 and 32 columns, multiples of 16 no wider than the columns a
    // call gets (the panel, or a cache-blocked chain's block): of those within a factor of two,
    // the one nearest that divides n (no 16-column tail calls), else the width itself.
    const std::size_t cols = p.block ? std::min(p.block, p.n) : p.n;
    const std::size_t widest = std::max(chunk, cols / chunk * chunk);
    auto dist = [](std::size_t a, std::size_t b) { return a > b ? a - b : b - a; };
    std::vector<std::size_t> blks;
    for (std::size_t want : {std::size_t(64), std::size_t(128), std::size_t(32)}) {
      std::size_t best = 0;
      for (std::size_t b = chunk; b <= 2 * want && b <= widest; b += chunk)
        if (p.n % b == 0 && 2 * b >= want && (!best || dist(b, want) < dist(best, want))) best = b;
      if (!best) best = std::min(want, widest);
      if (std::find(blks.begin(), blks.end(), best) == blks.end()) blks.push_back(best);
    }
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
