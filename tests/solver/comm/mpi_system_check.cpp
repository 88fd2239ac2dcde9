// Run under mpirun -np N: every rank builds its part of a mesh (partitioned here by the dual
// graph's vertex number modulo N, so nearly every element has neighbours on other parts and
// periodic partners stay together) and, beside it, the whole mesh's system; both take the same
// smooth initial state and five RK45 steps with the PI controller (the error norm reduced over
// the ranks). Every part's solution must equal the whole mesh's run to 1e-12 (double), and its
// dt to 1e-9: the step comes from the error estimate, a difference of two solutions 1e-6 apart,
// in which the parts' round-off (sums over other orders, normals of the other side) is relatively
// a thousand times larger than in the solution itself. Cases:
// Euler and Navier-Stokes (one-sided LDG, beta = 1/2) on a curved quad/tri cylinder mesh, and
// Navier-Stokes on a periodic hex/prism/tet/pyramid box, the last two also with both
// anti-aliasings (the parts' faces then pair the face rules' points); on cpu, and opencl where
// there is a device. Prints one line per case from rank 0; exits 1 if any rank saw a difference.
#include <cmath>
#include <cstdio>
#include <string>

#include "base/error.hpp"
#include "kernels/backend.hpp"
#include "meshes/mesh_part.hpp"
#include "meshes/partition.hpp"
#include "solver/comm/comm.hpp"
#include "solver/integrators/integrator.hpp"
#include "solver/system/system.hpp"
#include "tests/support/generated_mesh.hpp"

using namespace frmini;
namespace comm = frmini::solver::comm;

namespace {

std::vector<std::vector<double>> initial(const solver::System& sys) {
  const int nd = sys.ndims(), nv = sys.nvars();
  return sys.host_field([&](const double* x, double* u) {
    const double rho = 1 + 0.1 * std::sin(x[0]) * std::cos(x[1] + 0.3 * x[2]);
    const double vel[3] = {0.3 + 0.05 * std::sin(x[1]), 0.1 * std::cos(x[0] + x[2]), 0.05 * std::sin(x[0] - x[1])};
    const double p = 1 + 0.05 * std::cos(x[0] + x[1]);
    double ke = 0;
    u[0] = rho;
    for (int c = 0; c < nd; ++c) u[1 + c] = rho * vel[c], ke += 0.5 * rho * vel[c] * vel[c];
    u[nv - 1] = p / 0.4 + ke;
  });
}

// Returns the largest difference relative to the largest value; dt's difference in *ddt.
double run_case(comm::Comm& comm, const std::string& backend, const meshes::Mesh& mesh,
                const std::string& system, const std::map<std::string, solver::BcSpec>& bcs,
                const std::string& antialias, double* ddt) {
  const int n = comm.size();
  const auto dg = meshes::dual_graph(mesh, "");
  std::vector<std::vector<int32_t>> parts;
  int64_t k = 0;
  for (const auto& g : mesh.groups) {
    parts.emplace_back();
    for (int64_t e = 0; e < g.neles; ++e) parts.back().push_back(int32_t(dg.vertex_of[std::size_t(k++)] % n));
  }
  const auto part = meshes::extract_part(mesh, parts, n, comm.rank());
  solver::SystemConfig cfg;
  cfg.phys.system = system;
  cfg.phys.ndims = mesh.ndims;
  cfg.phys.mu = 0.02;
  cfg.order = 2;
  cfg.bcs = bcs;
  solver::set_antialias(cfg, antialias);
  solver::IntegratorOptions io;
  io.scheme = "rk45";
  io.controller = "pi";
  io.dt = 1e-3;
  cfg.nregs = solver::Integrator::registers(io);
  auto be = kernels::make_backend(backend);
  solver::System whole(*be, mesh, cfg);
  solver::System mine(*be, part, comm, cfg);
  auto iw = solver::Integrator::make(whole, io, {});
  auto im = solver::Integrator::make(mine, io, {});
  whole.upload_solution(iw->current(), initial(whole));
  mine.upload_solution(im->current(), initial(mine));
  for (int s = 0; s < 5; ++s) iw->step_once(1.0), im->step_once(1.0);
  const auto a = whole.download_solution(iw->current());
  const auto b = mine.download_solution(im->current());
  double diff = 0, scale = 0;
  const int nv = mine.nvars();
  for (std::size_t g = 0; g < b.size(); ++g) {
    const std::size_t m = std::size_t(nv * mine.layout()[g].nupts);
    const auto& w = a[std::size_t(part.ggroup[g])];
    for (std::size_t e = 0; e < part.gelem[g].size(); ++e)
      for (std::size_t i = 0; i < m; ++i) {
        const double x = w[std::size_t(part.gelem[g][e]) * m + i];
        diff = std::max(diff, std::abs(b[g][e * m + i] - x));
        scale = std::max(scale, std::abs(x));
      }
  }
  *ddt = std::abs(iw->state().dt - im->state().dt) / iw->state().dt;
  if (iw->state().nsteps != im->state().nsteps) *ddt = 1;
  return diff / scale;
}

}  // namespace

int main(int argc, char** argv) {
  comm::init(&argc, &argv);
  auto& comm = comm::world();
  int failed = 0;
  try {
    std::vector<std::string> backends{"cpu"};
    try {
      kernels::make_backend("opencl");
      backends.push_back("opencl");
    } catch (const UserError&) {
      if (comm.rank() == 0) std::printf("skipped: opencl (no OpenCL device)\n");
    }
    std::map<std::string, std::string> fs = {{"rho", "1.0"}, {"u", "0.3"}, {"v", "0.0"}, {"w", "0.0"}, {"p", "1.0"}};
    struct Case {
      std::string mesh, system;
      std::map<std::string, solver::BcSpec> bcs;
      std::string antialias = "none";
    };
    const std::vector<Case> cases = {
        {"cylinder2d", "euler", {{"farfield", {"char-riem-inv", fs}}, {"cylinder", {"slp-adia-wall", {}}}}},
        {"cylinder2d", "navier-stokes", {{"farfield", {"char-riem-inv", fs}}, {"cylinder", {"no-slp-adia-wall", {}}}}},
        {"box-mixed3d", "navier-stokes", {}},
        {"cylinder2d", "navier-stokes", {{"farfield", {"char-riem-inv", fs}}, {"cylinder", {"no-slp-adia-wall", {}}}},
         "flux,surf-flux"},
        {"box-mixed3d", "navier-stokes", {}, "flux,surf-flux"}};
    for (const auto& backend : backends)
      for (const auto& c : cases) {
        double ddt = 0;
        const auto& mesh = test::generated_mesh(c.mesh, c.mesh == "cylinder2d");
        double d = run_case(comm, backend, mesh, c.system, c.bcs, c.antialias, &ddt);
        double worst[2] = {d, ddt};
        comm.max(worst, 2);
        const bool ok = worst[0] <= 1e-12 && worst[1] <= 1e-9;
        failed += !ok;
        if (comm.rank() == 0)
          std::printf("%s %s %s%s on %d ranks: largest relative difference from one part %.3g, dt %.3g: %s\n",
                      backend.c_str(), c.mesh.c_str(), c.system.c_str(),
                      c.antialias == "none" ? "" : (" anti-alias " + c.antialias).c_str(), comm.size(),
                      worst[0], worst[1], ok ? "ok" : "FAILED");
      }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d: %s\n", comm.rank(), e.what());
    comm.abort(1);
  }
  comm::finalize();
  return failed ? 1 : 0;
}
