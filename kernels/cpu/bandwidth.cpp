// The STREAM-style bandwidth probe: copy (c = a) and triad (a = b + s*c) over arrays of at least
// 4x the last-level cache each, OpenMP static schedule, best rate over chunks of several
// passes. The loops are
// compiled at run time like every kernel (same compiler and ISA target, -O3), with ordinary
// stores (no streaming stores, no memcpy), counting the bytes the STREAM way: 16 B per copied
// element, 24 B per triad element.
#include <algorithm>
#include <chrono>

#include "kernels/cpu/backend.hpp"
#include "kernels/cpu/compiler.hpp"
#include "kernels/cpu/device.hpp"

namespace frmini::kernels::cpu {

namespace {
const char* probe_source = R"(#include <omp.h>
void frmini_bw_init(double* restrict a, double* restrict b, double* restrict c, long n) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; i++) { a[i] = 1.0; b[i] = 2.0; c[i] = 0.5; }
}
void frmini_bw_copy(double* restrict c, const double* restrict a, long n) {
#pragma omp parallel for simd schedule(static)
  for (long i = 0; i < n; i++) c[i] = a[i];
}
void frmini_bw_triad(double* restrict a, const double* restrict b, const double* restrict c,
                     double s, long n) {
#pragma omp parallel for simd schedule(static)
  for (long i = 0; i < n; i++) a[i] = b[i] + s * c[i];
}
)";

using init_fn = void (*)(double*, double*, double*, long);
using copy_fn = void (*)(double*, const double*, long);
using triad_fn = void (*)(double*, const double*, const double*, double, long);
}  // namespace

Bandwidth measure_bandwidth(CpuBackend& be) {
  // GCC would turn the copy loop into a memcpy call; clang ($FRMINI_CC) lacks the option.
  auto mod = be.compile_c(probe_source, accepted_flags({"-fno-tree-loop-distribute-patterns"}));
  auto init = reinterpret_cast<init_fn>(mod->symbol("frmini_bw_init"));
  auto copy = reinterpret_cast<copy_fn>(mod->symbol("frmini_bw_copy"));
  auto triad = reinterpret_cast<triad_fn>(mod->symbol("frmini_bw_triad"));

  std::size_t llc = llc_bytes();
  std::size_t bytes = std::max<std::size_t>(4 * (llc ? llc : (32u << 20)), 64u << 20);
  long n = long(bytes / sizeof(double));
  CpuBuffer ba(bytes), bb(bytes), bc(bytes);
  auto a = static_cast<double*>(ba.data());
  auto b = static_cast<double*>(bb.data());
  auto c = static_cast<double*>(bc.data());
  init(a, b, c, n);  // first touch by the threads that will use the pages

  // Each pass is timed chunk by chunk (n/32 elements per array, still 8x the cache in all
  // for the triad) and the best chunk counts: on a machine shared with other work a whole
  // 400 MB pass is rarely free of preemption, a 4 MB chunk often is. Arrays far larger than
  // the last-level cache guarantee every chunk streams from memory.
  // Copy and triad passes alternate so that both see the same quiet moments; within a pass
  // every chunk was last touched hundreds of MB earlier, so it streams from memory.
  const long nchunk = 32, chunk = n / nchunk;
  auto best_pass = [&](auto&& f, double bytes_per_elem) {
    double best = 0;
    for (long ic = 0; ic < nchunk; ++ic) {
      auto t0 = std::chrono::steady_clock::now();
      f(ic * chunk);
      auto t1 = std::chrono::steady_clock::now();
      double dt = std::chrono::duration<double>(t1 - t0).count();
      if (dt > 0) best = std::max(best, bytes_per_elem * double(chunk) / dt * 1e-9);
    }
    return best;
  };
  Bandwidth bw;
  for (int pass = 0; pass < 8; ++pass) {
    double rc = best_pass([&](long o) { copy(c + o, a + o, chunk); }, 16.0);
    double rt = best_pass([&](long o) { triad(a + o, b + o, c + o, 3.0, chunk); }, 24.0);
    if (pass == 0) continue;  // the first pass faults the pages in and warms up
    bw.copy_gbs = std::max(bw.copy_gbs, rc);
    bw.triad_gbs = std::max(bw.triad_gbs, rt);
  }
  return bw;
}

}  // namespace frmini::kernels::cpu
