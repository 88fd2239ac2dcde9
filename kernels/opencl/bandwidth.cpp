// The device bandwidth probe: STREAM copy and triad kernels over arrays four times the
// device's last-level cache (so they measure memory, not cache), best of several runs,
// cached on disk per device.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "kernels/cache.hpp"
#include "kernels/matmul/analysis.hpp"
#include "kernels/opencl/backend.hpp"

namespace frmini::kernels::opencl {
namespace {

const char* probe_source = R"CL(
__kernel void copy(__global const float4* restrict a, __global float4* restrict c) {
  size_t i = get_global_id(0);
  c[i] = a[i];
}
__kernel void triad(__global float4* restrict a, __global const float4* restrict b,
                    __global const float4* restrict c) {
  size_t i = get_global_id(0);
  a[i] = b[i] + 3.0f * c[i];
}
)CL";

}  // namespace

Bandwidth OpenCLBackend::measure_bandwidth() {
  // 4x the reported cache, at least 64 MiB (some drivers report no cache), within what one
  // allocation and a quarter of device memory allow for the three arrays.
  std::size_t bytes = std::max<std::size_t>(4 * info_.global_cache_bytes, std::size_t(64) << 20);
  bytes = std::min({bytes, info_.max_alloc_bytes, info_.global_mem_bytes / 12});
  const std::size_t local = 256, vec = 16;  // float4 = 16 bytes
  bytes = std::max<std::size_t>(bytes / (local * vec), 1) * local * vec;
  const std::size_t nvec = bytes / vec;

  auto module = compile(probe_source);
  auto a = alloc(bytes), b = alloc(bytes), c = alloc(bytes);
  KernelHandle copy_k(module, "copy"), triad_k(module, "triad");
  copy_k.arg(0, mem_of(*a));
  copy_k.arg(1, mem_of(*c));
  triad_k.arg(0, mem_of(*a));
  triad_k.arg(1, mem_of(*b));
  triad_k.arg(2, mem_of(*c));

  auto best = [](const std::vector<double>& t) {
    double m = *std::min_element(t.begin(), t.end());
    return m > 0 ? m : 1e-9;
  };
  Bandwidth bw;
  bw.copy_gbs = 2.0 * double(bytes) / best(time_runs([&] { launch(copy_k, nvec, local); }, 2, 10)) / 1e9;
  bw.triad_gbs = 3.0 * double(bytes) / best(time_runs([&] { launch(triad_k, nvec, local); }, 2, 10)) / 1e9;
  return bw;
}

const Bandwidth& OpenCLBackend::bandwidth() {
  if (bandwidth_) return *bandwidth_;
  const std::string desc = info_.description();
  const std::string key =
      "bandwidth/opencl-" + matmul::hex64(matmul::fnv1a(desc.data(), desc.size()));
  if (auto text = cache_read(key)) {
    std::istringstream in(*text);
    Bandwidth bw;
    if (in >> bw.copy_gbs >> bw.triad_gbs && bw.copy_gbs > 0 && bw.triad_gbs > 0) {
      bandwidth_ = bw;
      return *bandwidth_;
    }
  }
  bandwidth_ = measure_bandwidth();
  char buf[128];
  std::snprintf(buf, sizeof buf, "%.6g %.6g\n", bandwidth_->copy_gbs, bandwidth_->triad_gbs);
  cache_write(key, buf);
  if (verbose_)
    std::fprintf(stderr, "opencl: bandwidth copy %.1f GB/s, triad %.1f GB/s\n",
                 bandwidth_->copy_gbs, bandwidth_->triad_gbs);
  return *bandwidth_;
}

}  // namespace frmini::kernels::opencl
