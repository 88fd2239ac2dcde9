// The backend interface: memory, copies, run-time compilation, timing and the bandwidth probe
// of one device. Three implementations (cpu/, opencl/, cuda/) are chosen at run time by name
// with make_backend(); code above kernels/ never names a backend API, only this interface.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernels/pointwise/kernel.hpp"
#include "kernels/precision.hpp"

namespace frmini::kernels {

class Buffer;
namespace matmul {
class Provider;
}

struct BackendOptions {
  int device = 0;           // device index within the platform (opencl/cuda)
  std::string platform;     // opencl: platform name substring ("" = first with a device)
  int threads = 0;          // cpu: OpenMP threads (0 = OpenMP's default)
  int64_t chain_block = 0;  // cpu: elements per cache block of a kernel chain (0 = sized from
                            // the caches, -1 = no blocking: each kernel over the whole range)
  // Subnormal numbers (below 1.2e-38 in single precision) flushed to zero in the kernels: cpu
  // FTZ and DAZ on its threads, cuda pointwise kernels --ftz=true (its products are FMAs,
  // which the GPU does at full speed on subnormals), opencl -cl-denorms-are-zero. On x86 every
  // operation that makes or reads one takes a microcode assist of about a hundred cycles.
  bool flush_denormals = true;
  bool verbose = false;     // log compilations, cache hits, tuning decisions to stderr
  // cuda: the launches between two host waits run as CUDA graphs, captured once and replayed
  // (kernels/cuda/step_graphs.hpp).
  bool graphs = false;
};

// Measured once per device and cached on disk (kernels/cache.hpp); GB/s = 1e9 bytes/s,
// counted the STREAM way (bytes the kernel must read and write).
struct Bandwidth {
  double copy_gbs = 0;   // c[i] = a[i]
  double triad_gbs = 0;  // a[i] = b[i] + s*c[i]
};

// One compiled unit of kernel source. Backends downcast to their own type; the interface only
// promises that the object keeps the compiled code alive.
class Module {
 public:
  virtual ~Module() = default;
};

class Backend {
 public:
  virtual ~Backend() = default;

  virtual const std::string& name() const = 0;     // "cpu" | "opencl" | "cuda"
  virtual std::string device_description() const = 0;  // for reports and cache keys
  // What the backend has to say in a run's report (cuda: its graphs' counts); "" for nothing.
  virtual std::string notes() const { return ""; }
  // BackendOptions::verbose: log compilations, cache hits and tuning decisions to stderr.
  virtual bool verbose() const { return false; }

  // AoSoA width S (a panel's SoA block holds S elements) in elements of the given precision:
  // the SIMD width on CPUs, the coalescing width on GPUs. Panel leading dimensions are
  // multiples of it.
  virtual std::size_t soa_width(Precision p) const = 0;
  // Byte alignment of allocations and of leading dimensions.
  virtual std::size_t alignment() const = 0;

  // Bytes of the device's last-level cache (L3 on CPUs, L2 on GPUs), read from the machine;
  // benchmarks size working sets from it. 0 = unknown.
  virtual std::size_t last_level_cache_bytes() const { return 0; }

  // Memory. Buffers are zero-initialised.
  virtual std::unique_ptr<Buffer> alloc(std::size_t bytes) = 0;
  virtual void upload(Buffer& dst, std::size_t dst_offset, const void* src, std::size_t bytes) = 0;
  virtual void download(void* dst, const Buffer& src, std::size_t src_offset,
                        std::size_t bytes) = 0;
  virtual void copy(Buffer& dst, std::size_t dst_offset, const Buffer& src,
                    std::size_t src_offset, std::size_t bytes) = 0;

  // Compiles `source` (complete, in this backend's kernel language) with extra `flags`; the
  // result is cached on disk by a hash of source, flags, compiler and device. Compilation
  // errors are internal errors (generated code must compile) and carry the compiler log.
  virtual std::shared_ptr<Module> compile(const std::string& source,
                                          const std::vector<std::string>& flags = {}) = 0;

