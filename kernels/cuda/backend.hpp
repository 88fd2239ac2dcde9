// The cuda backend: one device's primary context, the driver API opened at run time
// (driver.hpp), NVRTC to cubin for the device's own architecture (compiler.hpp), device events
// for timing, and the matmul providers generated / blas (cuBLASLt, searched) / cublas (plain
// cuBLAS) / reference.
#pragma once

#include <cuda.h>

#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "kernels/cuda/compiler.hpp"
#include "kernels/cuda/step_graphs.hpp"

namespace frmini::kernels::cuda {

struct Driver;

class CudaBuffer : public Buffer {
 public:
  CudaBuffer(const Driver& d, std::size_t bytes);
  ~CudaBuffer() override;
  CUdeviceptr ptr() const { return ptr_; }

 private:
  const Driver& d_;
  CUdeviceptr ptr_ = 0;
};

class CudaModule : public Module {
 public:
  // `unloading` runs before the module goes (the backend's graphs forget its functions).
  CudaModule(const Driver& d, const CompileResult& r, std::function<void()> unloading = {});
  ~CudaModule() override;
  CUfunction function(const std::string& name) const;
  const CompileResult& compiled() const { return compiled_; }

 private:
  const Driver& d_;
  CUmodule mod_ = nullptr;
  CompileResult compiled_;
  std::function<void()> unloading_;
};

class DriverGraphs;

class CudaBackend : public Backend {
 public:
  explicit CudaBackend(const BackendOptions& opts);
  ~CudaBackend() override;

  const std::string& name() const override { return name_; }
  std::string device_description() const override;
  std::size_t soa_width(Precision) const override { return 32; }  // a warp of columns
  std::size_t alignment() const override { return 128; }          // PyFR's CUDA alignb
  std::size_t last_level_cache_bytes() const override { return l2_bytes_; }

  std::unique_ptr<Buffer> alloc(std::size_t bytes) override;
  void upload(Buffer& dst, std::size_t dst_offset, const void* src, std::size_t bytes) override;
  void download(void* dst, const Buffer& src, std::size_t src_offset,
                std::size_t bytes) override;
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

  // CUDA specifics for the providers.
  const Driver& driver() const { return d_; }
  int arch() const { return arch_; }  // 90 for sm_90
  const std::string& device_name() const { return devname_; }  // e.g. "NVIDIA H200"
  bool verbose() const { return opts_.verbose; }
  // One kernel argument: where its value is and its size in bytes.
  struct Param {
    const void* value;
    std::size_t size;
  };
  // Launches `f` on the backend's stream with a grid of `grid` x `gy` blocks of bx x by
  // threads (with graphs on: into the segment, step_graphs.hpp).
  void launch(CUfunction f, std::size_t grid, unsigned bx, unsigned by,
              std::initializer_list<Param> params, unsigned gy = 1) {
    launch(f, grid, bx, by, std::vector<Param>(params), gy);
  }
  void launch(CUfunction f, std::size_t grid, unsigned bx, unsigned by,
              const std::vector<Param>& params, unsigned gy = 1);
  // A library call on stream(), named by `key` with all its operands (with graphs on: into
  // the segment, captured as the library launches it).
  void library(std::string key, std::function<void()> call);
  // The stream every launch and library call goes to (created with the backend; it waits for,
  // and is waited for by, the synchronous copies on the default stream).
  CUstream stream() const { return stream_; }
  // Runs the deferred launches (graphs on); every copy and wait does it first.
  void flush();
  static CUdeviceptr ptr(const Buffer& b) { return static_cast<const CudaBuffer&>(b).ptr(); }
  std::string notes() const override;

 private:
  const Driver& d_;
  BackendOptions opts_;
  std::string name_ = "cuda";
  CUdevice dev_ = 0;
  CUcontext ctx_ = nullptr;
  int arch_ = 0;
  std::size_t l2_bytes_ = 0;
  std::string devname_;
  std::optional<Bandwidth> bw_;
  std::vector<std::shared_ptr<matmul::Provider>> providers_;
  std::shared_ptr<CudaModule> reduce_module_[2];  // reduce.cpp: [float, double], on first use
  std::unique_ptr<Buffer> reduce_part_;
  CUstream stream_ = nullptr;
  std::unique_ptr<DriverGraphs> gx_;
  std::shared_ptr<StepGraphs> graphs_;  // shared: a module outliving the backend checks it
};

}  // namespace frmini::kernels::cuda
