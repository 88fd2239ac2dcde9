// The cuBLASLt `blas` provider's host-side parts, without a GPU: the row-major to column-major
// mapping of the matmul descriptor's layouts, the decision cache's key and round trip, and the
// clean one-line decline when libcublasLt or a device is absent. The search itself (timing the
// heuristic's candidates) is checked against the reference kernel in test_matmul_gpu.cpp.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "kernels/backend.hpp"
#include "kernels/cuda/driver.hpp"
#include "kernels/cuda/dynlib.hpp"
#include "kernels/cuda/matmul_lt_plan.hpp"
#include "kernels/cuda/matmul_providers.hpp"
#include "tests/frmini_catch.hpp"

using namespace frmini::kernels;
using namespace frmini::kernels::cuda;

namespace {

// A private cache directory for the duration of a test.
struct TempCache {
  std::filesystem::path dir;
  TempCache() {
    dir = std::filesystem::temp_directory_path() /
          ("frmini-lt-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    setenv("FRMINI_CACHE_DIR", dir.c_str(), 1);
    unsetenv("FRMINI_TUNE_CACHE");
  }
  ~TempCache() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

LtKey sample_key() {
  LtKey k;
  k.device = "NVIDIA H200";
  k.arch = 90;
  k.version = 130100;
  k.precision = Precision::single;
  k.m = 48, k.n = 4099, k.k = 27, k.lda = 27, k.ldb = 4160, k.ldc = 4160;
  k.beta_zero = false;
  k.align_a = 256, k.align_b = 128, k.align_c = 128;
  k.candidates = 16;
  return k;
}

}  // namespace

TEST_CASE("cuBLASLt layouts: row-major C = A B as column-major C^T = B^T A^T") {
  // A 5 x 3 (lda 3), B 3 x 7 (ldb 32), C 5 x 7 (ldc 64).
  LtLayouts l = lt_layouts(5, 7, 3, 3, 32, 64);
  CHECK(l.m == 7);  // cuBLASLt's rows of D: our columns
  CHECK(l.n == 5);
  CHECK(l.k == 3);
  // Its A is our B read column-major: n x k with B's ld.
  CHECK(l.a.rows == 7);
  CHECK(l.a.cols == 3);
  CHECK(l.a.ld == 32);
  // Its B is our A: k x m with A's ld.
  CHECK(l.b.rows == 3);
  CHECK(l.b.cols == 5);
  CHECK(l.b.ld == 3);
  // Its C (and D) is our C: n x m with C's ld.
  CHECK(l.c.rows == 7);
  CHECK(l.c.cols == 5);
  CHECK(l.c.ld == 64);
  // Column-major leading dimensions must cover the rows, as cuBLASLt requires.
  CHECK(l.a.ld >= std::int64_t(l.a.rows));
  CHECK(l.b.ld >= std::int64_t(l.b.rows));
  CHECK(l.c.ld >= std::int64_t(l.c.rows));
}

TEST_CASE("cuBLASLt layouts: element (i, j) lands where cuBLASLt reads it") {
  // Row-major element (r, c) of a matrix with ld is at r*ld + c; column-major (row, col) of
  // cuBLASLt's view is at col*ld + row: the same offset with row = c, col = r.
  LtLayouts l = lt_layouts(4, 6, 5, 5, 8, 9);
  for (std::size_t r = 0; r < 4; ++r)
    for (std::size_t c = 0; c < 6; ++c) {
      std::size_t ours = r * 9 + c, theirs = r * std::size_t(l.c.ld) + c;  // col r, row c
      CHECK(ours == theirs);
      CHECK(c < l.c.rows);
      CHECK(r < l.c.cols);
    }
}

TEST_CASE("cuBLASLt alignment of a device address") {
  CHECK(lt_alignment(0) == 256);
  CHECK(lt_alignment(0x7f0000001000ULL) == 256);
  CHECK(lt_alignment(0x1080) == 128);
  CHECK(lt_alignment(0x1004) == 4);
  CHECK(lt_alignment(0x1001) == 1);
}

TEST_CASE("cuBLASLt cache key: its contents") {
  LtKey k = sample_key();
  std::string t = lt_key_text(k);
  for (const char* part : {"NVIDIA H200", "sm_90", "lt 130100", "single", "m48 n4099 k27",
                           "ld 27 4160 4160", "NN", "betax", "align 256 128 128", "cand 16"})
    CHECK(t.find(part) != std::string::npos);
  CHECK(t.find('\n') == std::string::npos);
  CHECK(lt_cache_name(k).rfind("cublaslt/", 0) == 0);

  // Every field changes the entry.
  auto differs = [&](auto change) {
    LtKey o = k;
    change(o);
    return lt_cache_name(o) != lt_cache_name(k);
  };
  CHECK(differs([](LtKey& o) { o.device = "NVIDIA H100 80GB HBM3"; }));
  CHECK(differs([](LtKey& o) { o.arch = 100; }));
  CHECK(differs([](LtKey& o) { o.version = 130200; }));
  CHECK(differs([](LtKey& o) { o.precision = Precision::double_; }));
  CHECK(differs([](LtKey& o) { o.n = 4098; }));
  CHECK(differs([](LtKey& o) { o.ldb = 4192; }));
  CHECK(differs([](LtKey& o) { o.beta_zero = true; }));
  CHECK(differs([](LtKey& o) { o.align_c = 64; }));
}

TEST_CASE("cuBLASLt cache: a decision round-trips, another version or device misses") {
  TempCache tc;
  LtKey k = sample_key();
  CHECK_FALSE(lt_cache_lookup(k).has_value());
  LtAlgoBytes algo{1, 2, 3, 0xffffffffffffffffULL, 0, 42, 7, 0x0123456789abcdefULL};
  lt_cache_store(k, algo, 1.5e-6);
  auto hit = lt_cache_lookup(k);
  REQUIRE(hit.has_value());
  CHECK(*hit == algo);
  CHECK(std::filesystem::exists(tc.dir / lt_cache_name(k)));

  LtKey v = k;
  v.version = k.version + 1;
  CHECK_FALSE(lt_cache_lookup(v).has_value());
  LtKey d = k;
  d.device = "NVIDIA A100-SXM4-80GB";
  CHECK_FALSE(lt_cache_lookup(d).has_value());

  // $FRMINI_TUNE_CACHE=0 turns the cache off, as for the tuner's decisions.
  setenv("FRMINI_TUNE_CACHE", "0", 1);
  CHECK_FALSE(lt_cache_lookup(k).has_value());
  unsetenv("FRMINI_TUNE_CACHE");
}

TEST_CASE("cuBLASLt absent: a one-line reason") {
  std::string why = cublaslt_unavailable({"libcublasLt-frmini-absent.so.13"});
  CHECK_FALSE(why.empty());
  CHECK(why.find('\n') == std::string::npos);
  CHECK(why.find("libcublasLt-frmini-absent.so.13 not found") != std::string::npos);
}

TEST_CASE("cuBLASLt present in the toolkit: opened, symbols resolved, a version") {
  std::size_t version = 0;
  std::string why = cublaslt_unavailable(toolkit_candidates("libcublasLt.so", "13"), &version);
  if (!why.empty()) FRMINI_SKIP("no libcublasLt here: " + why);
  CHECK(version >= 130000);
}

TEST_CASE("cuda without a device: the backend declines in one line") {
  std::string why;
  if (driver_available(&why)) FRMINI_SKIP("a GPU is present: test_matmul_gpu checks the search");
  try {
    auto be = make_backend("cuda");
    FAIL("make_backend(cuda) succeeded without a device");
  } catch (const std::exception& e) {
    std::string msg = e.what();
    CHECK_FALSE(msg.empty());
    CHECK(msg.find('\n') == std::string::npos);
  }
}
