// The cpu backend: memory, compilation and its disk cache, timing, the bandwidth probe.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "kernels/cpu/backend.hpp"
#include "kernels/cpu/compiler.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/support/temp_cache.hpp"

using namespace frmini::kernels;
using frmini::test::TempCache;

TEST_CASE("cpu backend: buffers are aligned, zeroed, and copies are exact", "[cpu]") {
  TempCache tc;
  auto be = make_backend("cpu");
  REQUIRE(be->name() == "cpu");
  REQUIRE(be->alignment() >= 64);
  REQUIRE(be->soa_width(Precision::double_) >= 2);
  REQUIRE(be->soa_width(Precision::single) == 2 * be->soa_width(Precision::double_));
  REQUIRE(be->last_level_cache_bytes() > 0);
  for (std::size_t bytes : {std::size_t(1), std::size_t(1000), std::size_t(5u << 20)}) {
    auto b = be->alloc(bytes);
    REQUIRE(b->bytes() == bytes);
    auto p = reinterpret_cast<std::uintptr_t>(cpu::host_ptr(*b));
    REQUIRE(p % be->alignment() == 0);
    std::vector<unsigned char> h(bytes, 0xff);
    be->download(h.data(), *b, 0, bytes);
    REQUIRE(std::all_of(h.begin(), h.end(), [](unsigned char x) { return x == 0; }));
  }
  auto a = be->alloc(64), b = be->alloc(64);
  double src[4] = {1, 2, 3, 4}, dst[4] = {};
  be->upload(*a, 8, src, sizeof src);
  be->copy(*b, 0, *a, 8, sizeof src);
  be->download(dst, *b, 0, sizeof dst);
  REQUIRE(dst[3] == 4.0);
}

TEST_CASE("cpu backend: compile, cache hit, corrupted object rebuilt, errors carry the log",
          "[cpu]") {
  TempCache tc;
  cpu::CpuBackend be(BackendOptions{});
  const std::string src = "int frmini_answer(void) { return 42; }\n";
  std::string path;
  {
    auto m = be.compile_c(src);
    auto f = reinterpret_cast<int (*)()>(m->symbol("frmini_answer"));
    REQUIRE(f() == 42);
    path = m->path();
    REQUIRE(be.compiler().stats().compiled == 1);
  }
  {
    // A second backend (a second run) finds the object on disk.
    cpu::CpuBackend be2(BackendOptions{});
    auto m = be2.compile_c(src);
    REQUIRE(be2.compiler().stats().compiled == 0);
    REQUIRE(be2.compiler().stats().disk_hits == 1);
  }
  {
    // Corrupt the cached object: it is rebuilt, not loaded.
    std::ofstream(path, std::ios::binary | std::ios::trunc) << "not an ELF file";
    cpu::CpuBackend be3(BackendOptions{});
    auto m = be3.compile_c(src);
    REQUIRE(be3.compiler().stats().rebuilt == 1);
    REQUIRE(be3.compiler().stats().compiled == 1);
    auto f = reinterpret_cast<int (*)()>(m->symbol("frmini_answer"));
    REQUIRE(f() == 42);
  }
  // Different flags are a different object.
  REQUIRE(be.compiler().cached_object_path(src, {"-DX=1"}) != be.compiler().cached_object_path(src, {}));
  // A compile error is an internal error carrying the compiler's message.
  try {
    be.compile_c("int broken(void) { return undeclared_thing; }\n");
    FAIL("expected a compile error");
  } catch (const frmini::UserError&) {
    FAIL("a compile error must not be a user error");
  } catch (const std::runtime_error& e) {
    REQUIRE(std::string(e.what()).find("undeclared_thing") != std::string::npos);
  }
  REQUIRE_THROWS(be.compile_c(src)->symbol("no_such_symbol"));
}

TEST_CASE("cpu backend: compiler-specific flags only where the compiler takes them", "[cpu]") {
  using frmini::kernels::cpu::accepted_flags;
  const std::vector<std::string> good{"-O2", "-fno-math-errno"};
  REQUIRE(accepted_flags(good) == good);
  REQUIRE(accepted_flags({"-O2", "-fno-such-option-frmini"}).empty());
  // clang rejects GCC's scheduling options, which the pointwise kernels ask for: with clang as
  // $FRMINI_CC they are left out rather than failing every kernel's compilation.
  if (std::system("command -v clang > /dev/null 2>&1") != 0) {
    FRMINI_SKIP("clang is not installed (the FRMINI_CC=clang case)");
  }
  const char* old = std::getenv("FRMINI_CC");
  const std::string saved = old ? old : "";
  setenv("FRMINI_CC", "clang", 1);
  const auto clang_takes = accepted_flags({"-fschedule-insns", "-fsched-pressure"});
  const auto clang_basic = accepted_flags(good);
  if (old) setenv("FRMINI_CC", saved.c_str(), 1);
  else unsetenv("FRMINI_CC");
  CHECK(clang_takes.empty());
  CHECK(clang_basic == good);
}

TEST_CASE("cpu backend: time_runs and the bandwidth probe (cached)", "[cpu]") {
  TempCache tc;
  auto be = make_backend("cpu");
  int calls = 0;
  auto t = be->time_runs([&] { ++calls; }, 2, 5);
  REQUIRE(t.size() == 5);
  REQUIRE(calls == 7);
  const auto& bw = be->bandwidth();
  REQUIRE(bw.copy_gbs > 0.1);
  REQUIRE(bw.triad_gbs > 0.1);
  // A second backend reads the cache instead of measuring again (same figures).
  auto be2 = make_backend("cpu");
  REQUIRE(be2->bandwidth().triad_gbs == Approx(bw.triad_gbs).epsilon(1e-5));
}

TEST_CASE("cpu backend: subnormal numbers flushed to zero on every thread, or kept", "[cpu]") {
  TempCache tc;
  // Each thread of a parallel region, and the calling thread alone: a product whose result is
  // subnormal (FTZ), and a subnormal input times 2 (DAZ), in both precisions.
  const std::string src = R"(#include <omp.h>
void frmini_tiny(float a, float b, float c, double x, double y, double z, int* nonzero) {
#pragma omp parallel
  {
    volatile float fa = a, fb = b, fc = c;
    volatile double dx = x, dy = y, dz = z;
    const float f1 = fa * fb, f2 = fc * 2.0f;
    const double d1 = dx * dy, d2 = dz * 2.0;
    nonzero[omp_get_thread_num()] = (f1 != 0) + (f2 != 0) + (d1 != 0) + (d2 != 0);
  }
  volatile float fa = a, fb = b;
  nonzero[omp_get_max_threads()] = (fa * fb != 0);
}
)";
  using Fn = void (*)(float, float, float, double, double, double, int*);
  for (bool flush : {true, false}) {
    BackendOptions o;
    o.flush_denormals = flush;
    cpu::CpuBackend be(o);
    auto m = be.compile_c(src);
    auto f = reinterpret_cast<Fn>(m->symbol("frmini_tiny"));
    std::vector<int> nonzero(std::size_t(be.threads()) + 1, -1);
    f(1e-30f, 1e-10f, 1e-40f, 1e-300, 1e-10, 1e-310, nonzero.data());
    INFO("flush " << flush << ", threads " << be.threads());
    for (std::size_t t = 0; t + 1 < nonzero.size(); ++t) CHECK(nonzero[t] == (flush ? 0 : 4));
    CHECK(nonzero.back() == (flush ? 0 : 1));
  }
  cpu::CpuBackend restored{BackendOptions{}};  // the default for the tests after this one
}
