// The opencl backend's memory, queue and timing. Compilation lives in compiler.cpp, the
// bandwidth probe in bandwidth.cpp, the matmul providers in their own files.
#include "kernels/opencl/backend.hpp"

#include <algorithm>
#include <stdexcept>

#include "kernels/backends.hpp"
#include "kernels/opencl/matmul_providers.hpp"

namespace frmini::kernels::opencl {

ClBuffer::~ClBuffer() { clReleaseMemObject(mem_); }

cl_mem mem_of(const Buffer& b) {
  auto* cb = dynamic_cast<const ClBuffer*>(&b);
  if (!cb) throw std::runtime_error("opencl: a buffer of another backend was passed");
  return cb->mem();
}

ClModule::~ClModule() { clReleaseProgram(program_); }

cl_kernel ClModule::kernel(const char* name) const {
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(program_, name, &err);
  check(err, (std::string("clCreateKernel ") + name).c_str());
  return k;
}

KernelHandle::KernelHandle(std::shared_ptr<Module> module, const char* name)
    : module_(std::move(module)) {
  auto* m = dynamic_cast<ClModule*>(module_.get());
  if (!m) throw std::runtime_error("opencl: a module of another backend was passed");
  kernel_ = m->kernel(name);
}
KernelHandle::~KernelHandle() {
  if (kernel_) clReleaseKernel(kernel_);
}
KernelHandle::KernelHandle(KernelHandle&& o) noexcept
    : module_(std::move(o.module_)), kernel_(o.kernel_) {
  o.kernel_ = nullptr;
}
KernelHandle& KernelHandle::operator=(KernelHandle&& o) noexcept {
  if (this != &o) {
    if (kernel_) clReleaseKernel(kernel_);
    module_ = std::move(o.module_);
    kernel_ = o.kernel_;
    o.kernel_ = nullptr;
  }
  return *this;
}

OpenCLBackend::OpenCLBackend(const BackendOptions& opts)
    : info_(select_device(opts)), verbose_(opts.verbose), flush_denormals_(opts.flush_denormals) {
  cl_int err = CL_SUCCESS;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                   reinterpret_cast<cl_context_properties>(info_.platform), 0};
  context_ = clCreateContext(props, 1, &info_.device, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  // In-order, so a run of several kernels needs no events between them; profiling on, so
  // time_runs can read device timestamps.
  queue_ = clCreateCommandQueue(context_, info_.device, CL_QUEUE_PROFILING_ENABLE, &err);
  if (err != CL_SUCCESS) clReleaseContext(context_);
  check(err, "clCreateCommandQueue");
#define FRMINI_MAKE_PROVIDER(name, help) \
  if (auto p = make_##name##_provider(*this)) providers_.push_back(p);
  FRMINI_OPENCL_MATMUL_PROVIDERS(FRMINI_MAKE_PROVIDER)
#undef FRMINI_MAKE_PROVIDER
}

OpenCLBackend::~OpenCLBackend() {
  providers_.clear();
  reduce_kernel_[0] = KernelHandle(), reduce_kernel_[1] = KernelHandle();
  reduce_part_.reset();
  if (queue_) {
    clFinish(queue_);
    clReleaseCommandQueue(queue_);
  }
  if (context_) clReleaseContext(context_);
}

// S is the width along n that one hardware "vector" covers, so that an element range aligned
// to S is whole vectors. GPUs: 32 work-items coalesce into one memory transaction per warp
// (a half-wavefront on AMD), whatever the precision. CPUs (PoCL and the like) vectorise a
// work-group across work-items, so one SIMD register along n is the natural unit: the
// driver's preferred vector width (8 doubles / 16 floats with AVX-512, 4/8 with AVX2).
std::size_t OpenCLBackend::soa_width(Precision p) const {
  if (info_.is_gpu) return 32;
  return p == Precision::single ? info_.pref_width_float : info_.pref_width_double;
}

std::vector<std::shared_ptr<matmul::Provider>> OpenCLBackend::matmul_providers() {
  return providers_;
}

std::unique_ptr<Buffer> OpenCLBackend::alloc(std::size_t bytes) {
  cl_int err = CL_SUCCESS;
  // OpenCL refuses zero-sized buffers; a one-byte one keeps empty panels legal.
  std::size_t size = std::max<std::size_t>(bytes, 1);
  cl_mem mem = clCreateBuffer(context_, CL_MEM_READ_WRITE, size, nullptr, &err);
  check(err, "clCreateBuffer");
  auto buf = std::make_unique<ClBuffer>(mem, bytes);
  const cl_uchar zero = 0;
  check(clEnqueueFillBuffer(queue_, mem, &zero, 1, 0, size, 0, nullptr, nullptr),
        "clEnqueueFillBuffer");
  return buf;
}

void OpenCLBackend::upload(Buffer& dst, std::size_t dst_offset, const void* src,
                           std::size_t bytes) {
  if (bytes == 0) return;
  check(clEnqueueWriteBuffer(queue_, mem_of(dst), CL_TRUE, dst_offset, bytes, src, 0, nullptr,
                             nullptr),
        "clEnqueueWriteBuffer");
}

void OpenCLBackend::download(void* dst, const Buffer& src, std::size_t src_offset,
                             std::size_t bytes) {
  if (bytes == 0) return;
  check(clEnqueueReadBuffer(queue_, mem_of(src), CL_TRUE, src_offset, bytes, dst, 0, nullptr,
                            nullptr),
        "clEnqueueReadBuffer");
}

void OpenCLBackend::copy(Buffer& dst, std::size_t dst_offset, const Buffer& src,
                         std::size_t src_offset, std::size_t bytes) {
  if (bytes == 0) return;
  check(clEnqueueCopyBuffer(queue_, mem_of(src), mem_of(dst), src_offset, dst_offset, bytes, 0,
                            nullptr, nullptr),
        "clEnqueueCopyBuffer");
}

void OpenCLBackend::synchronize() { check(clFinish(queue_), "clFinish"); }

void OpenCLBackend::launch(const KernelHandle& k, std::size_t global_x, std::size_t local_x,
                           std::size_t global_y, std::size_t local_y) {
  if (global_x == 0 || global_y == 0) return;
  std::size_t global[2] = {global_x, global_y}, local[2] = {local_x, local_y};
  cl_uint dims = (global_y == 1 && local_y == 1) ? 1 : 2;
  // local_x == 0: the driver picks the work-group size (global need not be a multiple).
  cl_event e = nullptr;
  check(clEnqueueNDRangeKernel(queue_, k.get(), dims, nullptr, global, local_x ? local : nullptr,
                               0, nullptr, recording_ ? &e : nullptr),
        "clEnqueueNDRangeKernel");
  if (e) record_event(e);
}

void OpenCLBackend::record_event(cl_event e) {
  if (recording_)
    recording_->push_back(e);
  else
    clReleaseEvent(e);
}

namespace {
cl_ulong profile(cl_event e, cl_profiling_info what) {
  cl_ulong t = 0;
  check(clGetEventProfilingInfo(e, what, sizeof t, &t, nullptr), "clGetEventProfilingInfo");
  return t;
}
}  // namespace

// A run is timed from the START of its first command to the END of its last, read from the
// events of the commands it enqueued through launch() (and CLBlast's): device time, without
// the host's launch latency. That latency is not the kernel's: on PoCL it is the wake-up of
// the driver's worker threads, which on an oversubscribed machine reaches tens of
// milliseconds and would swamp any comparison. Work enqueued otherwise (copies) leaves no
// events; such runs are timed between markers instead (end of marker r to end of marker r+1).
std::vector<double> OpenCLBackend::time_runs(const std::function<void()>& enqueue, int warmup,
                                             int nrep) {
  for (int i = 0; i < warmup; ++i) enqueue();
  synchronize();
  std::vector<double> out;
  if (nrep <= 0) return out;
  std::vector<std::vector<cl_event>> runs(static_cast<std::size_t>(nrep));
  std::vector<cl_event> marks(std::size_t(nrep) + 1, nullptr);
  auto release = [&] {
    recording_ = nullptr;
    for (auto& r : runs)
      for (auto e : r) clReleaseEvent(e);
    for (auto e : marks)
      if (e) clReleaseEvent(e);
  };
  try {
    check(clEnqueueMarkerWithWaitList(queue_, 0, nullptr, &marks[0]), "clEnqueueMarker");
    for (int r = 0; r < nrep; ++r) {
      recording_ = &runs[std::size_t(r)];
      enqueue();
      recording_ = nullptr;
      check(clEnqueueMarkerWithWaitList(queue_, 0, nullptr, &marks[std::size_t(r) + 1]),
            "clEnqueueMarker");
    }
    synchronize();
    for (std::size_t r = 0; r < std::size_t(nrep); ++r) {
      cl_ulong t0, t1;
      if (!runs[r].empty()) {
        t0 = profile(runs[r].front(), CL_PROFILING_COMMAND_START);
        t1 = profile(runs[r].back(), CL_PROFILING_COMMAND_END);
      } else {
        t0 = profile(marks[r], CL_PROFILING_COMMAND_END);
        t1 = profile(marks[r + 1], CL_PROFILING_COMMAND_END);
      }
      out.push_back(t1 > t0 ? double(t1 - t0) * 1e-9 : 0.0);
    }
  } catch (...) {
    release();
    throw;
  }
  release();
  return out;
}

}  // namespace frmini::kernels::opencl

namespace frmini::kernels {
std::unique_ptr<Backend> make_opencl_backend(const BackendOptions& opts) {
  return std::make_unique<opencl::OpenCLBackend>(opts);
}
}  // namespace frmini::kernels
