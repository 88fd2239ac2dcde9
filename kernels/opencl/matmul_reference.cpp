// The opencl backend's `reference` matmul provider: the naive kernel of matmul_reference_source.cpp
// with A uploaded to a device buffer. Never fast, always right; the tests and the benchmark
// check every other provider against it.
#include "kernels/opencl/matmul_source.hpp"
#include "kernels/opencl/backend.hpp"
#include "kernels/opencl/matmul_providers.hpp"

namespace frmini::kernels::opencl {
namespace {

class ReferenceKernel : public matmul::Kernel {
 public:
  ReferenceKernel(OpenCLBackend& be, const matmul::Problem& p, std::shared_ptr<Module> module)
      : be_(be), p_(p) {
    const bool fp64 = be.info().fp64;
    kernel_ = KernelHandle(std::move(module), "frmini_ref");
    const std::size_t mk = p.m() * p.k();
    if (fp64) {
      a_ = be.alloc(mk * sizeof(double));
      be.upload(*a_, 0, p.a.data.data(), mk * sizeof(double));
    } else {
      std::vector<float> af(p.a.data.begin(), p.a.data.end());
      a_ = be.alloc(mk * sizeof(float));
      be.upload(*a_, 0, af.data(), mk * sizeof(float));
    }
    p_.a = {};  // the host copy is no longer needed
    m_ = cl_int(p.m());
    k_ = cl_int(p.k());
    kernel_.arg(0, m_);
    kernel_.arg(2, k_);
    kernel_.arg(3, mem_of(*a_));
    if (fp64) {
      kernel_.arg(4, cl_double(p.alpha));
      kernel_.arg(5, cl_double(p.beta));
    } else {
      kernel_.arg(4, cl_float(p.alpha));
      kernel_.arg(5, cl_float(p.beta));
    }
    kernel_.arg(6, mem_of(*p.b.buf));
    kernel_.arg(8, cl_long(p.b.ld));
    kernel_.arg(9, mem_of(*p.c.buf));
    kernel_.arg(11, cl_long(p.c.ld));
  }

  void run() override { run_columns(0, p_.n); }
  void run_columns(std::size_t col_begin, std::size_t col_end) override {
    if (col_end <= col_begin || m_ == 0) return;
    kernel_.arg(1, cl_int(col_end - col_begin));
    kernel_.arg(7, cl_ulong(p_.b.offset + col_begin));
    kernel_.arg(10, cl_ulong(p_.c.offset + col_begin));
    be_.launch(kernel_, col_end - col_begin, 0, std::size_t(m_), 1);
  }
  std::string provider() const override { return "reference"; }
  std::string strategy() const override { return "naive"; }

 private:
  OpenCLBackend& be_;
  matmul::Problem p_;
  KernelHandle kernel_;
  std::unique_ptr<Buffer> a_;
  cl_int m_ = 0, k_ = 0;
};

class ReferenceProvider : public matmul::Provider {
 public:
  explicit ReferenceProvider(OpenCLBackend& be) : be_(be) {}
  std::string name() const override { return "reference"; }
  std::vector<std::unique_ptr<matmul::Kernel>> candidates(const matmul::Problem& p,
                                                          std::string* why_not) override {
    std::vector<std::unique_ptr<matmul::Kernel>> out;
    if (!be_.computes_in(p.precision, why_not)) return out;
    // One program per precision for the provider's lifetime: the tests and the benchmark
    // ask for a reference kernel per problem, and rebuilding it each time costs seconds.
    auto& module = modules_[p.precision == Precision::single ? 0 : 1];
    if (!module) module = be_.compile(reference_source(p.precision, be_.info().fp64));
    out.push_back(std::make_unique<ReferenceKernel>(be_, p, module));
    return out;
  }

 private:
  OpenCLBackend& be_;
  std::shared_ptr<Module> modules_[2];
};

}  // namespace

std::shared_ptr<matmul::Provider> make_reference_provider(OpenCLBackend& backend) {
  return std::make_shared<ReferenceProvider>(backend);
}

}  // namespace frmini::kernels::opencl
