// The cpu 'generated' provider: bespoke C kernels (matmul_source.hpp) compiled at run time by the
// backend and loaded with dlopen. All strategies of one problem live in one shared object,
// so one compilation serves the tuner's whole candidate list (and every n: n is a run-time
// argument; A, alpha, beta, precision and the leading dimensions are baked in).
#include <algorithm>
#include <cstdint>
#include <sstream>

#include "kernels/cpu/matmul_source.hpp"
#include "kernels/cpu/matmul_kernel.hpp"
#include "kernels/cpu/device.hpp"
#include "kernels/cpu/matmul_providers.hpp"

namespace frmini::kernels::cpu {

namespace {

// Beyond this many non-zeros the unrolled strategies' compile time stops being reasonable
// (seconds); only the packed (loop) strategies are offered.
constexpr std::size_t max_unrolled_nnz = 8000;
// Beyond this, a single unrolled strategy (compile time).
constexpr std::size_t max_menu_nnz = 2000;

// The strategies offered, best-first by a rough heuristic (this order is also the tuner's
// incumbency order, so a later strategy must be 5% faster to be chosen).
std::vector<CStrategy> strategies_for(const matmul::Analysis& an, const matmul::Problem& p,
                                      std::size_t vl) {
  std::vector<CStrategy> out;
  const bool dense = an.density() > 0.5;
  auto add = [&](CStrategy::Kind k, int vecs, int group, bool la = false) {
    // No point in blocks much wider than the panel.
    if (vecs > 1 && std::size_t(vecs) * vl > std::max<std::size_t>(p.n, vl)) return;
    CStrategy s{k, vecs, group, false};
    s.lookahead = la;
    out.push_back(s);
  };
  // Look-ahead variants only for whole panels: in a cache-blocked chain B is already in cache.
  const bool la = p.block == 0;
  if (dense || an.nnz > max_unrolled_nnz) {
    add(CStrategy::packed, 1, 12);
    add(CStrategy::packed, 2, 6);
    add(CStrategy::packed, 4, 3);
    return out;
  }
  add(CStrategy::cstream, 1, 1);
  // GCC compiles roughly 2-4k unrolled multiply-adds per second: large operators get the one
  // strategy that has proven best, small ones the full menu.
  if (an.nnz <= max_menu_nnz) add(CStrategy::bstream, 1, 8);
  if (la) add(CStrategy::cstream, 1, 1, true);
  if (la && an.nnz <= max_menu_nnz) add(CStrategy::bstream, 1, 8, true);
  return out;
}

class GeneratedProvider : public matmul::Provider {
 public:
  explicit GeneratedProvider(CpuBackend& be) : be_(be) {}
  std::string name() const override { return "generated"; }

