// The integrals plugin's quantities against exact integrals on a periodic quad box [0, 2]^2:
// totals of a smooth field, and the residual norm of a known rate of change.
#include <cmath>

#include "kernels/backend.hpp"
#include "solver/plugins/integrals.hpp"
#include "solver/system/system.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/support/box_mesh.hpp"

using namespace frmini;

namespace {

// u_v(x, y) = f(v, x, y) at every solution point, in download_solution's layout.
template <class F>
std::vector<std::vector<double>> field(const solver::System& sys, F f) {
  const int nv = sys.nvars();
  return sys.host_field([&](const double* x, double* u) {
    for (int v = 0; v < nv; ++v) u[v] = f(v, x[0], x[1]);
  });
}

}  // namespace

TEST_CASE("integrals: totals and residual norms equal their exact integrals") {
  auto be = kernels::make_backend("cpu");
  auto mesh = test::make_box("quad", 8, 0.0, 2.0, {true, true, false}, 1);
  solver::SystemConfig cfg;
  cfg.phys.system = "euler";
  cfg.phys.ndims = 2;
  cfg.order = 4;
  cfg.nregs = 1;
  solver::System sys(*be, mesh, cfg);
  const auto w = solver::group_weights(sys);

  // Totals: integral of 1 + x y^2 over [0, 2]^2 = 4 + 16/3; of v itself: 4 v.
  auto u = field(sys, [](int v, double x, double y) { return v == 0 ? 1 + x * y * y : double(v); });
  auto tot = solver::integrate_solution(sys, u, w);
  CHECK(std::abs(tot[0] - (4 + 16.0 / 3)) < 1e-12);
  CHECK(std::abs(tot[2] - 8.0) < 1e-12);

  // Residuals: cur - prev = dt * g, g_0 = sin(pi x) cos(pi y), whose mean square over the
  // box is 1/4 (RMS 1/2); g_1 = 3 (RMS 3); g_2 = 0. A wrong weight, volume or dt shows.
  const double dt = 1e-3;
  auto cur = field(sys, [&](int v, double x, double y) {
    const double g = v == 0 ? std::sin(M_PI * x) * std::cos(M_PI * y) : v == 1 ? 3.0 : 0.0;
    return 1 + x * y * y + dt * g;
  });
  auto prev = field(sys, [](int, double x, double y) { return 1 + x * y * y; });
  auto r = solver::residual_norms(sys, prev, cur, dt, w);
  CHECK(std::abs(r[0] - 0.5) < 1e-6);
  CHECK(std::abs(r[1] - 3.0) < 1e-9);
  CHECK(r[2] < 1e-9);
}
