// The generated provider: one kernel per strategy of matmul_plan.cpp for the problem's operator.
#include <algorithm>
#include <atomic>
#include <climits>
#include <exception>
#include <iostream>
#include <thread>

#include "kernels/cuda/backend.hpp"
#include "kernels/cuda/driver.hpp"
#include "kernels/cuda/matmul_providers.hpp"
#include "kernels/cuda/matmul_source.hpp"

namespace frmini::kernels::cuda {

namespace {

using matmul::Kernel;
using matmul::Problem;

constexpr const char* kName = "frmini_mm";

class GeneratedKernel : public Kernel {
 public:
  GeneratedKernel(CudaBackend& be, const Problem& p, Strategy s, std::shared_ptr<CudaModule> m)
      : be_(be), s_(std::move(s)), mod_(std::move(m)), f_(mod_->function(kName)),
        n_(p.n), b_(p.b), c_(p.c), size_(itemsize(p.precision)) {}

  void run() override { run_columns(0, n_); }

  void run_columns(std::size_t begin, std::size_t end) override {
    if (end <= begin) return;
    std::size_t cols = end - begin;
    // Width-2 kernels are offered only for even n, offsets and ld (see candidates()), and
    // column ranges start at multiples of the SoA width, so cols is even here.
    int nv = int(cols / std::size_t(s_.width));
    CUdeviceptr pb = CudaBackend::ptr(*b_.buf) + (b_.offset + begin) * size_;
    CUdeviceptr pc = CudaBackend::ptr(*c_.buf) + (c_.offset + begin) * size_;
    be_.launch(f_, s_.grid(cols), unsigned(s_.blockx), unsigned(s_.ny),
               {{&nv, sizeof nv}, {&pb, sizeof pb}, {&pc, sizeof pc}});
  }

  std::string provider() const override { return "generated"; }
  std::string strategy() const override { return s_.name; }

 private:
  CudaBackend& be_;
  Strategy s_;
  std::shared_ptr<CudaModule> mod_;
  CUfunction f_;
  std::size_t n_;
  matmul::Panel b_, c_;
  std::size_t size_;
};

class GeneratedProvider : public matmul::Provider {
 public:
  explicit GeneratedProvider(CudaBackend& be) : be_(be) {}
  std::string name() const override { return "generated"; }

  std::vector<std::unique_ptr<Kernel>> candidates(const Problem& p,
                                                  std::string* why_not) override {
    std::vector<std::unique_ptr<Kernel>> out;
    if (p.n > std::size_t(INT_MAX)) {
      if (why_not) *why_not = "n beyond 2^31 columns";
      return out;
    }
    auto a = matmul::analyse(p.a, p.alpha);
    auto even = [](std::size_t v) { return v % 2 == 0; };
    PlanOptions o;
    o.width2 = even(p.n) && even(p.b.ld) && even(p.c.ld) && even(p.b.offset) && even(p.c.offset);
    std::vector<Strategy> plan_ = plan(a, p.precision, o);

    // NVRTC compiles independent programs concurrently: one worker per core.
    std::vector<CompileResult> compiled(plan_.size());
    std::vector<std::exception_ptr> errors(plan_.size());
    std::atomic<std::size_t> next{0};
    auto work = [&] {
      for (std::size_t i; (i = next++) < plan_.size();) {
        try {
          SourceParams sp{p.precision, p.beta, p.b.ld, p.c.ld, kName};
          compiled[i] = Compiler::instance().compile_cubin(matmul_source(a, plan_[i], sp),
                                                           be_.arch(), plan_[i].nvrtc_flags);
        } catch (...) {
          errors[i] = std::current_exception();
        }
      }
    };
    unsigned nt = std::max(1u, std::min(std::thread::hardware_concurrency(),
                                        unsigned(plan_.size())));
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < nt; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();

    for (std::size_t i = 0; i < plan_.size(); ++i) {
      if (errors[i]) std::rethrow_exception(errors[i]);
      const Resources& r = compiled[i].resources[kName];
      if (be_.verbose())
        std::cerr << "cuda: generated " << p.name << " " << plan_[i].name << ": " << r.registers
                  << " registers, spill " << r.spill_stores << "/" << r.spill_loads
                  << " bytes, smem " << r.shared << "\n";
      auto mod = std::make_shared<CudaModule>(be_.driver(), compiled[i]);
      out.push_back(std::make_unique<GeneratedKernel>(be_, p, plan_[i], std::move(mod)));
    }
    // Spill-free candidates keep the plan's order ahead of spilling ones: measured beats the
    // cost model's prediction.
    std::stable_partition(out.begin(), out.end(), [&](const std::unique_ptr<Kernel>& k) {
      for (std::size_t i = 0; i < plan_.size(); ++i)
        if (plan_[i].name == k->strategy()) return !compiled[i].resources[kName].spills();
      return true;
    });
    return out;
  }

 private:
  CudaBackend& be_;
};

}  // namespace

std::shared_ptr<matmul::Provider> make_generated_provider(CudaBackend& be) {
  return std::make_shared<GeneratedProvider>(be);
}

}  // namespace frmini::kernels::cuda