  std::vector<std::unique_ptr<matmul::Kernel>> candidates(const matmul::Problem& p,
                                                          std::string* why) override {
    std::vector<std::unique_ptr<matmul::Kernel>> out;
    if (p.b.ld < (p.b.window ? p.b.window : p.n) || p.c.ld < (p.c.window ? p.c.window : p.n)) {
      if (why) *why = "leading dimensions smaller than n (or than a scratch panel's window)";
      return out;
    }
    const std::size_t s = itemsize(p.precision), sb = simd_bytes(), vl = sb / s;
    auto an = matmul::analyse(p.a, p.alpha);
    const auto cbase = reinterpret_cast<std::uintptr_t>(host_ptr(*p.c.buf, p.c.offset * s));
    // Inside a chain C stays in cache for the next kernel: never stream it past the cache,
    // unless nothing in the chain reads it and it cannot survive in the cache until it is
    // read: then streaming stores only save reading every line before it is written, and
    // they are the only candidates, as timing one block at a time cannot see that saving.
    // What passes through the cache before C is read again is at least C and, for each of
    // its columns, the k rows the chain made B from (B is in cache, but what it was made of
    // came from memory): C alone just under the cache (Taylor-Green p = 3 single, the
    // gradient at the flux points: 31.5 MB against 32 MiB) is evicted all the same.
    const bool aligned = p.beta == 0.0 && cbase % 64 == 0 && (p.c.ld * s) % 64 == 0 && sb >= 16;
    const std::size_t llc = usable_llc_bytes(be_.threads());
    const bool stream_out =
        aligned && p.block && p.c_leaves_chain && llc && (p.m() + p.k()) * p.n * s > llc;
    const bool nt_ok = aligned && (p.block == 0 || stream_out);
    const std::size_t ncols = p.block ? std::min(p.block, p.n) : p.n;
    auto strats = strategies_for(an, p, vl);

    CodegenInput in;
    in.an = &an;
    in.beta = p.beta;
    in.precision = p.precision;
    in.simd_bytes = sb;
    in.ldb = p.b.ld;
    in.ldc = p.c.ld;
    auto mod = be_.compile_c(generate_c(in, strats));

    // Each compiled strategy twice when C may be streamed: plain stores first (the
    // incumbent: best while C fits in cache), then streaming stores.
    // And each at several block widths (columns: one vector, 32, 80), with and without
    // software prefetch -- all run-time arguments of the same compiled code, chosen by timing.
    std::vector<int> widths;
    for (std::size_t w : {vl, std::size_t(32), std::size_t(80)}) {
      std::size_t nv = std::max<std::size_t>(1, w / vl);
      if (std::find(widths.begin(), widths.end(), int(nv)) == widths.end() &&
          (nv == 1 || nv * vl <= ncols))
        widths.push_back(int(nv));
    }
    for (int nvb : widths)
    for (int pf = 0; pf <= 2; ++pf)  // 2: row sweep (no prefetch), widest blocks only
    if ((pf < 2 || nvb == widths.back()) && (pf == 0 || p.block == 0))  // chains: B is in cache
    for (int nt = stream_out ? 1 : 0; nt <= (nt_ok ? 1 : 0); ++nt)
      for (std::size_t i = 0; i < strats.size(); ++i) {
        if (strats[i].lookahead && pf != 0) continue;  // it prefetches by itself
        const long pfd = pf == 1 ? long(2 * vl * std::size_t(strats[i].vecs * nvb)) : 0;
        const int rs = pf == 2;
        CpuKernel::Body body;
        void* f = mod->symbol(mm_symbol(i));
        if (p.precision == Precision::double_) {
          using fn_t = void (*)(long, long, const double*, double*, int, long, int, int);
          auto fn = reinterpret_cast<fn_t>(f);
          const double* b = panel_ptr<double>(p.b);
          double* c = panel_ptr<double>(p.c);
          body = [mod, fn, b, c, nt, pfd, nvb, rs](std::size_t c0, std::size_t c1,
                                                   std::ptrdiff_t bs, std::ptrdiff_t cs) {
            fn(long(c0), long(c1), shifted(b, bs), shifted(c, cs), nt, pfd, nvb, rs);
          };
        } else {
          using fn_t = void (*)(long, long, const float*, float*, int, long, int, int);
          auto fn = reinterpret_cast<fn_t>(f);
          const float* b = panel_ptr<float>(p.b);
          float* c = panel_ptr<float>(p.c);
          body = [mod, fn, b, c, nt, pfd, nvb, rs](std::size_t c0, std::size_t c1,
                                                   std::ptrdiff_t bs, std::ptrdiff_t cs) {
            fn(long(c0), long(c1), shifted(b, bs), shifted(c, cs), nt, pfd, nvb, rs);
          };
        }
        auto st = strats[i];
        st.nt = nt != 0;
        st.prefetch = pf == 1;
        st.row_sweep = rs != 0;
        st.width = int(std::size_t(nvb * strats[i].vecs) * vl);
        out.push_back(std::make_unique<CpuKernel>("generated", st.name(), p, std::move(body)));
      }
    return out;
  }

 private:
  CpuBackend& be_;
};

}  // namespace

std::shared_ptr<matmul::Provider> make_generated_provider(CpuBackend& be) {
  return std::make_shared<GeneratedProvider>(be);
}

}  // namespace frmini::kernels::cpu
