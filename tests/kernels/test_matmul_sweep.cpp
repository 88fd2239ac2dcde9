// The full correctness matrix: every operator (4 element types x orders 1-6 x 5
// operators) x float/double x beta in {0, 1, 0.5} x n in {1, 31, 33, 1000, 4099}, padded
// leading dimensions and offsets: generated, blas and xsmm (where it accepts) equal the
// reference. One test case per element type and precision, each well under 2 minutes on two
// cores: kernels are compiled once per (operator, beta, precision), n being a run-time
// argument, and cached on disk across runs.
#include <cstdlib>

#include "operators/operators.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/kernels/sweep.hpp"

using namespace frmini;

namespace {
void sweep(const std::string& etype, kernels::Precision prec) {
  setenv("FRMINI_CFLAGS", "-Werror", 1);  // generated C must compile without warnings
  auto be = kernels::make_backend("cpu");
  int checked = 0;
  for (int order = 1; order <= 6; ++order) {
    auto ops = operators::build_operators(etype, order);
    for (const auto& op : operators::solver_operator_names()) {
      const auto& m = operators::get(ops, op);
      kernels::matmul::HostMatrix a{m.rows, m.cols, m.data};
      for (double beta : {0.0, 1.0, 0.5})
        checked += test::sweep_operator(*be, a, etype + "-p" + std::to_string(order) + "-" + op,
                                        prec, beta)
                       .checked;
    }
  }
  REQUIRE(checked > 6 * 5 * 3 * 5);
}
}  // namespace

#define FRMINI_SWEEP(etype)                                                                   \
  TEST_CASE("sweep " #etype " double", "[sweep]") { sweep(#etype, kernels::Precision::double_); } \
  TEST_CASE("sweep " #etype " single", "[sweep]") { sweep(#etype, kernels::Precision::single); }
FRMINI_SWEEP(quad)
FRMINI_SWEEP(tri)
FRMINI_SWEEP(hex)
FRMINI_SWEEP(tet)
