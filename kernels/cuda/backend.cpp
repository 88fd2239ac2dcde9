#include "kernels/cuda/backend.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <stdexcept>
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

CudaModule::CudaModule(const Driver& d, const CompileResult& r, std::function<void()> unloading)
    : d_(d), compiled_(r), unloading_(std::move(unloading)) {
  d_.check(d_.ModuleLoadData(&mod_, compiled_.cubin.data()), "cuModuleLoadData");
}

CudaModule::~CudaModule() {
  if (unloading_) unloading_();
  d_.ModuleUnload(mod_);
}

// The driver's side of StepGraphs: launches on the backend's stream, stream capture, and the
// instantiated graphs with their kernel nodes in launch order.
class DriverGraphs : public StepGraphs::Executor {
 public:
  DriverGraphs(const Driver& d, CUstream s) : d_(d), s_(s) {}
  ~DriverGraphs() override {
    for (auto& [id, g] : graphs_) release(g);
  }

  void issue(const GraphOp& op) override {
    if (!op.is_kernel()) {
      op.call();
    } else {
      std::vector<void*> args = arg_pointers(op);
      d_.check(d_.LaunchKernel(static_cast<CUfunction>(const_cast<void*>(op.func)), op.grid[0],
                               op.grid[1], op.grid[2], op.block[0], op.block[1], op.block[2], 0, s_,
                               args.data(), nullptr),
               "cuLaunchKernel");
    }
    if (!capturing_ || !op.is_kernel()) return;
    // The node the launch just added: the capture's only dependency now (one stream, in order).
    CUstreamCaptureStatus st;
    cuuint64_t id = 0;
    CUgraph g = nullptr;
    const CUgraphNode* deps = nullptr;
    const CUgraphEdgeData* edges = nullptr;
    std::size_t n = 0;
    d_.check(d_.StreamGetCaptureInfo(s_, &st, &id, &g, &deps, &edges, &n), "cuStreamGetCaptureInfo");
    if (n != 1) throw std::runtime_error("cuda graphs: a kernel's node is not the capture's only tail");
    nodes_.push_back(deps[0]);
  }
  void begin_capture() override {
    nodes_.clear();
    d_.check(d_.StreamBeginCapture(s_, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL), "cuStreamBeginCapture");
    capturing_ = true;
  }
  std::size_t end_capture() override {
    capturing_ = false;
    Graph g;
    d_.check(d_.StreamEndCapture(s_, &g.graph), "cuStreamEndCapture");
    g.nodes = std::move(nodes_);
    if (CUresult e = d_.GraphInstantiate(&g.exec, g.graph, 0); e != CUDA_SUCCESS) {
      release(g);
      d_.check(e, "cuGraphInstantiate");
    }
    graphs_[++next_] = std::move(g);
    return next_;
  }
  void abort_capture() override {
    if (!capturing_) return;
    capturing_ = false;
    CUgraph g = nullptr;
    d_.StreamEndCapture(s_, &g);  // an invalidated capture ends with an error and no graph
    if (g) d_.GraphDestroy(g);
  }
  void set_params(std::size_t graph, std::size_t node, const GraphOp& op) override {
    Graph& g = graphs_.at(graph);
    std::vector<void*> args = arg_pointers(op);
    CUDA_KERNEL_NODE_PARAMS p{};
    p.func = static_cast<CUfunction>(const_cast<void*>(op.func));
    p.gridDimX = op.grid[0], p.gridDimY = op.grid[1], p.gridDimZ = op.grid[2];
    p.blockDimX = op.block[0], p.blockDimY = op.block[1], p.blockDimZ = op.block[2];
    p.kernelParams = args.data();
    d_.check(d_.GraphExecKernelNodeSetParams(g.exec, g.nodes.at(node), &p),
             "cuGraphExecKernelNodeSetParams");
  }
  void launch(std::size_t graph) override {
    d_.check(d_.GraphLaunch(graphs_.at(graph).exec, s_), "cuGraphLaunch");
  }
  void destroy(std::size_t graph) override {
    auto it = graphs_.find(graph);
    if (it == graphs_.end()) return;
    release(it->second);
    graphs_.erase(it);
  }

 private:
  // Where each of a kernel op's parameters starts in its bytes, as the driver takes them.
  static std::vector<void*> arg_pointers(const GraphOp& op) {
    std::vector<void*> args;
    std::size_t off = 0;
    for (std::size_t z : op.sizes) {
      args.push_back(const_cast<unsigned char*>(op.params.data() + off));
      off += z;
    }
    return args;
  }
  struct Graph {
    CUgraph graph = nullptr;
    CUgraphExec exec = nullptr;
    std::vector<CUgraphNode> nodes;
  };
  void release(Graph& g) {
    if (g.exec) d_.GraphExecDestroy(g.exec);
    if (g.graph) d_.GraphDestroy(g.graph);
    g.exec = nullptr, g.graph = nullptr;
  }
  const Driver& d_;
  CUstream s_;
  bool capturing_ = false;
  std::vector<CUgraphNode> nodes_;
  std::map<std::size_t, Graph> graphs_;
  std::size_t next_ = 0;
};

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
  // A blocking stream: the synchronous copies on the default stream wait for its work, and
  // its work for theirs, as when everything ran on the default stream.
  d_.check(d_.StreamCreate(&stream_, CU_STREAM_DEFAULT), "cuStreamCreate");
  gx_ = std::make_unique<DriverGraphs>(d_, stream_);
  graphs_ = std::make_shared<StepGraphs>(*gx_, opts.graphs && d_.has_graphs());
