// The cpu backend: host memory (64-byte aligned, huge pages for large buffers), memcpy copies,
// C kernels compiled at run time (compiler.hpp), OpenMP for parallelism, steady-clock timing,
// and a STREAM-style bandwidth probe (bandwidth.cpp).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "kernels/backend.hpp"
#include "kernels/cpu/compiler.hpp"

namespace frmini::kernels::cpu {

class CpuBuffer : public Buffer {
 public:
  explicit CpuBuffer(std::size_t bytes);
  ~CpuBuffer() override;
  void* data() { return data_; }
  const void* data() const { return data_; }

 private:
  void* data_ = nullptr;
};

// The host address of element `offset` (in bytes) of a cpu buffer.
inline void* host_ptr(Buffer& b, std::size_t byte_offset = 0) {
  return static_cast<char*>(static_cast<CpuBuffer&>(b).data()) + byte_offset;
}
inline const void* host_ptr(const Buffer& b, std::size_t byte_offset = 0) {
  return static_cast<const char*>(static_cast<const CpuBuffer&>(b).data()) + byte_offset;
}

class CpuBackend : public Backend {
 public:
  explicit CpuBackend(const BackendOptions& opts);

  const std::string& name() const override { return name_; }
  std::string device_description() const override;
  bool verbose() const override { return opts_.verbose; }
  std::size_t soa_width(Precision p) const override;
  std::size_t alignment() const override { return 64; }
  std::size_t last_level_cache_bytes() const override;

  std::unique_ptr<Buffer> alloc(std::size_t bytes) override;
  void upload(Buffer& dst, std::size_t dst_offset, const void* src, std::size_t bytes) override;
  void download(void* dst, const Buffer& src, std::size_t src_offset, std::size_t bytes) override;
  void copy(Buffer& dst, std::size_t dst_offset, const Buffer& src, std::size_t src_offset,
            std::size_t bytes) override;

  std::shared_ptr<Module> compile(const std::string& source,
                                  const std::vector<std::string>& flags = {}) override;
  void synchronize() override {}
  std::vector<double> time_runs(const std::function<void()>& enqueue, int warmup,
                                int nrep) override;
  const Bandwidth& bandwidth() override;
  // Defined in reduce.cpp.
  double reduce(const Buffer& buf, std::size_t offset, std::size_t n, Precision p,
                Reduction r) override;
  std::vector<std::shared_ptr<matmul::Provider>> matmul_providers() override;
  int64_t chain_block(std::size_t unit_bytes, int64_t align) const override;
  using Backend::run_chain;
  void run_chain(int64_t begin, int64_t end, int64_t block, const std::vector<ChainStep>& steps,
                 const std::function<void()>& poll) override;
  int chain_slots() const override { return threads(); }
  // Defined in pointwise.cpp.
  std::unique_ptr<pointwise::PointwiseKernel> pointwise(const pointwise::Spec& spec,
                                                        Precision p) override;

  // cpu-specific: typed compilation and its statistics (tests of the cache).
  std::shared_ptr<CpuModule> compile_c(const std::string& source,
                                       const std::vector<std::string>& flags = {});
  Compiler& compiler() { return compiler_; }
  int threads() const;

 private:
  BackendOptions opts_;
  std::string name_ = "cpu";
  Compiler compiler_;
  std::optional<Bandwidth> bw_;
  std::vector<std::shared_ptr<matmul::Provider>> providers_;
};

// Measures copy and triad bandwidth (bandwidth.cpp).
Bandwidth measure_bandwidth(CpuBackend& be);

}  // namespace frmini::kernels::cpu
