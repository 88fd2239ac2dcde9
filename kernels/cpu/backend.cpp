#include "kernels/cpu/backend.hpp"
#include "kernels/cpu/matmul_kernel.hpp"

#include <omp.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <sstream>

#include "kernels/backends.hpp"
#include "kernels/cache.hpp"
#include "kernels/cpu/device.hpp"
#include "kernels/cpu/matmul_providers.hpp"
#include "kernels/matmul/analysis.hpp"

namespace frmini::kernels::cpu {

namespace {
constexpr std::size_t huge_page = 2u << 20;
}

CpuBuffer::CpuBuffer(std::size_t bytes) : Buffer(bytes) {
  // Large panels are strided by their leading dimension: every B row of a column block sits on
  // its own 4 KiB page, so transparent huge pages save many TLB misses.
  const bool large = bytes >= huge_page;
  const std::size_t align = large ? huge_page : 64;
  std::size_t rounded = (std::max<std::size_t>(bytes, 1) + align - 1) / align * align;
  data_ = std::aligned_alloc(align, rounded);
  if (!data_) throw std::bad_alloc();
  if (large) madvise(data_, rounded, MADV_HUGEPAGE);
  std::memset(data_, 0, rounded);
}

CpuBuffer::~CpuBuffer() { std::free(data_); }

CpuBackend::CpuBackend(const BackendOptions& opts) : opts_(opts), compiler_(opts.verbose) {
  isa_target();  // a bad $FRMINI_CPU_ISA is reported now, not at the first kernel
  if (opts_.threads > 0) omp_set_num_threads(opts_.threads);
  // An impulsively started flow (the cylinders from uniform flow) leaves the far field's
  // disturbances decaying through the subnormal range in single precision: on the Re 3900
  // cylinder at p = 3 (Intel Xeon, AVX-512, 27 Nov 2026) the flux kernel at the solution points
  // ran 2.4x slower with them, the whole step a quarter slower. PyFR's kernels flush them too
  // (-Ofast's start-up code sets the same bits). Set for the process: its OpenMP threads run
  // kernels and the host's loops over the mesh, in double precision, whose subnormals (below
  // 2.2e-308) such loops never meet.
  set_flush_denormals(opts_.flush_denormals);
}

int CpuBackend::threads() const { return max_threads(); }

std::string CpuBackend::device_description() const {
  std::ostringstream s;
  s << cpu_model() << ", " << threads() << " threads, " << simd_bytes() * 8 << "-bit SIMD";
  // Only a chosen ISA is named, so reports and tuning-cache keys of default runs stay as they
  // were; a chosen one changes both (decisions made for one ISA are not reused for another).
  if (isa_target().name != "native") s << " (" << isa_target().name << " target)";
  return s.str();
}

// A cache line of each variable, whatever the vector width (as PyFR's 64-byte alignb): with
// 32-byte vectors a 4-wide SoA block put two blocks in each line, and the interface kernels,
// which visit the blocks in face order, fetched most lines twice. Kernels take a block as
// several vectors.
std::size_t CpuBackend::soa_width(Precision p) const {
  return std::max<std::size_t>(simd_bytes(), 64) / itemsize(p);
}

std::size_t CpuBackend::last_level_cache_bytes() const { return llc_bytes(); }

std::unique_ptr<Buffer> CpuBackend::alloc(std::size_t bytes) {
  return std::make_unique<CpuBuffer>(bytes);
}

void CpuBackend::upload(Buffer& dst, std::size_t off, const void* src, std::size_t bytes) {
  if (bytes) std::memcpy(host_ptr(dst, off), src, bytes);
}

void CpuBackend::download(void* dst, const Buffer& src, std::size_t off, std::size_t bytes) {
  if (bytes) std::memcpy(dst, host_ptr(src, off), bytes);
}

void CpuBackend::copy(Buffer& dst, std::size_t doff, const Buffer& src, std::size_t soff,
                      std::size_t bytes) {
  if (bytes) std::memmove(host_ptr(dst, doff), host_ptr(src, soff), bytes);
}

std::shared_ptr<CpuModule> CpuBackend::compile_c(const std::string& source,
                                                 const std::vector<std::string>& flags) {
  return compiler_.compile(source, flags);
}

std::shared_ptr<Module> CpuBackend::compile(const std::string& source,
                                            const std::vector<std::string>& flags) {
  return compile_c(source, flags);
}

std::vector<double> CpuBackend::time_runs(const std::function<void()>& enqueue, int warmup,
                                          int nrep) {
  for (int i = 0; i < warmup; ++i) enqueue();
  std::vector<double> t;
  t.reserve(std::size_t(std::max(nrep, 0)));
  for (int i = 0; i < nrep; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    enqueue();
    auto t1 = std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  return t;
}

int64_t CpuBackend::chain_block(std::size_t unit_bytes, int64_t align) const {
  if (opts_.chain_block < 0) return 0;
  if (opts_.chain_block > 0) return std::max<int64_t>(align, opts_.chain_block / align * align);
  // A block's working set: an eighth of the last-level cache's share per thread, and at least
  // half a core's L2. Measured on hex p3 Navier-Stokes (2 threads, 1 MB L2, 32 MB L3 shared
  // with a VM's neighbours; 24 Nov 2026), s per step in alternated rounds: on the
  // Taylor-Green box 144 elements (a third of the share) 0.366-0.386, 96 0.349-0.359,
  // 64 0.306-0.365, 56 (an eighth) 0.305-0.318; on cylinder3d 144 0.520-0.539, 64
  // 0.476-0.509, 48 0.496-0.529; L2-sized blocks (8 elements) were slower still. Larger
  // blocks spend less time in call overhead and partial vectors, but past a few MB their
  // intermediates no longer stay in the part of the L3 the machine leaves this process.
  // On a 2-vCPU Intel Xeon VM (2 MiB L2, sysfs reporting the host's 480 MiB L3, of which
  // usable_llc_bytes counts 32), Taylor-Green hex p3 with streaming chain outputs ran in
  // 0.36-0.37 s per step at 24 elements, 0.35-0.36 at 56-80, 0.36-0.37 at 112 and 0.39-0.41
  // at 200: again about 2 MiB a thread.
  const std::size_t l2 = l2_bytes() ? l2_bytes() : (std::size_t(1) << 20);
  const int nt = std::max(threads(), 1);
  const std::size_t share = usable_llc_bytes(nt) / (8 * std::size_t(nt));
  const int64_t units = int64_t(std::max(l2 / 2, share) / std::max<std::size_t>(unit_bytes, 1));
  return std::max<int64_t>(align, units / align * align);
}

void CpuBackend::run_chain(int64_t begin, int64_t end, int64_t block, const std::vector<ChainStep>& steps,
                           const std::function<void()>& poll) {
  if (block <= 0 || block >= end - begin) {
    Backend::run_chain(begin, end, 0, steps, poll);  // each kernel parallel over the whole range
    return;
  }
  const int64_t nb = (end - begin + block - 1) / block;
  // An exception must not leave an OpenMP region (that is std::terminate): the first one is
  // kept, the other blocks are skipped, and it is thrown again after the region.
  std::exception_ptr failed;
  std::atomic<bool> stop{false};
  // Static: each thread walks a contiguous run of blocks, which the prefetchers follow; the
  // kernels see omp_in_parallel() and run serially on their block.
#pragma omp parallel for schedule(static)
  for (int64_t ib = 0; ib < nb; ++ib) {
    if (stop.load(std::memory_order_relaxed)) continue;
    const int64_t b = begin + ib * block, e = std::min(end, b + block);
    try {
      for (const auto& s : steps) s(b, e);
      // The master thread is the one that may call MPI (MPI_THREAD_FUNNELED).
      if (poll && omp_get_thread_num() == 0) poll();
    } catch (...) {
#pragma omp critical(frmini_run_chain)
      if (!failed) failed = std::current_exception();
      stop = true;
    }
  }
  if (failed) std::rethrow_exception(failed);
}

const Bandwidth& CpuBackend::bandwidth() {
  if (bw_) return *bw_;
  std::string id = cpu_model() + "|" + cpu_flags_hash() + "|" + std::to_string(threads());
  if (isa_target().name != "native") id += "|" + isa_target().name;
  std::string key = "bandwidth/cpu-" + matmul::hex64(matmul::fnv1a(id.data(), id.size()));
  if (auto hit = cache_read(key)) {
    std::istringstream s(*hit);
    Bandwidth b;
    if (s >> b.copy_gbs >> b.triad_gbs && b.copy_gbs > 0 && b.triad_gbs > 0) return *(bw_ = b);
  }
  bw_ = measure_bandwidth(*this);
  std::ostringstream s;
  s << bw_->copy_gbs << " " << bw_->triad_gbs << "\n# copy triad GB/s: " << id << "\n";
  cache_write(key, s.str());
  return *bw_;
}

std::vector<std::shared_ptr<matmul::Provider>> CpuBackend::matmul_providers() {
  if (providers_.empty()) {
#define FRMINI_MAKE_PROVIDER(name, help) \
  if (auto p = make_##name##_provider(*this)) providers_.push_back(p);
    FRMINI_CPU_MATMUL_PROVIDERS(FRMINI_MAKE_PROVIDER)
#undef FRMINI_MAKE_PROVIDER
  }
  return providers_;
}

std::ptrdiff_t window_shift(const matmul::Panel& p, std::size_t c0) {
  if (!p.window) return 0;
  return std::ptrdiff_t(c0) - std::ptrdiff_t(std::size_t(omp_get_thread_num()) * p.slot);
}

void CpuKernel::run() {
  const std::size_t w = b_.window ? b_.window : c_.window;
  if (!w || n_ <= w) {
    run_columns(0, n_);
    return;
  }
  // A scratch panel holds a window per thread: the whole range window by window, each on
  // the thread whose slot it uses.
  const std::size_t nw = (n_ + w - 1) / w;
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < nw; ++i) run_columns(i * w, std::min(n_, (i + 1) * w));
}

}  // namespace frmini::kernels::cpu

namespace frmini::kernels {
std::unique_ptr<Backend> make_cpu_backend(const BackendOptions& opts) {
  return std::make_unique<cpu::CpuBackend>(opts);
}
}  // namespace frmini::kernels
