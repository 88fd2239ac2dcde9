// The opencl backend itself: device selection errors, memory, the program-binary cache, build
// errors, timing, bandwidth probe and the providers it offers.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "base/error.hpp"
#include "kernels/cache.hpp"
#include "kernels/opencl/backend.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/kernels/opencl/opencl_test_support.hpp"

using namespace frmini;
using namespace frmini::kernels;
namespace fs = std::filesystem;

TEST_CASE("opencl: unknown platform and device index are user errors") {
  auto be = test::opencl::backend_or_skip();
  if (!be) return;
  BackendOptions o;
  o.platform = "no-such-platform-xyz";
  REQUIRE_THROWS_AS(opencl::OpenCLBackend(o), UserError);
  REQUIRE_THROWS_WITH(opencl::OpenCLBackend(o), Catch::Matchers::Contains("no platform"));
  o.platform = "";
  o.device = 99;
  REQUIRE_THROWS_WITH(opencl::OpenCLBackend(o), Catch::Matchers::Contains("out of range"));
  // make_backend reaches the same factory.
  REQUIRE(make_backend("opencl")->name() == "opencl");
}

TEST_CASE("opencl: buffers are zeroed, and upload, download and copy honour offsets") {
  auto be = test::opencl::backend_or_skip();
  if (!be) return;
  auto a = be->alloc(64), b = be->alloc(64);
  std::vector<unsigned char> h(64, 7);
  be->download(h.data(), *a, 0, 64);
  for (auto x : h) REQUIRE(x == 0);
  std::vector<double> v = {1, 2, 3, 4};
  be->upload(*a, 8, v.data(), 32);
  be->copy(*b, 16, *a, 8, 32);
  std::vector<double> w(8, -1);
  be->download(w.data(), *b, 0, 64);
  REQUIRE(w == std::vector<double>{0, 0, 1, 2, 3, 4, 0, 0});
  REQUIRE(be->alloc(0)->bytes() == 0);  // empty panels are legal
  REQUIRE(be->alignment() >= 4);
  REQUIRE(be->soa_width(Precision::double_) >= 1);
  REQUIRE(be->soa_width(Precision::single) >= be->soa_width(Precision::double_));
}

