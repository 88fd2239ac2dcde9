// The STREAM-style bandwidth probe of the cuda backend: copy (c = a) and triad (a = b + s*c) on
// arrays far above any L2, the best of ten runs each; cached per device (the run report's floor
// and "% of triad").
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "kernels/cache.hpp"
#include "kernels/cuda/backend.hpp"
#include "kernels/matmul/analysis.hpp"

namespace frmini::kernels::cuda {

const Bandwidth& CudaBackend::bandwidth() {
  if (bw_) return *bw_;
  std::string desc = device_description();
  std::string key = "bandwidth/cuda-" + matmul::hex64(matmul::fnv1a(desc.data(), desc.size()));
  if (auto s = cache_read(key)) {
    std::istringstream in(*s);
    Bandwidth b;
    if (in >> b.copy_gbs >> b.triad_gbs) return *(bw_ = b);
  }
  // STREAM copy and triad on 2^25 doubles per array (256 MiB): far above any L2.
  const std::size_t n = std::size_t(1) << 25;
  auto mod = std::static_pointer_cast<CudaModule>(compile(
      "extern \"C\" __global__ void bw_copy(long n, const double* __restrict__ a,"
      " double* __restrict__ c)\n"
      "{ long i = blockIdx.x*(long)blockDim.x + threadIdx.x; if (i < n) c[i] = a[i]; }\n"
      "extern \"C\" __global__ void bw_triad(long n, double* __restrict__ a,"
      " const double* __restrict__ b, const double* __restrict__ c, double s)\n"
      "{ long i = blockIdx.x*(long)blockDim.x + threadIdx.x; if (i < n) a[i] = b[i] + s*c[i]; }\n"));
  auto a = alloc(n * 8), b = alloc(n * 8), c = alloc(n * 8);
  CUdeviceptr pa = ptr(*a), pb = ptr(*b), pc = ptr(*c);
  long ln = long(n);
  double s = 3.0;
  CUfunction fc = mod->function("bw_copy"), ft = mod->function("bw_triad");
  std::size_t grid = (n + 255) / 256;
  auto best = [](std::vector<double> t) { return *std::min_element(t.begin(), t.end()); };
  double tc = best(time_runs(
      [&] { launch(fc, grid, 256, 1, {{&ln, sizeof ln}, {&pa, sizeof pa}, {&pc, sizeof pc}}); }, 2, 10));
  double tt = best(time_runs(
      [&] {
        launch(ft, grid, 256, 1,
               {{&ln, sizeof ln}, {&pa, sizeof pa}, {&pb, sizeof pb}, {&pc, sizeof pc}, {&s, sizeof s}});
      },
      2, 10));
  Bandwidth bw{2.0 * 8.0 * double(n) / tc * 1e-9, 3.0 * 8.0 * double(n) / tt * 1e-9};
  char text[64];
  std::snprintf(text, sizeof text, "%.3f %.3f\n", bw.copy_gbs, bw.triad_gbs);
  cache_write(key, text);
  return *(bw_ = bw);
}

}  // namespace frmini::kernels::cuda
