// The CUDA matmul correctness test, on a GPU: every generated candidate, cuBLASLt's searched
// algorithm (`blas`: its heuristic's candidates timed, the fastest kept) and plain cuBLAS
// (`cublas`) against the reference kernel, for a sample of operators, float and double, beta
// 0/1/0.5, n in {1, 31, 33, 1000, 4099} with padded leading dimensions and offset panels, plus
// run_columns on a sub-range. Without a driver or device it prints "skipped: no GPU" and exits
// 77, which ctest (SKIP_RETURN_CODE) reports as skipped.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "kernels/cuda/driver.hpp"
#include "kernels/matmul/provider.hpp"
#include "operators/operators.hpp"

using namespace frmini::kernels;

namespace {

int failures = 0;
int lt_checked[2] = {0, 0};  // cuBLASLt-searched kernels checked: [single, double]

std::vector<double> download(Backend& be, const Buffer& b, Precision p, std::size_t count) {
  std::vector<double> out(count);
  if (p == Precision::single) {
    std::vector<float> f(count);
    be.download(f.data(), b, 0, count * 4);
    for (std::size_t i = 0; i < count; ++i) out[i] = f[i];
  } else {
    be.download(out.data(), b, 0, count * 8);
  }
  return out;
}

void upload(Backend& be, Buffer& b, Precision p, const std::vector<double>& v) {
  if (p == Precision::single) {
    std::vector<float> f(v.begin(), v.end());
    be.upload(b, 0, f.data(), f.size() * 4);
  } else {
    be.upload(b, 0, v.data(), v.size() * 8);
  }
}

void check_operator(Backend& be, const std::string& name, const matmul::HostMatrix& a,
                    Precision prec, double beta, std::size_t n) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> U(-1, 1);
  // Padded ld and a panel offset of 32 elements: what the solver's AoSoA panels look like.
  const std::size_t s = itemsize(prec), pad = 32, off = 32;
  std::size_t ldb = (n + pad + 31) / 32 * 32, ldc = ldb;
  std::size_t bsz = off + a.cols * ldb, csz = off + a.rows * ldc;
  std::vector<double> bh(bsz), c0(csz);
  for (auto& x : bh) x = U(rng);
  for (auto& x : c0) x = U(rng);
  auto b = be.alloc(bsz * s), cref = be.alloc(csz * s), c = be.alloc(csz * s);
  upload(be, *b, prec, bh);

  matmul::Problem p;
  p.a = a;
  p.alpha = 0.75;
  p.beta = beta;
  p.precision = prec;
  p.n = n;
  p.b = {b.get(), off, ldb};
  p.name = name;

  auto providers = be.matmul_providers();
  std::shared_ptr<matmul::Provider> ref;
  for (auto& pr : providers)
    if (pr->name() == "reference") ref = pr;
  upload(be, *cref, prec, c0);
  p.c = {cref.get(), off, ldc};
  ref->candidates(p).front()->run();
  auto want = download(be, *cref, prec, csz);

  double tol = prec == Precision::single ? 2e-5 : 1e-12;
  for (auto& pr : providers) {
    if (pr->name() == "reference") continue;
    p.c = {c.get(), off, ldc};
    std::string why;
    for (auto& k : pr->candidates(p, &why)) {
      if (pr->name() == "blas") {
        if (k->strategy().rfind("cublaslt-", 0) != 0) {
          ++failures;
          std::printf("FAIL %s: blas is not cuBLASLt-searched (%s)\n", name.c_str(),
                      k->strategy().c_str());
        }
        ++lt_checked[prec == Precision::single ? 0 : 1];
      }
      for (int sub = 0; sub < 2; ++sub) {
        upload(be, *c, prec, c0);
        if (sub == 0) {
          k->run();
        } else {  // two column ranges, split at a multiple of the SoA width
          std::size_t mid = std::min(n, std::size_t(32));
          k->run_columns(0, mid);
          k->run_columns(mid, n);
        }
        auto got = download(be, *c, prec, csz);
        double err = 0, scale = 1;
        for (std::size_t i = 0; i < csz; ++i) {
          err = std::max(err, std::abs(got[i] - want[i]));
          scale = std::max(scale, std::abs(want[i]));
        }
        if (err > tol * scale * double(a.cols + 1)) {
          ++failures;
          std::printf("FAIL %s %s beta=%g n=%zu %s/%s%s: max error %.3g\n", name.c_str(),
                      to_string(prec), beta, n, k->provider().c_str(), k->strategy().c_str(),
                      sub ? " (run_columns)" : "", err);
        }
      }
    }
  }
}

}  // namespace

// --probe: only whether a GPU is there (exit 0) or not (77), for tools/gpu-checks.
// --etypes quad,hex: those element types only (default all four), so that the checks can run
// in parts, each within a batch job's time limit.
int main(int argc, char** argv) {
  const bool probe = argc > 1 && std::string(argv[1]) == "--probe";
  std::vector<std::string> etypes{"quad", "hex", "tri", "tet"};
  if (argc > 2 && std::string(argv[1]) == "--etypes") {
    etypes.clear();
    std::stringstream list(argv[2]);
    for (std::string e; std::getline(list, e, ',');) etypes.push_back(e);
  } else if (argc > 1 && !probe) {
    std::printf("usage: %s [--probe | --etypes quad,hex,tri,tet]\n", argv[0]);
    return 2;
  }
  // Line by line, so that a run stopped by a batch job's time limit shows how far it got.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::string why;
  if (!cuda::driver_available(&why)) {
    std::printf("skipped: no GPU (%s)\n", why.c_str());
    return 77;
  }
  try {
    auto be = make_backend("cuda");
    std::printf("device: %s\n", be->device_description().c_str());
    if (probe) return 0;
    for (const auto& et : etypes)
      for (int order : {1, 3, 6}) {
        auto ops = frmini::operators::build_operators(et, order);
        for (const char* opname : {"M0", "M3", "M6", "M132", "M460"}) {
          if (order == 6 && std::string(opname) != "M460" && std::string(opname) != "M132")
            continue;  // p6: the two largest only, to bound the run time
          const auto& m = frmini::operators::get(ops, opname);
          matmul::HostMatrix a{m.rows, m.cols, m.data};
          std::string name = et + "-p" + std::to_string(order) + "-" + opname;
          auto t0 = std::chrono::steady_clock::now();
          for (auto prec : {Precision::single, Precision::double_})
            for (double beta : {0.0, 1.0, 0.5})
              for (std::size_t n : {1, 31, 33, 1000, 4099})
                check_operator(*be, name, a, prec, beta, n);
          std::printf("%-14s checked (%.1f s, %d failures so far)\n", name.c_str(),
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                      failures);
        }
      }
  } catch (const std::exception& e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
  std::printf("cuBLASLt-searched products checked: %d single, %d double\n", lt_checked[0],
              lt_checked[1]);
  if (!lt_checked[0] || !lt_checked[1]) {
    std::printf("FAIL: cuBLASLt declined every product\n");
    ++failures;
  }
  std::printf("%s: %d failures\n", failures ? "FAILED" : "passed", failures);
  return failures ? 1 : 0;
}
