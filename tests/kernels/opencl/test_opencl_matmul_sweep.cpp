// The full operator set on the opencl generated provider: quad, hex, tri, tet x orders 1-6 x
// M0 M3 M6 M132 M460, float and double, n in {1, 31, 33, 1000, 4099} with padded leading
// dimensions and offsets, against the reference provider. Each operator is checked with the
// kernel the provider ranks first (what make_kernel tunes from), beta cycling over {0, 1, 0.5}
// with the order and operator so every operator family meets every beta; alpha = 1 (alpha
// folding is covered by the unit test).
//
// PoCL compiles a small unrolled kernel in 1-3 s on 2 busy cores, but the largest operators
// (hex p5-p6 M132 and M460, thousands of non-zeros) take 10-40 s each, so CI runs a part:
//   [sweep]       operators with at most 3000 non-zeros, each in ONE precision (alternating
//                 with order and operator, so every family meets both)  -> label regression
//   [sweep-full]  every operator in both precisions                      -> label validation
#include <cstdio>
#include <string>
#include <vector>

#include "kernels/opencl/matmul_strategies.hpp"
#include "kernels/opencl/matmul_providers.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/kernels/opencl/opencl_test_support.hpp"

using namespace frmini;
using namespace frmini::kernels;

namespace {

constexpr std::size_t large_nnz = 3000;

void sweep(bool full) {
  auto be = test::opencl::backend_or_skip();
  if (!be) return;
  const std::vector<std::size_t> widths = {1, 31, 33, 1000, 4099};
  const double betas[] = {0.0, 1.0, 0.5};
  int checked = 0;
  for (std::string etype : {"quad", "hex", "tri", "tet"})
    for (int order = 1; order <= 6; ++order) {
      const std::vector<std::string> names = {"M0", "M3", "M6", "M132", "M460"};
      for (std::size_t oi = 0; oi < names.size(); ++oi) {
        auto a = test::opencl::op(etype, order, names[oi]);
        auto an = matmul::analyse(a, 1.0);
        if (!full && an.nnz > large_nnz) continue;
        for (Precision p : {Precision::double_, Precision::single}) {
          if (!full && (std::size_t(order) + oi) % 2 != std::size_t(p == Precision::single)) continue;
          const double beta = betas[(std::size_t(order) + oi + (p == Precision::single)) % 3];
          std::string why;
          auto strategies = opencl::generated_strategies(an, be->info(), p, &why);
          INFO(etype << " p" << order << " " << names[oi] << " " << to_string(p) << " beta "
                     << beta << ": " << why);
          REQUIRE(!strategies.empty());
          auto res = test::opencl::check_kernel(*be, a, 1.0, beta, p, widths, [&](const matmul::Problem& pr) {
            return opencl::make_generated_kernel(*be, pr, strategies.front(), &an);
          });
          for (std::size_t i = 0; i < res.size(); ++i) {
            INFO(res[i].strategy << " n " << widths[i]);
            CHECK(res[i].rel_err <= test::opencl::tolerance(p));
            CHECK(res[i].guards_ok);
          }
          ++checked;
          // Progress (ctest keeps it): which operator a slow or stuck run is on.
          std::printf("checked %s p%d %s %s beta %g: %s\n", etype.c_str(), order,
                      names[oi].c_str(), to_string(p), beta, res[0].strategy.c_str());
          std::fflush(stdout);
        }
      }
    }
  WARN("checked " << checked << " (operator, precision) pairs");
}

}  // namespace

TEST_CASE("opencl generated: full operator set matches the reference", "[sweep]") {
  sweep(false);
}

TEST_CASE("opencl generated: every operator in both precisions", "[sweep-full]") {
  sweep(true);
}