TEST_CASE("opencl: program binaries are cached on disk and reloaded") {
  auto probe = test::opencl::backend_or_skip();
  if (!probe) return;
  probe.reset();
  // A private, empty cache so the first build is certainly from source.
  const char* old = std::getenv("FRMINI_CACHE_DIR");
  std::string saved = old ? old : "";
  fs::path dir = fs::temp_directory_path() / ("frmini-ocl-cache-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  setenv("FRMINI_CACHE_DIR", dir.c_str(), 1);

  const std::string src =
      "__kernel void twice(__global float* x) { size_t i = get_global_id(0); x[i] *= 2.0f; }\n";
  auto run_twice = [&](opencl::OpenCLBackend& be, std::shared_ptr<Module> m) {
    auto buf = be.alloc(4 * sizeof(float));
    float h[4] = {1, 2, 3, 4};
    be.upload(*buf, 0, h, sizeof h);
    opencl::KernelHandle k(m, "twice");
    k.arg(0, opencl::mem_of(*buf));
    be.launch(k, 4, 0);
    be.download(h, *buf, 0, sizeof h);
    return h[3];
  };
  {
    opencl::OpenCLBackend be({});
    auto m = be.compile(src, {"-cl-std=CL1.2"});
    REQUIRE(be.compile_stats().from_source == 1);
    REQUIRE(run_twice(be, m) == 8.0f);
    auto m2 = be.compile(src, {"-cl-std=CL1.2"});  // same process: the same module
    REQUIRE(m2 == m);
    REQUIRE(be.compile_stats().from_memory == 1);
  }
  std::vector<fs::path> bins;
  for (const auto& e : fs::directory_iterator(dir / "opencl")) bins.push_back(e.path());
  REQUIRE(bins.size() == 1);
  {
    opencl::OpenCLBackend be({});
    auto m = be.compile(src, {"-cl-std=CL1.2"});
    CHECK(be.compile_stats().from_binary == 1);
    CHECK(be.compile_stats().from_source == 0);
    REQUIRE(run_twice(be, m) == 8.0f);
    // Other flags are another program.
    be.compile(src, {"-cl-std=CL1.2", "-cl-fast-relaxed-math"});
    CHECK(be.compile_stats().from_source == 1);
  }
  {
    std::ofstream(bins[0], std::ios::binary | std::ios::trunc) << "garbage, not a binary";
    opencl::OpenCLBackend be({});
    auto m = be.compile(src, {"-cl-std=CL1.2"});
    CHECK(be.compile_stats().binary_rejected == 1);
    CHECK(be.compile_stats().from_source == 1);
    REQUIRE(run_twice(be, m) == 8.0f);
  }
  fs::remove_all(dir);
  if (old)
    setenv("FRMINI_CACHE_DIR", saved.c_str(), 1);
  else
    unsetenv("FRMINI_CACHE_DIR");
}

TEST_CASE("opencl: a build error is an internal error carrying the build log") {
  auto be = test::opencl::backend_or_skip();
  if (!be) return;
  try {
    be->compile("__kernel void broken(__global float* x) { x[0] = undeclared_name; }\n");
    FAIL("compile did not throw");
  } catch (const UserError&) {
    FAIL("a build error must not be a user error");
  } catch (const std::runtime_error& e) {
    std::string what = e.what();
    CHECK(what.find("clBuildProgram") != std::string::npos);
    CHECK(what.find("undeclared_name") != std::string::npos);  // from the log or the source
  }
}

TEST_CASE("opencl: time_runs times each run with device events") {
  auto be = test::opencl::backend_or_skip();
  if (!be) return;
  auto m = be->compile(
      "__kernel void inc(__global float* x) { size_t i = get_global_id(0); x[i] += 1.0f; }\n");
  auto buf = be->alloc(1 << 20);
  opencl::KernelHandle k(m, "inc");
  k.arg(0, opencl::mem_of(*buf));
  int calls = 0;
  auto t = be->time_runs([&] { be->launch(k, (1 << 18), 64); ++calls; }, 2, 5);
  REQUIRE(t.size() == 5);
  REQUIRE(calls == 7);
  for (double s : t) {
    CHECK(s > 0);
    CHECK(s < 10);
  }
  float x = 0;
  be->download(&x, *buf, 0, sizeof x);
  REQUIRE(x == 7.0f);
  // Work that leaves no kernel events (a copy) is timed between markers.
  auto other = be->alloc(1 << 20);
  auto tc = be->time_runs([&] { be->copy(*other, 0, *buf, 0, 1 << 20); }, 1, 3);
  REQUIRE(tc.size() == 3);
  for (double s : tc) CHECK(s >= 0);
}

TEST_CASE("opencl: bandwidth probe is measured once and cached") {
  auto be = test::opencl::backend_or_skip();
  if (!be) return;
  const Bandwidth& bw = be->bandwidth();
  REQUIRE(bw.copy_gbs > 0);
  REQUIRE(bw.triad_gbs > 0);
  opencl::OpenCLBackend again({});
  REQUIRE(again.bandwidth().copy_gbs == Approx(bw.copy_gbs).epsilon(1e-5));
  INFO("copy " << bw.copy_gbs << " GB/s, triad " << bw.triad_gbs << " GB/s");
}

TEST_CASE("opencl: matmul providers, generated first and reference last") {
  auto be = test::opencl::backend_or_skip();
  if (!be) return;
  auto ps = be->matmul_providers();
  REQUIRE(ps.size() >= 2);
  CHECK(ps.front()->name() == "generated");
  CHECK(ps.back()->name() == "reference");
#ifdef FRMINI_TEST_HAVE_CLBLAST
  REQUIRE(ps.size() == 3);
  CHECK(ps[1]->name() == "blas");
#else
  CHECK(ps.size() == 2);
#endif
}
