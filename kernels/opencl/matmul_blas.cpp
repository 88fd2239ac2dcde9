// The opencl backend's `blas` matmul provider: CLBlast's xGEMM (row-major, no transposes,
// with offsets and leading dimensions), A uploaded once in the data precision. Compiled only
// when CMake found CLBlast; otherwise matmul_blas_absent.cpp stands in.
#include <clblast_c.h>

#include <stdexcept>
#include <vector>

#include "kernels/opencl/backend.hpp"
#include "kernels/opencl/matmul_providers.hpp"

namespace frmini::kernels::opencl {
namespace {

class ClblastKernel : public matmul::Kernel {
 public:
  ClblastKernel(OpenCLBackend& be, const matmul::Problem& p)
      : be_(be), m_(p.m()), k_(p.k()), n_(p.n), alpha_(p.alpha), beta_(p.beta),
        precision_(p.precision), b_(p.b), c_(p.c) {
    const std::size_t mk = m_ * k_;
    if (precision_ == Precision::double_) {
      a_ = be.alloc(mk * sizeof(double));
      be.upload(*a_, 0, p.a.data.data(), mk * sizeof(double));
    } else {
      std::vector<float> af(p.a.data.begin(), p.a.data.end());
      a_ = be.alloc(mk * sizeof(float));
      be.upload(*a_, 0, af.data(), mk * sizeof(float));
    }
  }

  void run() override { run_columns(0, n_); }

  void run_columns(std::size_t col_begin, std::size_t col_end) override {
    if (col_end <= col_begin || m_ == 0) return;
    cl_command_queue q = be_.queue();
    cl_event event = nullptr;
    const std::size_t n = col_end - col_begin;
    CLBlastStatusCode st;
    if (precision_ == Precision::double_)
      st = CLBlastDgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, m_, n, k_,
                        alpha_, mem_of(*a_), 0, k_, mem_of(*b_.buf), b_.offset + col_begin,
                        b_.ld, beta_, mem_of(*c_.buf), c_.offset + col_begin, c_.ld, &q, &event);
    else
      st = CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, m_, n, k_,
                        float(alpha_), mem_of(*a_), 0, k_, mem_of(*b_.buf), b_.offset + col_begin,
                        b_.ld, float(beta_), mem_of(*c_.buf), c_.offset + col_begin, c_.ld, &q,
                        &event);
    if (st != CLBlastSuccess)
      throw std::runtime_error("opencl: CLBlast gemm failed with status " + std::to_string(int(st)));
    // The queue is in order, so later commands wait for the GEMM anyway; blocking on its event
    // here would only stall the host between runs. The event goes to time_runs when it is
    // timing (it covers CLBlast's last kernel; earlier helper kernels are not in it, so a
    // multi-kernel CLBlast call is timed by its final kernel only: an advantage to CLBlast),
    // else it is released.
    if (event) be_.record_event(event);
  }

  std::string provider() const override { return "blas"; }
  std::string strategy() const override {
    return precision_ == Precision::double_ ? "clblast-dgemm" : "clblast-sgemm";
  }

 private:
  OpenCLBackend& be_;
  std::size_t m_, k_, n_;
  double alpha_, beta_;
  Precision precision_;
  matmul::Panel b_, c_;
  std::unique_ptr<Buffer> a_;
};

class ClblastProvider : public matmul::Provider {
 public:
  explicit ClblastProvider(OpenCLBackend& be) : be_(be) {}
  std::string name() const override { return "blas"; }
  std::vector<std::unique_ptr<matmul::Kernel>> candidates(const matmul::Problem& p,
                                                          std::string* why_not) override {
    std::vector<std::unique_ptr<matmul::Kernel>> out;
    if (!be_.computes_in(p.precision, why_not)) return out;
    if (p.m() == 0 || p.k() == 0) {
      if (why_not) *why_not = "CLBlast rejects empty operators";
      return out;
    }
    out.push_back(std::make_unique<ClblastKernel>(be_, p));
    return out;
  }

 private:
  OpenCLBackend& be_;
};

}  // namespace

std::shared_ptr<matmul::Provider> make_blas_provider(OpenCLBackend& backend) {
  return std::make_shared<ClblastProvider>(backend);
}

}  // namespace frmini::kernels::opencl
