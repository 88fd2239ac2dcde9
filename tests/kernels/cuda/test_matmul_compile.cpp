// Compile-only checks of the CUDA matmul generator: NVRTC to sm_90 cubin, no GPU needed.
//   unit:       the ptxas report parser, the plan's invariants, every strategy of a few small
//               operators compiling for each beta and precision;
//   [.sweep]:   every strategy of every operator (quad/hex/tri/tet p1-6, M0 M3 M6 M132 M460),
//               float and double, beta 0 (beta 1 and 0.5: all strategies on p1-3, the first on
//               p4-6); writes cuda_resources_<etype>.csv and requires a spill-free candidate for
//               every operator, precision and beta. Run by ctest as the regression tests
//               cuda.matmul.spill_sweep.<etype>.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "kernels/backend.hpp"
#include "kernels/cuda/compiler.hpp"
#include "kernels/cuda/driver.hpp"
#include "kernels/cuda/matmul_plan.hpp"
#include "kernels/cuda/matmul_source.hpp"
#include "kernels/reduce.hpp"
#include "kernels/cuda/resource_table.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/kernels/cuda/operator_set.hpp"

using namespace frmini::kernels;
using frmini::kernels::cuda::ResourceRow;

TEST_CASE("ptxas verbose report is parsed per kernel", "[cuda]") {
  std::string log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'k1' for 'sm_90'\n"
      "ptxas info    : Function properties for k1\n"
      "ptxas         .     24 bytes stack frame, 16 bytes spill stores, 8 bytes spill loads\n"
      "ptxas info    : Used 255 registers, used 1 barriers, 12288 bytes smem\n"
      "ptxas info    : Compiling entry function 'k2' for 'sm_90'\n"
      "ptxas info    : Function properties for k2\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 40 registers, used 0 barriers\n";
  auto r = cuda::parse_ptxas_log(log);
  REQUIRE(r.size() == 2);
  CHECK(r["k1"].registers == 255);
  CHECK(r["k1"].spill_stores == 16);
  CHECK(r["k1"].spill_loads == 8);
  CHECK(r["k1"].stack_frame == 24);
  CHECK(r["k1"].shared == 12288);
  CHECK(r["k1"].spills());
  CHECK(r["k2"].registers == 40);
  CHECK_FALSE(r["k2"].spills());
}

TEST_CASE("without a driver the cuda backend is a clear user error", "[cuda]") {
  std::string why;
  if (cuda::driver_available(&why)) FRMINI_SKIP("a CUDA device is present: no missing driver to report");
  try {
    make_backend("cuda");
    FAIL("make_backend(\"cuda\") succeeded without a driver");
  } catch (const frmini::UserError& e) {
    CHECK(std::string(e.what()).rfind("cuda: no CUDA driver/GPU found (", 0) == 0);
  }
}

TEST_CASE("register budget partition bounds the live accumulators", "[cuda]") {
  auto ops = frmini::tests::cuda_operator_set(6, 6);
  for (auto& op : ops) {
    auto a = matmul::analyse(op.a, 1.0);
    for (std::size_t limit : {8, 25, 52}) {
      auto parts = cuda::budget_partition(a, limit);
      std::set<std::size_t> seen;
      for (auto& p : parts) {
        CHECK(cuda::max_live_accumulators(a, p) <= limit);
        for (auto j : p) CHECK(seen.insert(j).second);
      }
      CHECK(seen.size() == a.m);  // every row exactly once
    }
  }
}

TEST_CASE("plan offers a strategy predicted to fit the register budget", "[cuda]") {
  for (auto& op : frmini::tests::cuda_operator_set()) {
    auto a = matmul::analyse(op.a, 1.0);
    for (auto p : {Precision::single, Precision::double_}) {
      auto s = cuda::plan(a, p);
      INFO(op.name);
      REQUIRE(!s.empty());
      CHECK(s.front().est_regs <= 255);
    }
  }
}

TEST_CASE("every strategy of small operators compiles for sm_90", "[cuda]") {
  // hex p1 and tet p2 (sparse and dense), to keep this a quick unit test; the sweep below
  // covers everything.
  std::vector<cuda::NamedOperator> ops;
  for (auto& op : frmini::tests::cuda_operator_set(1, 2))
    if (op.name.rfind("hex-p1-", 0) == 0 || op.name.rfind("tet-p2-", 0) == 0) ops.push_back(op);
  // Zero rows and columns, and an all-zero operator, exercise the beta special cases.
  matmul::HostMatrix z{5, 4, std::vector<double>(20, 0.0)};
  z(1, 2) = 0.5;
  z(3, 0) = -2.0;
  ops.push_back({"zero-rows", z});
  ops.push_back({"all-zero", matmul::HostMatrix{3, 3, std::vector<double>(9, 0.0)}});
  cuda::TableOptions o;
  o.ld = 1000;
  auto rows = cuda::resource_table(ops, {Precision::single, Precision::double_}, {0.0, 1.0, 0.5}, o);
  CHECK(rows.size() > ops.size() * 6);
  for (auto& r : rows) {
    INFO(r.op << " " << r.strategy);
    CHECK(r.res.registers > 0);
    CHECK(r.spill_free());
  }
}