#define FRMINI_MAKE_PROVIDER(name, help) \
  if (auto p = make_##name##_provider(*this)) providers_.push_back(p);
  FRMINI_CUDA_MATMUL_PROVIDERS(FRMINI_MAKE_PROVIDER)
#undef FRMINI_MAKE_PROVIDER
}

CudaBackend::~CudaBackend() {
  try {
    flush();
  } catch (const std::exception&) {  // a failing device at exit: nothing left to tell
  }
  providers_.clear();  // cuBLAS and cuBLASLt handles before the context
  reduce_module_[0].reset(), reduce_module_[1].reset(), reduce_part_.reset();
  graphs_.reset(), gx_.reset();
  if (stream_) d_.StreamDestroy(stream_);
  if (ctx_) d_.DevicePrimaryCtxRelease(dev_);
}

void CudaBackend::flush() { graphs_->flush(); }

std::string CudaBackend::notes() const {
  const auto& st = graphs_->stats();
  if (!opts_.graphs) return "";
  if (!d_.has_graphs()) return "cuda graphs: off (the driver has no stream capture info, CUDA >= 12.3)";
  std::ostringstream o;
  o << "cuda graphs: " << st.graph_ops << " of " << st.ops << " launches ran in " << st.replays
    << " graph launches (" << st.captures << " captured, " << st.updates << " kernel nodes updated)";
  if (!graphs_->disabled_reason().empty()) o << "; turned off: " << graphs_->disabled_reason();
  return o.str();
}

std::string CudaBackend::device_description() const {
  return devname_ + " (sm_" + std::to_string(arch_) + ", NVRTC " +
         Compiler::instance().version() + ")";
}

std::unique_ptr<Buffer> CudaBackend::alloc(std::size_t bytes) {
  return std::make_unique<CudaBuffer>(d_, bytes);
}

void CudaBackend::upload(Buffer& dst, std::size_t off, const void* src, std::size_t bytes) {
  flush();
  if (bytes) d_.check(d_.MemcpyHtoD(ptr(dst) + off, src, bytes), "cuMemcpyHtoD");
}

void CudaBackend::download(void* dst, const Buffer& src, std::size_t off, std::size_t bytes) {
  flush();
  if (bytes) d_.check(d_.MemcpyDtoH(dst, ptr(src) + off, bytes), "cuMemcpyDtoH");
}

void CudaBackend::copy(Buffer& dst, std::size_t doff, const Buffer& src, std::size_t soff,
                       std::size_t bytes) {
  flush();
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
  return std::make_shared<CudaModule>(d_, r, [g = std::weak_ptr<StepGraphs>(graphs_)] {
    if (auto s = g.lock()) {
      s->flush();  // launches of its functions still deferred run first
      s->clear();
    }
  });
}

void CudaBackend::synchronize() {
  flush();
  d_.check(d_.CtxSynchronize(), "cuCtxSynchronize");
}

void CudaBackend::launch(CUfunction f, std::size_t grid, unsigned bx, unsigned by,
                         const std::vector<Param>& params, unsigned gy) {
  if (grid == 0 || gy == 0) return;
  GraphOp op;
  op.func = f;
  op.grid[0] = unsigned(grid), op.grid[1] = gy;
  op.block[0] = bx, op.block[1] = by;
  for (const Param& p : params) {
    const auto* b = static_cast<const unsigned char*>(p.value);
    op.params.insert(op.params.end(), b, b + p.size);
    op.sizes.push_back(p.size);
  }
  graphs_->add(std::move(op));
}

void CudaBackend::library(std::string key, std::function<void()> call) {
  GraphOp op;
  op.key = std::move(key);
  op.call = std::move(call);
  graphs_->add(std::move(op));
}

std::vector<double> CudaBackend::time_runs(const std::function<void()>& enqueue, int warmup,
                                           int nrep) {
  for (int i = 0; i < warmup; ++i) enqueue();
  flush();
  CUevent e0 = nullptr, e1 = nullptr;
  d_.check(d_.EventCreate(&e0, CU_EVENT_DEFAULT), "cuEventCreate");
  d_.check(d_.EventCreate(&e1, CU_EVENT_DEFAULT), "cuEventCreate");
  std::vector<double> out;
  try {
    for (int i = 0; i < nrep; ++i) {
      d_.check(d_.EventRecord(e0, stream_), "cuEventRecord");
      enqueue();
      flush();
      d_.check(d_.EventRecord(e1, stream_), "cuEventRecord");
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
