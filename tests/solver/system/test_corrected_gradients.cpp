// System::corrected_gradients (the host assembly of the LDG-corrected gradient, for plugins)
// against the gradient the RHS itself leaves in its whole-range panel (cache blocking off:
// vect_upts holds every element's physical gradient after the gradient chain), on a curved
// periodic mesh and on the cylinder mesh with walls and a far field, one- and two-sided LDG.
// Two independent paths: device kernels and chains against host products over the operators.
#include <cmath>

#include "kernels/backend.hpp"
#include "solver/system/gradients.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/solver/system/system_runs.hpp"
#include "tests/support/generated_mesh.hpp"

using namespace frmini;

namespace {

// The RHS's physical gradient at the solution points, [neles][ndims][nvars][nupts] per group.
std::vector<std::vector<double>> rhs_gradient(kernels::Backend& be, solver::System& sys) {
  const int nd = sys.ndims(), nv = sys.nvars();
  std::vector<std::vector<double>> out;
  for (const auto& l : sys.layout()) {
    REQUIRE(l.vect_ld == l.ld);  // a whole panel, not a per-block scratch window
    std::vector<double> p(std::size_t(nd) * l.nupts * l.ld);
    be.download(p.data(), sys.arena(), l.vect_upts * 8, p.size() * 8);
    std::vector<double> g(std::size_t(l.neles) * nd * nv * l.nupts);
    for (int64_t e = 0; e < l.neles; ++e)
      for (int d = 0; d < nd; ++d)
        for (int v = 0; v < nv; ++v)
          for (int i = 0; i < l.nupts; ++i)
            g[((std::size_t(e) * nd + d) * nv + v) * l.nupts + i] = p[l.at(d * l.nupts + i, v, e, nv, sys.soa_width())];
    out.push_back(std::move(g));
  }
  return out;
}

void check(const meshes::Mesh& mesh, const std::map<std::string, solver::BcSpec>& bcs, double beta) {
  kernels::BackendOptions whole;
  whole.chain_block = -1;
  auto be = kernels::make_backend("cpu", whole);
  solver::SystemConfig cfg;
  cfg.phys.system = "navier-stokes";
  cfg.phys.ndims = mesh.ndims;
  cfg.phys.mu = 0.01;
  cfg.phys.ldg_beta = beta;
  cfg.order = 3;
  cfg.matmul = "generated";
  cfg.nregs = 2;
  cfg.bcs = bcs;
  solver::System sys(*be, mesh, cfg);
  // A state with gradients everywhere and jumps between elements (a per-point wiggle).
  auto u = test::uniform(sys, mesh.ndims == 2 ? std::vector<double>{1.0, 0.3, -0.2, 1.0 / 1.4}
                                              : std::vector<double>{1.0, 0.3, -0.2, 0.1, 1.0 / 1.4});
  for (auto& g : u)
    for (std::size_t i = 0; i < g.size(); ++i) g[i] *= 1 + 0.05 * std::sin(0.37 * double(i));
  sys.upload_solution(0, u);
  sys.rhs(0.0, 0, 1);
  const auto device = rhs_gradient(*be, sys);
  const auto soln = sys.download_solution(0);
  const auto host = sys.corrected_gradients(0, 0.0, soln);
  double scale = 0, diff = 0, own = 0;
  for (std::size_t g = 0; g < host.size(); ++g) {
    const auto uncorrected = solver::upts_gradients(sys.operators()[g], sys.geometry()[g], soln[g], sys.nvars());
    for (std::size_t i = 0; i < host[g].size(); ++i) {
      scale = std::max(scale, std::abs(device[g][i]));
      diff = std::max(diff, std::abs(device[g][i] - host[g][i]));
      own = std::max(own, std::abs(uncorrected[i] - host[g][i]));
    }
  }
  REQUIRE(scale > 1e-3);
  CHECK(diff <= 1e-12 * scale);
  CHECK(own > 1e-3 * scale);  // the correction is really there
}

}  // namespace

TEST_CASE("corrected gradients equal the RHS's own on a curved periodic mesh, one- and two-sided LDG") {
  auto curve = [](std::array<double, 3> x) {
    return std::array<double, 3>{x[0] + 0.1 * std::sin(M_PI * x[1]), x[1] + 0.1 * std::sin(M_PI * x[0]), 0};
  };
  const auto mesh = test::make_box("quad", 4, -1, 1, {true, true, false}, 3, curve);
  for (double beta : {0.5, -0.5, 0.3}) {
    INFO("beta " << beta);
    check(mesh, {}, beta);
  }
}

TEST_CASE("corrected gradients equal the RHS's own on the cylinder mesh (wall and far field)") {
  const auto& mesh = test::generated_mesh("cylinder2d", true);
  std::map<std::string, std::string> fs = {{"rho", "1.0"}, {"u", "0.3"}, {"v", "-0.2"}, {"w", "0.0"}, {"p", "1.0/1.4"}};
  check(mesh, {{"farfield", {"char-riem-inv", fs}}, {"cylinder", {"no-slp-adia-wall", {}}}}, 0.5);
}
