// The reference provider: a naive kernel, one thread per column, summing in double with A read
// from device memory. Slow and obviously right; the tests compare every other kernel with it.
#include "kernels/cuda/backend.hpp"
#include "kernels/cuda/matmul_providers.hpp"
#include "kernels/cuda/matmul_source.hpp"

namespace frmini::kernels::cuda {

namespace {

using matmul::Kernel;
using matmul::Problem;

class ReferenceKernel : public Kernel {
 public:
  ReferenceKernel(CudaBackend& be, const Problem& p)
      : be_(be), p_(p), size_(itemsize(p.precision)) {
    mod_ = std::static_pointer_cast<CudaModule>(be.compile(reference_source(p.precision)));
    f_ = mod_->function("frmini_matmul_ref");
    a_ = be.alloc(std::max<std::size_t>(p.a.data.size(), 1) * sizeof(double));
    be.upload(*a_, 0, p.a.data.data(), p.a.data.size() * sizeof(double));
  }

  void run() override { run_columns(0, p_.n); }

  void run_columns(std::size_t begin, std::size_t end) override {
    if (end <= begin) return;
    int m = int(p_.m()), k = int(p_.k()), n = int(end - begin);
    CUdeviceptr a = CudaBackend::ptr(*a_);
    CUdeviceptr b = CudaBackend::ptr(*p_.b.buf) + (p_.b.offset + begin) * size_;
    CUdeviceptr c = CudaBackend::ptr(*p_.c.buf) + (p_.c.offset + begin) * size_;
    long long ldb = (long long)p_.b.ld, ldc = (long long)p_.c.ld;
    double alpha = p_.alpha, beta = p_.beta;
    be_.launch(f_, (std::size_t(n) + 127) / 128, 128, 1,
               {{&m, sizeof m}, {&k, sizeof k}, {&n, sizeof n}, {&a, sizeof a}, {&alpha, sizeof alpha},
                {&beta, sizeof beta}, {&b, sizeof b}, {&ldb, sizeof ldb}, {&c, sizeof c}, {&ldc, sizeof ldc}});
  }

  std::string provider() const override { return "reference"; }
  std::string strategy() const override { return "naive"; }

 private:
  CudaBackend& be_;
  Problem p_;
  std::size_t size_;
  std::shared_ptr<CudaModule> mod_;
  CUfunction f_ = nullptr;
  std::unique_ptr<Buffer> a_;
};

class ReferenceProvider : public matmul::Provider {
 public:
  explicit ReferenceProvider(CudaBackend& be) : be_(be) {}
  std::string name() const override { return "reference"; }
  std::vector<std::unique_ptr<Kernel>> candidates(const Problem& p, std::string*) override {
    std::vector<std::unique_ptr<Kernel>> out;
    out.push_back(std::make_unique<ReferenceKernel>(be_, p));
    return out;
  }

 private:
  CudaBackend& be_;
};

}  // namespace

std::shared_ptr<matmul::Provider> make_reference_provider(CudaBackend& be) {
  return std::make_shared<ReferenceProvider>(be);
}

}  // namespace frmini::kernels::cuda
