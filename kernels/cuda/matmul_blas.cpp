// The cublas provider: plain cuBLAS opened at run time (libcublas.so.13), cublasSgemm/Dgemm
// with the library's own choice of algorithm — the paper's baseline beside the `blas`
// provider's searched cuBLASLt (matmul_lt.cpp). cuBLAS is column-major and
// our panels are row-major, so C = A*B is computed as C^T = B^T * A^T: a column-major B^T is
// our row-major B with the same ld, and likewise for C and A (lda = k).
#include <cublas_v2.h>  // types and enums only

#include <cstdio>
#include <mutex>

#include "kernels/cuda/backend.hpp"
#include "kernels/cuda/dynlib.hpp"
#include "kernels/cuda/matmul_providers.hpp"

namespace frmini::kernels::cuda {

namespace {

using matmul::Kernel;
using matmul::Problem;

struct Cublas {
  decltype(&::cublasCreate) create = nullptr;
  decltype(&::cublasDestroy) destroy = nullptr;
  decltype(&::cublasDgemm) dgemm = nullptr;
  decltype(&::cublasSgemm) sgemm = nullptr;
  decltype(&::cublasSetStream) set_stream = nullptr;
  cublasHandle_t handle = nullptr;
  std::string error;

  explicit Cublas(CUstream stream) {
    void* h = open_first(toolkit_candidates("libcublas.so", "13"), &error);
    if (!h) return;
#define FRMINI_STR2(x) #x
#define FRMINI_STR(x) FRMINI_STR2(x)
    // cublas_v2.h maps cublasCreate to cublasCreate_v2 etc.; stringify after expansion.
    if (!resolve(h, FRMINI_STR(cublasCreate), create) ||
        !resolve(h, FRMINI_STR(cublasDestroy), destroy) ||
        !resolve(h, FRMINI_STR(cublasDgemm), dgemm) ||
        !resolve(h, FRMINI_STR(cublasSgemm), sgemm) ||
        !resolve(h, FRMINI_STR(cublasSetStream), set_stream)) {
      error = "libcublas: missing gemm symbols";
      return;
    }
    if (create(&handle) != CUBLAS_STATUS_SUCCESS) error = "cublasCreate failed";
    // The backend's stream, where its own kernels run (and graphs capture).
    else if (set_stream(handle, stream) != CUBLAS_STATUS_SUCCESS) error = "cublasSetStream failed";
  }
  ~Cublas() {
    if (handle) destroy(handle);
  }
};

void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cuda: ") + what + " failed (status " +
                             std::to_string(int(s)) + ")");
}

class BlasKernel : public Kernel {
 public:
  BlasKernel(CudaBackend& be, Cublas& blas, const Problem& p)
      : be_(be), blas_(blas), p_(p), size_(itemsize(p.precision)) {
    // A is converted to the data precision and uploaded once per kernel.
    std::size_t mk = p.m() * p.k();
    a_ = be.alloc(std::max<std::size_t>(mk, 1) * size_);
    if (p.precision == Precision::single) {
      std::vector<float> f(p.a.data.begin(), p.a.data.end());
      be.upload(*a_, 0, f.data(), mk * size_);
    } else {
      be.upload(*a_, 0, p.a.data.data(), mk * size_);
    }
    p_.a.data.clear();  // the host copy is no longer needed
  }

  void run() override { run_columns(0, p_.n); }

  void run_columns(std::size_t begin, std::size_t end) override {
    if (end <= begin) return;
    int n = int(end - begin), m = int(p_.m()), k = int(p_.k());
    int lda = std::max(k, 1), ldb = int(p_.b.ld), ldc = int(p_.c.ld);
    CUdeviceptr a = CudaBackend::ptr(*a_);
    CUdeviceptr b = CudaBackend::ptr(*p_.b.buf) + (p_.b.offset + begin) * size_;
    CUdeviceptr c = CudaBackend::ptr(*p_.c.buf) + (p_.c.offset + begin) * size_;
    const bool sp = p_.precision == Precision::single;
    const double alpha = p_.alpha, beta = p_.beta;
    Cublas* blas = &blas_;
    // Everything the call reads, by value: it may run later, inside a graph's capture.
    char key[256];
    std::snprintf(key, sizeof key, "cublas %c %d %d %d %llx %d %llx %d %llx %d %.17g %.17g",
                  sp ? 's' : 'd', n, m, k, (unsigned long long)a, lda, (unsigned long long)b, ldb,
                  (unsigned long long)c, ldc, alpha, beta);
    be_.library(key, [=] {
      if (sp) {
        const float al = float(alpha), bt = float(beta);
        check(blas->sgemm(blas->handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &al,
                          reinterpret_cast<const float*>(b), ldb, reinterpret_cast<const float*>(a),
                          lda, &bt, reinterpret_cast<float*>(c), ldc),
              "cublasSgemm");
      } else {
        check(blas->dgemm(blas->handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha,
                          reinterpret_cast<const double*>(b), ldb,
                          reinterpret_cast<const double*>(a), lda, &beta,
                          reinterpret_cast<double*>(c), ldc),
              "cublasDgemm");
      }
    });
  }

  std::string provider() const override { return "cublas"; }
  std::string strategy() const override {
    return p_.precision == Precision::single ? "cublasSgemm" : "cublasDgemm";
  }

 private:
  CudaBackend& be_;
  Cublas& blas_;
  Problem p_;
  std::size_t size_;
  std::unique_ptr<Buffer> a_;
};

class BlasProvider : public matmul::Provider {
 public:
  explicit BlasProvider(CudaBackend& be) : be_(be) {}
  std::string name() const override { return "cublas"; }

  std::vector<std::unique_ptr<Kernel>> candidates(const Problem& p,
                                                  std::string* why_not) override {
    std::vector<std::unique_ptr<Kernel>> out;
    std::call_once(once_, [&] { blas_ = std::make_unique<Cublas>(be_.stream()); });
    if (!blas_->error.empty()) {
      if (why_not) *why_not = "cuBLAS not available (" + blas_->error + ")";
      return out;
    }
    if (p.n > std::size_t(INT32_MAX) || p.b.ld > std::size_t(INT32_MAX) ||
        p.c.ld > std::size_t(INT32_MAX)) {
      if (why_not) *why_not = "dimensions beyond cuBLAS's 32-bit int";
      return out;
    }
    out.push_back(std::make_unique<BlasKernel>(be_, *blas_, p));
    return out;
  }

 private:
  CudaBackend& be_;
  std::once_flag once_;
  std::unique_ptr<Cublas> blas_;
};

}  // namespace

std::shared_ptr<matmul::Provider> make_cublas_provider(CudaBackend& be) {
  return std::make_shared<BlasProvider>(be);
}

}  // namespace frmini::kernels::cuda
