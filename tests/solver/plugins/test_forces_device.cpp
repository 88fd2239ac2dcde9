// The forces' surface integral on the device (DeviceSurfaceForce, physics::wall_force) against
// the host's (surface_force on the downloaded solution): the same pressure and viscous forces
// to round-off on cpu and opencl, in both precisions, on the 2D (quads and triangles) and 3D
// cylinders, Euler and Navier-Stokes, with the flux points where the run has them (surface-flux
// anti-aliasing moves them), whichever register holds the solution.
#include <cmath>

#include "kernels/backend.hpp"
#include "solver/plugins/forces.hpp"
#include "solver/plugins/forces_device.hpp"
#include "solver/system/system.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/support/backends.hpp"
#include "tests/support/generated_mesh.hpp"

using namespace frmini;

namespace {

// A valid state that varies from point to point, so the pressure and the gradients at the
// wall differ everywhere and a wrong row, weight or normal shows.
std::vector<std::vector<double>> pattern(const solver::System& sys, int k) {
  return sys.host_field([&](const double* x, double* u) {
    const int nd = sys.ndims();
    const double s = std::sin(1.3 * x[0] + 0.7 * x[1] + 0.4 * x[2] + k);
    const double c = std::cos(0.9 * x[0] - 1.1 * x[1] + 0.6 * x[2] * x[0] + k);
    u[0] = 1.0 + 0.2 * s;
    for (int d = 0; d < nd; ++d) u[1 + d] = u[0] * (0.3 * c + 0.1 * d * s);
    u[nd + 1] = 2.5 + 0.3 * s * c;
  });
}

double max_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

}  // namespace

TEST_CASE("forces on the device equal the host's surface integral") {
  struct Variant {
    std::string mesh, system;
    bool mixed, surf;
  };
  const std::vector<Variant> variants = {{"cylinder2d", "navier-stokes", true, false},
                                         {"cylinder2d", "euler", true, false},
                                         {"cylinder2d", "navier-stokes", false, true},
                                         {"cylinder3d", "navier-stokes", false, false}};
  for (const auto& var : variants)
    for (const auto& bname : test::cpu_and_opencl())
      for (auto prec : {kernels::Precision::double_, kernels::Precision::single}) {
        const bool dbl = prec == kernels::Precision::double_;
        INFO(var.mesh << (var.mixed ? " mixed " : " ") << var.system << (var.surf ? " surf-flux" : "")
                      << " on " << bname << (dbl ? " double" : " single"));
        const auto& mesh = test::generated_mesh(var.mesh, var.mixed);
        auto be = kernels::make_backend(bname);
        solver::SystemConfig cfg;
        cfg.phys.system = var.system;
        cfg.phys.ndims = mesh.ndims;
        cfg.phys.mu = 0.05;
        cfg.order = 2;
        cfg.precision = prec;
        cfg.nregs = 2;
        cfg.antialias_surf = var.surf;
        const std::map<std::string, std::string> fs = {
            {"rho", "1.0"}, {"u", "0.3"}, {"v", "0.0"}, {"w", "0.0"}, {"p", "1.0"}};
        cfg.bcs["farfield"] = {"char-riem-inv", fs};
        cfg.bcs["cylinder"] = {var.system == "euler" ? "slp-adia-wall" : "no-slp-adia-wall", {}};
        solver::System sys(*be, mesh, cfg);
        solver::DeviceSurfaceForce dev(sys, "cylinder");
        for (int reg : {1, 0, 1}) {
          sys.upload_solution(reg, pattern(sys, reg));
          const auto host = solver::surface_force(sys, sys.download_solution(reg), "cylinder");
          const auto f = dev.compute(reg);
          double scale = 1e-3;
          for (double x : host.pressure) scale = std::max(scale, std::abs(x));
          for (double x : host.viscous) scale = std::max(scale, std::abs(x));
          // Observed: double 1e-16 of the largest component, single 5e-7.
          const double tol = (dbl ? 1e-12 : 1e-5) * scale;
          CHECK(max_diff(f.pressure, host.pressure) <= tol);
          CHECK(max_diff(f.viscous, host.viscous) <= tol);
          if (var.system == "euler") CHECK(max_diff(f.viscous, std::vector<double>(f.viscous.size(), 0.0)) == 0.0);
          else CHECK(max_diff(host.viscous, std::vector<double>(host.viscous.size(), 0.0)) > 1e3 * tol);
        }
        CHECK(dev.npoints() > 0);
        CHECK_THROWS_AS(solver::DeviceSurfaceForce(sys, "nowhere"), UserError);
      }
}