  // Waits until all enqueued work is done.
  virtual void synchronize() = 0;

  // Times `enqueue` (which enqueues one run of some work): `warmup` untimed runs, then
  // `nrep` timed runs, each measured with device events (or a steady clock on the cpu).
  // Returns the per-run seconds.
  virtual std::vector<double> time_runs(const std::function<void()>& enqueue, int warmup,
                                        int nrep) = 0;

  // The device's copy and triad bandwidth, measured on first use and cached on disk.
  virtual const Bandwidth& bandwidth() = 0;

  // The matmul providers this backend offers, in the order `auto` asks them (first = the
  // incumbent a challenger must beat by 5%): generated first, then vendor BLAS, then others.
  // 'reference' is always last and never chosen by auto.
  virtual std::vector<std::shared_ptr<matmul::Provider>> matmul_providers() = 0;

  // Reductions on the device (the embedded RK pair's error norm): the sum, or the largest
  // absolute value, of `n` values of `buf` from element offset `offset`, in precision `p`.
  // A NaN among the values makes the result NaN. Deterministic: the same values give the same
  // bits on every call (fixed partition and combination order).
  enum class Reduction { sum, max_abs };
  virtual double reduce(const Buffer& buf, std::size_t offset, std::size_t n, Precision p,
                        Reduction r) = 0;

  // Cache blocking. A chain is a list of steps, each a kernel
  // launch over a range of units (elements). A backend that blocks cuts [0, nunits) into
  // blocks whose working set stays in a core's cache and runs the whole chain block by block,
  // blocks spread over its threads, so the intermediates never travel to memory; the others
  // run each step once over the whole range. Steps must only touch their block's columns.
  using ChainStep = std::function<void(int64_t begin, int64_t end)>;
  // Units per block when a unit's chain touches `unit_bytes`, a multiple of `align`;
  // 0 = this backend runs chains unblocked (GPUs: each kernel over the whole range).
  virtual int64_t chain_block(std::size_t unit_bytes, int64_t align) const {
    (void)unit_bytes, (void)align;
    return 0;
  }
  // Threads that may run a chain's blocks at once: the slots of a per-thread scratch panel
  // (matmul::Panel::window), which a backend that blocks chains gives an intermediate living
  // only inside one chain.
  virtual int chain_slots() const { return 1; }
  // Runs `steps` in order over [begin, end), `block` units at a time from `begin` (0 =
  // unblocked); `begin` a multiple of the SoA width. A part of an MPI run runs its elements
  // with faces on other parts first, then the others while the exchange is in flight, with
  // `poll` (if set) called on the calling thread between blocks (cpu) or once the steps are
  // enqueued (GPUs): an MPI library moves a large message only inside its own calls.
  virtual void run_chain(int64_t begin, int64_t end, int64_t block, const std::vector<ChainStep>& steps,
                         const std::function<void()>& poll);
  void run_chain(int64_t nunits, int64_t block, const std::vector<ChainStep>& steps) {
    run_chain(0, nunits, block, steps, {});
  }

  // Compiles a pointwise kernel (kernels/pointwise/spec.hpp), rendered in this backend's
  // dialect at precision `p`, through compile() and its disk cache.
  virtual std::unique_ptr<pointwise::PointwiseKernel> pointwise(const pointwise::Spec& spec,
                                                                Precision p);
};

// A device allocation; freed on destruction. Backends subclass it.
class Buffer {
 public:
  explicit Buffer(std::size_t bytes) : bytes_(bytes) {}
  virtual ~Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  std::size_t bytes() const { return bytes_; }

 private:
  std::size_t bytes_;
};

// "cpu", "opencl" or "cuda". Throws UserError for an unknown name, NotBuiltError for a backend
// this build lacks, and UserError when the backend has no usable device ("cuda: no GPU found").
std::unique_ptr<Backend> make_backend(const std::string& name, const BackendOptions& opts = {});

// The backends compiled into this build (whether or not a device is present).
std::vector<std::string> built_backends();

}  // namespace frmini::kernels
