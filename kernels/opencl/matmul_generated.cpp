// The opencl backend's `generated` matmul provider (host side): for a Problem it analyses A,
// asks matmul_strategies for candidates, has matmul_source write each one's program, compiles
// it (through the backend's binary cache) and binds it to the operands. One program serves
// every n, since n, ldb and ldc are kernel arguments.
#include <limits>
#include <optional>

#include "kernels/matmul/analysis.hpp"
#include "kernels/opencl/matmul_source.hpp"
#include "kernels/opencl/matmul_strategies.hpp"
#include "kernels/opencl/backend.hpp"
#include "kernels/opencl/matmul_providers.hpp"

namespace frmini::kernels::opencl {
namespace {

// 64-bit index arithmetic only where a 32-bit one could overflow (it costs registers).
bool needs_wide_index(const matmul::Problem& p) {
  const double lim = double(std::numeric_limits<int>::max());
  return double(p.k()) * double(p.b.ld) + double(p.n) >= lim ||
         double(p.m()) * double(p.c.ld) + double(p.n) >= lim;
}

// The program is built on the first run, not when the candidate is made: the tuner asks for
// every candidate even when its disk cache already names the winner, and building all of them
// (seconds each on PoCL) would be wasted. When tuning, the build falls in the untimed warm-up.
class GeneratedKernel : public matmul::Kernel {
 public:
  GeneratedKernel(OpenCLBackend& be, const matmul::Problem& p, const Strategy& s,
                  std::string source, bool wide)
      : be_(be), s_(s), n_(p.n), b_(p.b), c_(p.c), wide_(wide), source_(std::move(source)) {}

  void run() override { run_columns(0, n_); }

  void run_columns(std::size_t col_begin, std::size_t col_end) override {
    if (col_end <= col_begin) return;
    if (!main_.get()) build();
    const std::size_t count = col_end - col_begin, w = std::size_t(s_.width);
    const std::size_t items = count / w;
    if (items > 0) {
      bind(main_, items, col_begin);
      const std::size_t x = std::size_t(s_.blockx);
      be_.launch(main_, (items + x - 1) / x * x, x, std::size_t(s_.split), std::size_t(s_.split));
    }
    if (count % w) {  // width 2 and an odd count: the last column by the scalar kernel
      bind(tail_, 1, col_end - 1);
      be_.launch(tail_, 1, 1);
    }
  }

  std::string provider() const override { return "generated"; }
  std::string strategy() const override { return s_.name(); }

 private:
  void bind(KernelHandle& k, std::size_t items, std::size_t col) {
    k.arg(0, cl_int(items));
    k.arg(1, mem_of(*b_.buf));
    k.arg(2, cl_ulong(b_.offset + col));
    k.arg(4, mem_of(*c_.buf));
    k.arg(5, cl_ulong(c_.offset + col));
    if (wide_) {
      k.arg(3, cl_long(b_.ld));
      k.arg(6, cl_long(c_.ld));
    } else {
      k.arg(3, cl_int(b_.ld));
      k.arg(6, cl_int(c_.ld));
    }
  }

  void build() {
    auto module = be_.compile(source_);
    main_ = KernelHandle(module, "frmini_mm");
    if (s_.width > 1) tail_ = KernelHandle(module, "frmini_mm_tail");
    source_.clear();
  }

  OpenCLBackend& be_;
  Strategy s_;
  std::size_t n_;
  matmul::Panel b_, c_;
  bool wide_;
  std::string source_;
  KernelHandle main_, tail_;
};

class GeneratedProvider : public matmul::Provider {
 public:
  explicit GeneratedProvider(OpenCLBackend& be) : be_(be) {}
  std::string name() const override { return "generated"; }

  std::vector<std::unique_ptr<matmul::Kernel>> candidates(const matmul::Problem& p,
                                                          std::string* why_not) override {
    auto a = matmul::analyse(p.a, p.alpha);
    std::vector<std::unique_ptr<matmul::Kernel>> out;
    for (const Strategy& s : generated_strategies(a, be_.info(), p.precision, why_not))
      out.push_back(make_generated_kernel(be_, p, s, &a));
    return out;
  }

 private:
  OpenCLBackend& be_;
};

}  // namespace

std::unique_ptr<matmul::Kernel> make_generated_kernel(OpenCLBackend& backend,
                                                      const matmul::Problem& p,
                                                      const Strategy& s,
                                                      const matmul::Analysis* analysis) {
  std::optional<matmul::Analysis> own;
  if (!analysis) analysis = &own.emplace(matmul::analyse(p.a, p.alpha));
  const bool wide = needs_wide_index(p);
  return std::make_unique<GeneratedKernel>(
      backend, p, s, matmul_source(*analysis, s, SourceSpec{p.precision, p.beta, wide}), wide);
}

std::shared_ptr<matmul::Provider> make_generated_provider(OpenCLBackend& backend) {
  return std::make_shared<GeneratedProvider>(backend);
}

}  // namespace frmini::kernels::opencl
