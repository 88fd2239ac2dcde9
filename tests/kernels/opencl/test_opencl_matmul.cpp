// The opencl matmul providers against the reference provider.
//
// Unit (this file): EVERY generated strategy (all_strategies: cstream, bstream, msplit,
// ksplit, the width-2 variants, rowloop) on a representative subset: hex p3 M132 (sparse,
// tensor-product), tet p2 M460 (dense), quad p2 M3, and a synthetic matrix with an all-zero
// row and an all-zero column; float and double; beta cycling through {0, 1, 0.5} so each
// strategy meets every beta in both precisions; n in {1, 31, 33, 1000, 4099} with padded
// leading dimensions and offsets. The blas provider (CLBlast) on the same subset with every
// beta. make_kernel with "generated", "blas" and "auto".
// The full operator set is in test_opencl_matmul_sweep.cpp (label regression / validation).
#include <string>
#include <vector>

#include "kernels/matmul/provider.hpp"
#include "kernels/opencl/matmul_strategies.hpp"
#include "kernels/opencl/matmul_providers.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/kernels/opencl/opencl_test_support.hpp"

using namespace frmini;
using namespace frmini::kernels;
using test::opencl::check_kernel;
using test::opencl::tolerance;

namespace {

struct Case {
  std::string name;
  matmul::HostMatrix a;
};

std::vector<Case> subset() {
  std::vector<Case> out;
  out.push_back({"hex-p3-M132", test::opencl::op("hex", 3, "M132")});
  out.push_back({"tet-p2-M460", test::opencl::op("tet", 2, "M460")});
  out.push_back({"quad-p2-M3", test::opencl::op("quad", 2, "M3")});
  matmul::HostMatrix z;  // 7x9, row 2 and column 4 all zeros
  z.rows = 7;
  z.cols = 9;
  z.data.assign(63, 0.0);
  for (std::size_t i = 0; i < 7; ++i)
    for (std::size_t j = 0; j < 9; ++j)
      if (i != 2 && j != 4 && (i + 2 * j) % 3 != 0) z(i, j) = 0.25 * double(i) - 0.5 * double(j) + 0.125;
  out.push_back({"synthetic-zero-row-col", z});
  return out;
}

const std::vector<std::size_t> widths = {1, 31, 33, 1000, 4099};
const double betas[] = {0.0, 1.0, 0.5};

}  // namespace

TEST_CASE("opencl generated: every strategy matches the reference") {
  auto be = test::opencl::backend_or_skip();
  if (!be) return;
  auto cases = subset();
  // Build the reference provider's programs now, so the counts below see only generated ones.
  for (Precision p : {Precision::double_, Precision::single})
    check_kernel(*be, cases[0].a, 1.0, 0.0, p, {1}, [&](const matmul::Problem& pr) {
      return std::move(be->matmul_providers().back()->candidates(pr).front());
    });
  for (std::size_t ci = 0; ci < cases.size(); ++ci) {
    const auto& c = cases[ci];
    for (Precision p : {Precision::double_, Precision::single}) {
      auto an = matmul::analyse(c.a, 1.0);
      auto strategies = opencl::all_strategies(an, be->info(), p);
      REQUIRE(strategies.size() >= 4);
      for (std::size_t si = 0; si < strategies.size(); ++si) {
        const auto& s = strategies[si];
        const double beta = betas[(ci + si + (p == Precision::single)) % 3];
        const double alpha = (si % 2) ? -0.75 : 1.0;
        const int before = be->compile_stats().from_source + be->compile_stats().from_binary;
        auto res = check_kernel(*be, c.a, alpha, beta, p, widths, [&](const matmul::Problem& pr) {
          return opencl::make_generated_kernel(*be, pr, s);
        });
        const int after = be->compile_stats().from_source + be->compile_stats().from_binary;
        for (std::size_t i = 0; i < res.size(); ++i) {
          INFO(c.name << " " << to_string(p) << " " << s.name() << " alpha " << alpha << " beta "
                      << beta << " n " << widths[i]);
          CHECK(res[i].rel_err <= tolerance(p));
          CHECK(res[i].guards_ok);
          CHECK(res[i].strategy == "generated/" + s.name());
        }
        // One program per (operator, alpha, beta, precision, strategy), whatever n is.
        CHECK(after - before <= 1);
      }
    }
  }
}

TEST_CASE("opencl blas (CLBlast) matches the reference") {
  auto be = test::opencl::backend_or_skip();
  if (!be) return;
  std::shared_ptr<matmul::Provider> blas;
  for (auto& pr : be->matmul_providers())
    if (pr->name() == "blas") blas = pr;
  if (!blas) {
    FRMINI_SKIP("this build has no CLBlast");
  }
  for (const auto& c : subset())
    for (Precision p : {Precision::double_, Precision::single})
      for (double beta : betas) {
        auto res = check_kernel(*be, c.a, 1.0, beta, p, widths, [&](const matmul::Problem& pr) {
          auto k = blas->candidates(pr);
          REQUIRE(k.size() == 1);
          return std::move(k[0]);
        });
        for (std::size_t i = 0; i < res.size(); ++i) {
          INFO(c.name << " " << to_string(p) << " beta " << beta << " n " << widths[i]);
          CHECK(res[i].rel_err <= tolerance(p));
          CHECK(res[i].guards_ok);
        }
      }
}

TEST_CASE("opencl make_kernel: generated, blas and auto choose a correct kernel") {
  auto be = test::opencl::backend_or_skip();
  if (!be) return;
  auto a = test::opencl::op("hex", 2, "M0");
  for (std::string mode : {"generated", "blas", "auto"}) {
    bool has = mode != "blas";
    for (auto& pr : be->matmul_providers()) has = has || pr->name() == mode;
    if (!has) continue;
    auto res = check_kernel(*be, a, 1.0, 0.5, Precision::double_, {1000},
                            [&](const matmul::Problem& pr) { return matmul::make_kernel(*be, mode, pr); });
    INFO(mode << " chose " << res[0].strategy);
    CHECK(res[0].rel_err <= 1e-12);
    CHECK(res[0].guards_ok);
    if (mode == "generated") CHECK(res[0].strategy.rfind("generated/", 0) == 0);
  }
}

TEST_CASE("opencl generated: declines only with a reason") {
  auto be = test::opencl::backend_or_skip();
  if (!be) return;
  auto gen = be->matmul_providers().front();
  matmul::Problem p;
  p.a.rows = 1500;
  p.a.cols = 1500;
  p.a.data.assign(p.a.rows * p.a.cols, 1.5);  // dense, 2.25 million non-zeros
  p.n = 10;
  std::string why;
  auto none = gen->candidates(p, &why);
  CHECK(none.empty());
  CHECK(why.find("too large") != std::string::npos);
}
