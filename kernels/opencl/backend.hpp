// The opencl backend: one device, one context, one in-order profiling queue. Providers and
// tests include this header to reach the OpenCL handles; everything above kernels/ sees only
// the Backend interface.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "kernels/opencl/driver.hpp"
#include "kernels/opencl/device.hpp"

namespace frmini::kernels::opencl {

// A cl_mem; zero-filled on allocation.
class ClBuffer : public Buffer {
 public:
  ClBuffer(cl_mem mem, std::size_t bytes) : Buffer(bytes), mem_(mem) {}
  ~ClBuffer() override;
  cl_mem mem() const { return mem_; }

 private:
  cl_mem mem_;
};

// The cl_mem behind a Buffer of this backend (throws if it belongs to another backend).
cl_mem mem_of(const Buffer& b);

// A built cl_program.
class ClModule : public Module {
 public:
  explicit ClModule(cl_program p) : program_(p) {}
  ~ClModule() override;
  cl_program program() const { return program_; }
  // A new cl_kernel for the named __kernel (caller owns it; see KernelHandle).
  cl_kernel kernel(const char* name) const;

 private:
  cl_program program_;
};

// Owns a cl_kernel (released on destruction) and keeps its module alive.
class KernelHandle {
 public:
  KernelHandle() = default;
  KernelHandle(std::shared_ptr<Module> module, const char* name);
  ~KernelHandle();
  KernelHandle(KernelHandle&& o) noexcept;
  KernelHandle& operator=(KernelHandle&& o) noexcept;
  KernelHandle(const KernelHandle&) = delete;
  KernelHandle& operator=(const KernelHandle&) = delete;
  cl_kernel get() const { return kernel_; }
  template <class T>
  void arg(cl_uint index, const T& value) {
    check(clSetKernelArg(kernel_, index, sizeof(T), &value), "clSetKernelArg");
  }

 private:
  std::shared_ptr<Module> module_;
  cl_kernel kernel_ = nullptr;
};

// Counters the tests read to see the program-binary cache at work.
struct CompileStats {
  int from_source = 0;      // clCreateProgramWithSource builds
  int from_binary = 0;      // disk cache hits (clCreateProgramWithBinary)
  int binary_rejected = 0;  // cached binaries the driver refused (rebuilt from source)
  int from_memory = 0;      // same source compiled again in this process
};

class OpenCLBackend : public Backend {
 public:
  explicit OpenCLBackend(const BackendOptions& opts);
  ~OpenCLBackend() override;

  const std::string& name() const override { return name_; }
  std::string device_description() const override { return info_.description(); }
  std::size_t soa_width(Precision p) const override;
  std::size_t alignment() const override { return info_.base_align_bytes; }
  // CL_DEVICE_GLOBAL_MEM_CACHE_SIZE (PoCL: the CPU's L3; GPUs: L2).
  std::size_t last_level_cache_bytes() const override { return info_.global_cache_bytes; }

  std::unique_ptr<Buffer> alloc(std::size_t bytes) override;
  void upload(Buffer& dst, std::size_t dst_offset, const void* src, std::size_t bytes) override;
  void download(void* dst, const Buffer& src, std::size_t src_offset, std::size_t bytes) override;
  void copy(Buffer& dst, std::size_t dst_offset, const Buffer& src, std::size_t src_offset,
            std::size_t bytes) override;

  std::shared_ptr<Module> compile(const std::string& source,
                                  const std::vector<std::string>& flags = {}) override;
  void synchronize() override;
  std::vector<double> time_runs(const std::function<void()>& enqueue, int warmup,
                                int nrep) override;
  const Bandwidth& bandwidth() override;
  // Defined in reduce.cpp.
  double reduce(const Buffer& buf, std::size_t offset, std::size_t n, Precision p,
                Reduction r) override;
  std::vector<std::shared_ptr<matmul::Provider>> matmul_providers() override;
  // Defined in pointwise.cpp.
  std::unique_ptr<pointwise::PointwiseKernel> pointwise(const pointwise::Spec& spec,
                                                        Precision p) override;

  // OpenCL specifics, for providers and tests.
  const DeviceInfo& info() const { return info_; }
  // False, saying why, when the device cannot compute in `p` (double without cl_khr_fp64):
  // the first question of every matmul provider.
  bool computes_in(Precision p, std::string* why_not) const {
    if (p != Precision::double_ || info_.fp64) return true;
    if (why_not) *why_not = "the device has no double precision";
    return false;
  }
  cl_context context() const { return context_; }
  cl_command_queue queue() const { return queue_; }
  bool verbose() const override { return verbose_; }
  const CompileStats& compile_stats() const { return stats_; }
  // Enqueues `k` over a 1-D or 2-D range (global sizes are multiples of the local ones;
  // local_x == 0 lets the driver choose).
  void launch(const KernelHandle& k, std::size_t global_x, std::size_t local_x,
              std::size_t global_y = 1, std::size_t local_y = 1);
  // While time_runs runs, the event of every command enqueued through launch() (and of
  // CLBlast calls) is collected here; otherwise null. Takes ownership of `e`.
  void record_event(cl_event e);
  bool recording() const { return recording_ != nullptr; }

 private:
  cl_program build_from_source(const std::string& source, const std::string& options);
  cl_program build_from_binary(const std::string& binary, const std::string& options);
  void store_binary(cl_program program, const std::string& key);
  Bandwidth measure_bandwidth();

  std::string name_ = "opencl";
  DeviceInfo info_;
  bool verbose_ = false;
  bool flush_denormals_ = true;  // every program built with -cl-denorms-are-zero
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  CompileStats stats_;
  std::mutex compile_mutex_;
  std::map<std::string, std::weak_ptr<Module>> modules_;  // by cache key
  std::optional<Bandwidth> bandwidth_;
  std::vector<cl_event>* recording_ = nullptr;
  std::vector<std::shared_ptr<matmul::Provider>> providers_;
  KernelHandle reduce_kernel_[2];  // reduce.cpp: [float, double], built on first use
  std::unique_ptr<Buffer> reduce_part_;
};

}  // namespace frmini::kernels::opencl
