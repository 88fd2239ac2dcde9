// The floor of a step (solver/system/step_floor.hpp): the bytes the System counts as it runs
// whole steps, against a count by hand of the same definition (registers each stage reads and
// writes, metric terms, interface gathers) on periodic boxes; and what the pipeline as laid
// out moves on top of it (`between`), counted by hand from the arrays its passes hand over.
#include <cmath>

#include "kernels/backend.hpp"
#include "solver/integrators/integrator.hpp"
#include "solver/system/step_floor.hpp"
#include "solver/system/system.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/support/box_mesh.hpp"

using namespace frmini;

namespace {

// One step of `scheme` from a uniform flow; the floor counted over it.
solver::StepFloor one_step(const meshes::Mesh& mesh, solver::SystemConfig cfg,
                           const std::string& scheme, const kernels::BackendOptions& bo = {}) {
  auto be = kernels::make_backend("cpu", bo);
  solver::IntegratorOptions io;
  io.scheme = scheme;
  io.dt = 1e-4;
  cfg.nregs = solver::Integrator::registers(io);
  solver::System sys(*be, mesh, cfg);
  const int nv = sys.nvars();
  std::vector<std::vector<double>> u;
  for (const auto& l : sys.layout()) {
    std::vector<double> g(std::size_t(l.neles) * nv * l.nupts, 1.0);
    for (int64_t e = 0; e < l.neles; ++e)
      for (int i = 0; i < l.nupts; ++i) g[(std::size_t(e) * nv + nv - 1) * l.nupts + i] = 2.5;
    u.push_back(g);
  }
  auto intg = solver::Integrator::make(sys, io, {});
  sys.upload_solution(intg->current(), u);
  const solver::StepFloor f0 = sys.floor_so_far();
  intg->step_once(1e300);
  return sys.floor_so_far() - f0;
}

}  // namespace

TEST_CASE("the floor of an RK4 Navier-Stokes step on an affine hex box, counted by hand") {
  // 3^3 periodic hexes at p = 2: 27 points and 54 flux points an element, 81 faces of 9
  // points, every element affine (one point row of metric terms).
  auto mesh = test::make_box("hex", 3, 0.0, 1.0, {true, true, true}, 1);
  solver::SystemConfig cfg;
  cfg.phys.system = "navier-stokes";
  cfg.phys.ndims = 3;
  cfg.phys.mu = 0.01;
  cfg.order = 2;
  const double item = 8, neles = 27, nupts = 27, nv = 5, nd = 3, stages = 4;
  const double reg = neles * nupts * nv * item;
  // u -> acc, s = u + dt/2 acc: 1 read, 2 writes; the two middle stages read s, acc and u and
  // write s and acc; the last reads and writes s and acc.
  const double passes = 3 + 5 + 5 + 4;
  const double geometry = stages * neles * (nd * nd + 1) * item;
  // Between the passes, an element a stage: its 54 flux points' solution written and common
  // fluxes read back, the result written twice and read once; the LDG jumps read back and the
  // gradient written (3 dimensions) at the 27 flux points of the 3 faces every element of a
  // periodic box is the left side of; 1/|J| read again. The first stage's flux-point solution
  // is not prepared by a previous RHS: its chain reads u a second time.
  // At beta = 0 both sides read gradients: all 54 rows.
  const double nfpts = 54;
  auto between = [&](double rows) {
    const double element = nv * (2 * nfpts + 2 * nupts) + rows * nv * (1 + nd) + 1;
    return (stages * element + nupts * nv) * neles * item;
  };
  // A face point: both sides' u read twice (common solution, common flux) and their common
  // flux written; the LDG common solution written and the gradient read on one side at the
  // default beta = 1/2, on both at beta = 0; the normal and its magnitude.
  for (double beta : {0.5, 0.0}) {
    INFO("ldg-beta " << beta);
    cfg.phys.ldg_beta = beta;
    const double ldg_sides = beta == 0.0 ? 2 : 1;
    const double point = 2 * (3 * nv) + ldg_sides * (nv + nd * nv) + nd + 1;
    const auto f = one_step(mesh, cfg, "rk4");
    CHECK(f.registers == passes * reg);
    CHECK(f.geometry == geometry);
    CHECK(f.interfaces == stages * (81 * 9) * point * item);
    CHECK(f.between == between(beta == 0.0 ? nfpts : 27));
  }
  SECTION("chains over whole panels write and read the solution-point panel once more") {
    kernels::BackendOptions bo;
    bo.chain_block = -1;  // no cache blocks
    cfg.phys.ldg_beta = 0.5;
    const auto f = one_step(mesh, cfg, "rk4", bo);
    // The gradient and the flux at the solution points: 2 * 3 rows of 27 points.
    CHECK(f.between == between(27) + stages * 2 * (2 * nd * nupts) * nv * neles * item);
    CHECK(f.total() == one_step(mesh, cfg, "rk4").total());
  }
}

TEST_CASE("the floor of an RK45 Euler step on a curved quad box, counted by hand") {
  // 6^2 periodic curved quads at p = 3: 16 points and 16 flux points an element, 72 faces of
  // 4 points; curved elements read every point's metric terms.
  auto curve = [](std::array<double, 3> x) {
    return std::array<double, 3>{x[0] + 0.3 * std::sin(M_PI * x[1] / 10),
                                 x[1] + 0.3 * std::sin(M_PI * x[0] / 10), 0};
  };
  auto mesh = test::make_box("quad", 6, -10, 10, {true, true, false}, 2, curve);
  solver::SystemConfig cfg;
  cfg.phys.system = "euler";
  cfg.phys.ndims = 2;
  cfg.order = 3;
  cfg.precision = kernels::Precision::single;
  const double item = 4, neles = 36, nupts = 16, nv = 4, nd = 2, stages = 5;
  // Two registers swapping roles: the first stage reads one and writes both, the others read
  // and write both.
  const double passes = 3 + 4 * 4;
  const auto f = one_step(mesh, cfg, "rk45");
  CHECK(f.registers == passes * neles * nupts * nv * item);
  CHECK(f.geometry == stages * neles * nupts * (nd * nd + 1) * item);
  CHECK(f.interfaces == stages * (72 * 4) * (2 * (2 * nv) + nd + 1) * item);
  // Euler: the flux-point solution written, the common fluxes read, the result written twice
  // and read once; no gradients, and u is read once whether prepared or not.
  CHECK(f.between == stages * neles * nv * (2 * 16 + 2 * nupts) * item);
}

TEST_CASE("register passes: each register read and written once, a fresh derivative from cache") {
  using solver::System;
  // rhs(0 -> 1), then r2 = r0 + dt r1: reads 0 (r1 is the RHS's result), writes 1 and 2.
  CHECK(solver::register_passes(0, 1, {System::axnpby_kernel(2, {{1.0, 0}, {0.1, 1}})}) == 3);
  // A stand-alone r0 = r0 + r1 + r2: three reads, one write.
  CHECK(solver::register_passes(-1, -1, {System::axnpby_kernel(0, {{1.0, 0}, {1.0, 1}, {1.0, 2}})}) == 4);
}
