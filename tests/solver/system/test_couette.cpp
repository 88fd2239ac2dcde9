// Compressible Couette flow (PyFR's 2d-couette-flow case):
// isothermal walls at y = 0 (at rest) and y = 1 (moving at Uw), periodic in x. The exact
// steady solution is polynomial (T quadratic in y), so starting from it the p = 3 scheme must
// hold it to near round-off: this checks the viscous fluxes, LDG and the isothermal-wall BC.
#include <cmath>
#include <cstdlib>

#include "kernels/backend.hpp"
#include "solver/integrators/integrator.hpp"
#include "solver/plugins/forces.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/support/box_mesh.hpp"

using namespace frmini;

namespace {

const double kGamma = 1.4, mu = 0.417, pr = 0.72, cp = 1005.0, uw = 70.0, pc = 1e5, tw = 300.0;

std::vector<double> exact(double y) {
  const double rgas = cp * (kGamma - 1) / kGamma;
  double t = tw + pr * uw * uw / (2 * cp) * y * (1 - y);
  double rho = pc / (rgas * t), u = uw * y;
  return std::vector<double>{rho, rho * u, 0.0, pc / (kGamma - 1) + 0.5 * rho * u * u};
}

// The channel [-1, 1] x [0, 1] (periodic in x, isothermal walls), p = 3, 4 x 4 quads.
std::unique_ptr<solver::System> couette_system(kernels::Backend& be, const meshes::Mesh& mesh,
                                               const solver::IntegratorOptions& io) {
  solver::SystemConfig cfg;
  cfg.phys.system = "navier-stokes";
  cfg.phys.ndims = 2;
  cfg.phys.gamma = kGamma;
  cfg.phys.mu = mu;
  cfg.phys.pr = pr;
  cfg.order = 3;
  cfg.matmul = "generated";
  char cptw[64];
  std::snprintf(cptw, sizeof cptw, "%.17g", cp * tw);
  cfg.bcs["bottom"] = {"no-slp-isot-wall", {{"u", "0.0"}, {"v", "0.0"}, {"w", "0.0"}, {"cpTw", cptw}}};
  cfg.bcs["top"] = {"no-slp-isot-wall", {{"u", "70.0"}, {"v", "0.0"}, {"w", "0.0"}, {"cpTw", cptw}}};
  cfg.nregs = solver::Integrator::registers(io);
  return std::make_unique<solver::System>(be, mesh, cfg);
}

meshes::Mesh couette_mesh() {
  return test::make_box("quad", 4, 0, 1, {true, false, false}, 1, [](std::array<double, 3> x) {
    return std::array<double, 3>{2 * x[0] - 1, x[1], 0};
  });
}

// The case both tests run: the backend, the mesh and the integrator settings the system is
// built for (the system refers to the first two, so they live beside it).
struct Couette {
  std::unique_ptr<kernels::Backend> be = kernels::make_backend("cpu");
  meshes::Mesh mesh = couette_mesh();
  solver::IntegratorOptions io = [] {
    solver::IntegratorOptions o;
    o.dt = 1e-5;
    return o;
  }();
  std::unique_ptr<solver::System> sys = couette_system(*be, mesh, io);
};

std::vector<std::vector<double>> exact_solution(const solver::System& sys) {
  const auto& l = sys.layout()[0];
  const auto& geo = sys.geometry()[0];
  std::vector<double> u(std::size_t(l.neles) * 4 * l.nupts);
  for (int64_t e = 0; e < l.neles; ++e)
    for (int i = 0; i < l.nupts; ++i) {
      auto c = exact(geo.ploc_upts[(i * 2 + 1) * l.neles + e]);
      for (int v = 0; v < 4; ++v) u[(e * 4 + v) * l.nupts + i] = c[v];
    }
  return {u};
}

}  // namespace

TEST_CASE("Couette flow stays exact to 1e-8 at p = 3") {
  Couette c;
  auto& sys = *c.sys;
  const auto& io = c.io;
  auto s = exact_solution(sys);
  const auto& u = s[0];
  const auto& l = sys.layout()[0];
  auto intg = solver::Integrator::make(sys, io, {});
  sys.upload_solution(intg->current(), s);
  intg->advance_to(std::getenv("COUETTE_T") ? std::atof(std::getenv("COUETTE_T")) : 2e-3);
  auto r = sys.download_solution(intg->current());
  double err = 0;
  for (std::size_t k = 0; k < u.size(); ++k) {
    const int v = int((k / l.nupts) % 4);
    const double scale = v == 0 ? 1.0 : v == 3 ? pc / (kGamma - 1) : uw;  // relative to each variable
    err = std::max(err, std::abs(r[0][k] - u[k]) / scale);
  }
  INFO("max relative deviation from the exact solution: " << err);
  CHECK(err <= 1e-8);
  CHECK(intg->state().nsteps == 200);
}

TEST_CASE("forces on the Couette walls: pressure p L, wall shear mu Uw L") {
  // Width L = 2, p = 1e5 throughout, tau_xy = mu Uw (du/dy = Uw). On the bottom wall the
  // outward normal is -y: F_p = (0, -p L), F_v = (+tau_xy L, 0); on the top wall the opposite.
  Couette c;
  const auto& sys = c.sys;
  const auto s = exact_solution(*sys);
  const double L = 2, tau = mu * uw;
  auto bot = solver::surface_force(*sys, s, "bottom"), top = solver::surface_force(*sys, s, "top");
  CHECK(std::abs(bot.pressure[0]) < 1e-6 * pc);
  CHECK(std::abs(bot.pressure[1] + pc * L) < 1e-8 * pc * L);
  CHECK(std::abs(top.pressure[1] - pc * L) < 1e-8 * pc * L);
  CHECK(std::abs(bot.viscous[0] - tau * L) < 1e-6 * tau * L);
  CHECK(std::abs(top.viscous[0] + tau * L) < 1e-6 * tau * L);
  CHECK(std::abs(bot.viscous[1]) < 1e-6 * tau * L);
  CHECK_THROWS_WITH(solver::surface_force(*sys, s, "inlet"),
                    Catch::Matchers::Contains("no boundary 'inlet'"));
}