TEST_CASE("NVRTC resource report agrees with nvcc -cubin -Xptxas -v", "[cuda]") {
  const char* nvcc = "/usr/local/cuda/bin/nvcc";
  if (!std::ifstream(nvcc)) {
    FRMINI_SKIP("no nvcc at " << nvcc);
  }
  auto ops = frmini::tests::cuda_operator_set(3, 3);
  auto a = matmul::analyse(ops[5].a, 1.0);  // hex p3 M0
  auto s = cuda::plan(a, Precision::double_).front();
  cuda::SourceParams sp{Precision::double_, 0.0, 50048, 50048, "frmini_mm"};
  std::string src = cuda::matmul_source(a, s, sp);
  auto r = cuda::Compiler::instance()
               .compile_cubin(src, 90, s.nvrtc_flags, false)
               .resources["frmini_mm"];
  auto dir = std::filesystem::temp_directory_path() / ("frmini-nvcc-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "k.cu") << src;
  std::string extra;
  for (auto& f : s.nvrtc_flags) extra += " " + f;  // -Xptxas=... means the same to nvcc
  std::string cmd = std::string(nvcc) + " -arch=sm_90 -cubin -Xptxas -v" + extra + " -o " +
                    (dir / "k.cubin").string() + " " + (dir / "k.cu").string() + " > " +
                    (dir / "log").string() + " 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::ifstream in(dir / "log");
  std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto n = cuda::parse_ptxas_log(log)["frmini_mm"];
  std::filesystem::remove_all(dir);
  CHECK(n.registers == r.registers);
  CHECK(n.spill_stores == r.spill_stores);
  CHECK(n.stack_frame == r.stack_frame);
}

// --- the full sweep ---------------------------------------------------------------------------
// One case per element type, so ctest runs them as separate regression tests
// (cuda.matmul.spill_sweep.<etype>): beta 0 with every strategy in float and double; beta 1
// and 0.5 with every strategy for p1-3 and the first strategy for p4-6 (beta changes only the
// stores, and compiling all would take hours on 2 cores).

namespace {

void sweep(const std::string& etype) {
  std::vector<cuda::NamedOperator> low, all;
  for (auto& op : frmini::tests::cuda_operator_set())
    if (op.name.rfind(etype + "-", 0) == 0) {
      all.push_back(op);
      int p = op.name[etype.size() + 2] - '0';
      if (p <= 3) low.push_back(op);
    }
  std::vector<Precision> precs{Precision::single, Precision::double_};
  cuda::TableOptions every, first;
  first.first_only = true;
  auto rows = cuda::resource_table(all, precs, {0.0}, every);
  auto more = cuda::resource_table(low, precs, {1.0, 0.5}, every);
  auto firsts = cuda::resource_table(all, precs, {1.0, 0.5}, first);
  rows.insert(rows.end(), more.begin(), more.end());
  for (auto& r : firsts)
    if (std::find_if(low.begin(), low.end(), [&](auto& o) { return o.name == r.op; }) ==
        low.end())
      rows.push_back(r);

  const char* out = std::getenv("FRMINI_CUDA_RESOURCES_DIR");
  std::filesystem::path path = std::filesystem::path(out && *out ? out : ".") /
                               ("cuda_resources_" + etype + ".csv");
  std::ofstream(path) << cuda::to_csv(rows);
  std::cout << "wrote " << rows.size() << " kernels to " << path.string() << "\n";

  // Per (operator, precision, beta): the best (fewest spill bytes) candidate.
  std::map<std::string, const ResourceRow*> best;
  for (auto& r : rows) {
    std::string key = r.op + " " + to_string(r.precision) + " beta=" + std::to_string(r.beta);
    auto& b = best[key];
    if (!b || r.res.spill_stores + r.res.spill_loads < b->res.spill_stores + b->res.spill_loads)
      b = &r;
  }
  std::size_t free = 0;
  for (auto& [key, r] : best) {
    INFO(key << ": best " << r->strategy << " spills " << r->res.spill_stores);
    CHECK(r->spill_free());
    free += r->spill_free();
  }
  std::cout << etype << ": " << free << " of " << best.size()
            << " (operator, precision, beta) have a spill-free candidate\n";
}

}  // namespace

TEST_CASE("the device reduction kernel compiles for sm_90", "[cuda]") {
  auto& nvrtc = cuda::Compiler::instance();
  for (auto p : {Precision::double_, Precision::single}) {
    INFO(to_string(p));
    auto r = nvrtc.compile_cubin(reduce_source(pointwise::cuda_dialect(), p), 90);
    CHECK(!r.cubin.empty());
  }
}

TEST_CASE("sweep quad", "[.][sweep]") { sweep("quad"); }
TEST_CASE("sweep hex", "[.][sweep]") { sweep("hex"); }
TEST_CASE("sweep tri", "[.][sweep]") { sweep("tri"); }
TEST_CASE("sweep tet", "[.][sweep]") { sweep("tet"); }
