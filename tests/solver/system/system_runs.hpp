// Shared by the System's tests (test_system.cpp, test_antialias.cpp): uniform states, solution
// differences, the isentropic vortex advanced on a curved periodic quad mesh, and the
// free-stream check on a mesh with boundaries.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "solver/integrators/integrator.hpp"
#include "solver/plugins/integrals.hpp"
#include "solver/system/system.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/solver/system/vortex.hpp"
#include "tests/support/box_mesh.hpp"

namespace frmini::test {

// Every solution point of `sys` at the primitive state (rho, u, v[, w], p), gamma = 1.4.
inline std::vector<std::vector<double>> uniform(const solver::System& sys, std::vector<double> prim) {
  const int nd = sys.ndims(), nv = sys.nvars();
  std::vector<double> u(nv);
  double vv = 0;
  u[0] = prim[0];
  for (int i = 0; i < nd; ++i) {
    u[i + 1] = prim[0] * prim[i + 1];
    vv += prim[i + 1] * prim[i + 1];
  }
  u[nv - 1] = prim[nd + 1] / 0.4 + 0.5 * prim[0] * vv;
  std::vector<std::vector<double>> s;
  for (const auto& l : sys.layout()) {
    std::vector<double> g(std::size_t(l.neles) * nv * l.nupts);
    for (int64_t e = 0; e < l.neles; ++e)
      for (int v = 0; v < nv; ++v)
        for (int i = 0; i < l.nupts; ++i) g[(std::size_t(e) * nv + v) * l.nupts + i] = u[v];
    s.push_back(g);
  }
  return s;
}

// The largest |a - b| over two solutions of the same layout.
inline double max_diff(const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& b) {
  double d = 0;
  for (std::size_t g = 0; g < a.size(); ++g)
    for (std::size_t i = 0; i < a[g].size(); ++i) d = std::max(d, std::abs(a[g][i] - b[g][i]));
  return d;
}

inline double max_abs(const std::vector<std::vector<double>>& s) {
  double m = 0;
  for (const auto& g : s)
    for (double x : g) m = std::max(m, std::abs(x));
  return m;
}

// How vortex_run runs the vortex.
struct VortexRun {
  std::string matmul = "generated";
  int steps = 20;
  std::string system = "euler";
  double ldg_beta = 0.5;
  bool curved = true, uniform_metrics = true;
  std::string antialias = "none";  // as [solver] anti-alias
  std::vector<double>*totals0 = nullptr, *totals1 = nullptr;  // conserved totals before, after
  bool* affine = nullptr;                                      // whether the group was affine
};

// The vortex on a (curved) periodic quad mesh of 6 x 6 quadratic elements at p = 3, advanced
// `steps` RK4 steps of 0.01.
inline std::vector<std::vector<double>> vortex_run(kernels::Backend& be, const VortexRun& o) {
  auto curve = [curved = o.curved](std::array<double, 3> x) {
    const double a = curved ? 0.3 : 0.0;
    return std::array<double, 3>{x[0] + a * std::sin(M_PI * x[1] / 10), x[1] + a * std::sin(M_PI * x[0] / 10), 0};
  };
  auto mesh = make_box("quad", 6, -10, 10, {true, true, false}, 2, curve);
  solver::SystemConfig cfg;
  cfg.phys.system = o.system;
  cfg.phys.ndims = 2;
  cfg.phys.mu = 0.01;
  cfg.phys.ldg_beta = o.ldg_beta;
  cfg.order = 3;
  cfg.matmul = o.matmul;
  cfg.uniform_metrics = o.uniform_metrics;
  solver::set_antialias(cfg, o.antialias);
  solver::IntegratorOptions io;
  io.dt = 0.01;
  cfg.nregs = solver::Integrator::registers(io);
  solver::System sys(be, mesh, cfg);
  if (o.affine) *o.affine = sys.uniform_metrics(0);
  Vortex vx;
  auto s = sys.host_field([&](const double* x, double* u) {
    auto c = vx.cons(x[0], x[1], 0);
    std::copy(c.begin(), c.end(), u);
  });
  auto intg = solver::Integrator::make(sys, io, {});
  sys.upload_solution(intg->current(), s);
  if (o.totals0) *o.totals0 = solver::conserved_totals(sys, intg->current());
  for (int i = 0; i < o.steps; ++i) intg->step_once(1e300);
  if (o.totals1) *o.totals1 = solver::conserved_totals(sys, intg->current());
  return sys.download_solution(intg->current());
}

// The vortex advanced 20 steps with generated kernels on two backends (or two settings of
// one), Euler and Navier-Stokes: the solutions agree to `tol`.
inline void check_same_vortex(kernels::Backend& x, kernels::Backend& y, double tol,
                              const std::string& antialias = "none") {
  for (std::string sys : {"euler", "navier-stokes"}) {
    INFO(sys);
    VortexRun o;
    o.system = sys;
    o.antialias = antialias;
    CHECK(max_diff(vortex_run(x, o), vortex_run(y, o)) <= tol);
  }
}

// A uniform flow gives a zero RHS on `mesh` (Euler and Navier-Stokes, cpu, generated kernels).
inline void check_free_stream(const meshes::Mesh& mesh, const std::map<std::string, solver::BcSpec>& bcs,
                              int order, const std::string& antialias = "none") {
  auto be = kernels::make_backend("cpu");
  for (std::string sys : {"euler", "navier-stokes"}) {
    INFO(sys);
    solver::SystemConfig cfg;
    cfg.phys.system = sys;
    cfg.phys.ndims = mesh.ndims;
    cfg.phys.mu = 0.01;
    cfg.order = order;
    cfg.matmul = "generated";
    cfg.nregs = 2;
    cfg.bcs = bcs;
    solver::set_antialias(cfg, antialias);
    solver::System s(*be, mesh, cfg);
    // (rho, u, v[, w], p): the same free stream the far field is given.
    std::vector<double> prim = mesh.ndims == 2 ? std::vector<double>{1.0, 0.3, -0.2, 1.0 / 1.4}
                                               : std::vector<double>{1.0, 0.3, -0.2, 0.1, 1.0 / 1.4};
    s.upload_solution(0, uniform(s, prim));
    s.rhs(0.0, 0, 1);
    CHECK(max_abs(s.download_solution(1)) < 1e-10);
  }
}

}  // namespace frmini::test
