#include "kernels/cuda/backend.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "kernels/backends.hpp"
#include "kernels/cache.hpp"
#include "kernels/cuda/device.hpp"
#include "kernels/cuda/driver.hpp"
#include "kernels/cuda/matmul_providers.hpp"
#include "kernels/matmul/analysis.hpp"

namespace frmini::kernels {

std::unique_ptr<Backend> make_cuda_backend(const BackendOptions& opts) {
  return std::make_unique<cuda::CudaBackend>(opts);
}

namespace cuda {

CudaBuffer::CudaBuffer(const Driver& d, std::size_t bytes) : Buffer(bytes), d_(d) {
  // cuMemAlloc of 0 bytes fails; a 1-byte allocation keeps every Buffer a valid pointer.
  d_.check(d_.MemAlloc(&ptr_, std::max<std::size_t>(bytes, 1)), "cuMemAlloc");
  d_.check(d_.MemsetD8(ptr_, 0, std::max<std::size_t>(bytes, 1)), "cuMemsetD8");
}

CudaBuffer::~CudaBuffer() { d_.MemFree(ptr_); }

CudaModule::CudaModule(const Driver& d, const CompileResult& r) : d_(d), compiled_(r) {
  d_.check(d_.ModuleLoadData(&mod_, compiled_.cubin.data()), "cuModuleLoadData");
}

CudaModule::~CudaModule() { d_.ModuleUnload(mod_); }

CUfunction CudaModule::function(const std::string& name) const {
  CUfunction f = nullptr;
  d_.check(d_.ModuleGetFunction(&f, mod_, name.c_str()), ("cuModuleGetFunction " + name).c_str());
  return f;
}

CudaBackend::CudaBackend(const BackendOptions& opts) : d_(cuda::driver()), opts_(opts) {
  const DeviceInfo info = open_device(d_, opts.device);
  dev_ = info.dev, devname_ = info.name, arch_ = info.arch, l2_bytes_ = info.l2_bytes;
  // The primary context is the one the CUDA runtime (inside cuBLAS) uses too.
  d_.check(d_.DevicePrimaryCtxRetain(&ctx_, dev_), "cuDevicePrimaryCtxRetain");
  d_.check(d_.CtxSetCurrent(ctx_), "cuCtxSetCurrent");
#define FRMINI_MAKE_PROVIDER(name, help) \
  if (auto p = make_##name##_provider(*this)) providers_.push_back(p);
  FRMINI_CUDA_MATMUL_PROVIDERS(FRMINI_MAKE_PROVIDER)
#undef FRMINI_MAKE_PROVIDER
}

CudaBackend::~CudaBackend() {
  providers_.clear();  // cuBLAS and cuBLASLt handles before the context
  reduce_module_[0].reset(), reduce_module_[1].reset(), reduce_part_.reset();
  if (ctx_) d_.DevicePrimaryCtxRelease(dev_);
}

std::string CudaBackend::device_description() const {
  return devname_ + " (sm_" + std::to_string(arch_) + ", NVRTC " +
         Compiler::instance().version() + ")";
}

std::unique_ptr<Buffer> CudaBackend::alloc(std::size_t bytes) {
  return std::make_unique<CudaBuffer>(d_, bytes);
}

void CudaBackend::upload(Buffer& dst, std::size_t off, const void* src, std::size_t bytes) {
  if (bytes) d_.check(d_.MemcpyHtoD(ptr(dst) + off, src, bytes), "cuMemcpyHtoD");
}

void CudaBackend::download(void* dst, const Buffer& src, std::size_t off, std::size_t bytes) {
  if (bytes) d_.check(d_.MemcpyDtoH(dst, ptr(src) + off, bytes), "cuMemcpyDtoH");
}

void CudaBackend::copy(Buffer& dst, std::size_t doff, const Buffer& src, std::size_t soff,
                       std::size_t bytes) {
  if (bytes) d_.check(d_.MemcpyDtoD(ptr(dst) + doff, ptr(src) + soff, bytes), "cuMemcpyDtoD");
}

std::shared_ptr<Module> CudaBackend::compile(const std::string& source,
                                             const std::vector<std::string>& flags) {
  std::vector<std::string> all = flags;
  if (opts_.flush_denormals) all.push_back("--ftz=true");
  CompileResult r = Compiler::instance().compile_cubin(source, arch_, all);
  if (opts_.verbose)
    std::cerr << "cuda: " << (r.from_cache ? "cached" : "compiled") << " module for sm_" << arch_
              << "\n";
  return std::make_shared<CudaModule>(d_, r);
}

void CudaBackend::synchronize() { d_.check(d_.CtxSynchronize(), "cuCtxSynchronize"); }

void CudaBackend::launch(CUfunction f, std::size_t grid, unsigned bx, unsigned by, void** args) {
  if (grid == 0) return;
  d_.check(d_.LaunchKernel(f, unsigned(grid), 1, 1, bx, by, 1, 0, nullptr, args, nullptr),
           "cuLaunchKernel");
}

std::vector<double> CudaBackend::time_runs(const std::function<void()>& enqueue, int warmup,
                                           int nrep) {
  for (int i = 0; i < warmup; ++i) enqueue();
  CUevent e0 = nullptr, e1 = nullptr;
  d_.check(d_.EventCreate(&e0, CU_EVENT_DEFAULT), "cuEventCreate");
  d_.check(d_.EventCreate(&e1, CU_EVENT_DEFAULT), "cuEventCreate");
  std::vector<double> out;
  try {
    for (int i = 0; i < nrep; ++i) {
      d_.check(d_.EventRecord(e0, nullptr), "cuEventRecord");
      enqueue();
      d_.check(d_.EventRecord(e1, nullptr), "cuEventRecord");
      d_.check(d_.EventSynchronize(e1), "cuEventSynchronize");
      float ms = 0;
      d_.check(d_.EventElapsedTime(&ms, e0, e1), "cuEventElapsedTime");
      out.push_back(double(ms) * 1e-3);
    }
  } catch (...) {
    d_.EventDestroy(e0);
    d_.EventDestroy(e1);
    throw;
  }
  d_.EventDestroy(e0);
  d_.EventDestroy(e1);
  return out;
}

std::vector<std::shared_ptr<matmul::Provider>> CudaBackend::matmul_providers() {
  return providers_;
}

}  // namespace cuda
}  // namespace frmini::kernels
