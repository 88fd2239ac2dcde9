#include "solver/run/cfl.hpp"
#include "solver/physics/host.hpp"

#include <algorithm>
#include <cmath>

namespace frmini::solver {

double cfl_number(const System& sys, const std::vector<std::vector<double>>& soln, double dt) {
  const int nd = sys.ndims(), nv = sys.nvars();
  const double gamma = sys.config().phys.gamma;
  double lmax = 0;
  for (std::size_t g = 0; g < soln.size(); ++g) {
    const auto& l = sys.layout()[g];
    const auto& geo = sys.geometry()[g];
    const std::size_t ne = std::size_t(l.neles);
    for (std::size_t e = 0; e < ne; ++e)
      for (int i = 0; i < l.nupts; ++i) {
        auto u = [&](int v) { return soln[g][(e * nv + v) * l.nupts + i]; };
        double rho = u(0), vel[3] = {0, 0, 0};
        for (int c = 0; c < nd; ++c) vel[c] = u(c + 1) / rho;
        double p = physics::pressure(nd, gamma, u);
        double c = std::sqrt(std::max(gamma * p / rho, 0.0));
        double rj = geo.rcpdjac_upts[std::size_t(i) * ne + e], lam = 0;
        for (int a = 0; a < nd; ++a) {
          double sv = 0, ss = 0;
          for (int b = 0; b < nd; ++b) {
            double s = geo.smats_upts[((std::size_t(i) * nd + a) * nd + b) * ne + e];
            sv += s * vel[b];
            ss += s * s;
          }
          lam += (std::abs(sv) + c * std::sqrt(ss)) * rj;
        }
        lmax = std::max(lmax, lam);
      }
  }
  return dt * (2 * sys.config().order + 1) * lmax;
}

double cfl_limit(const std::string& scheme) {
  if (scheme == "tvd-rk3") return 2.51;
  if (scheme == "rk4") return 2.79;
  if (scheme == "rk45") return 4.82;
  return 1.0;
}

}  // namespace frmini::solver
