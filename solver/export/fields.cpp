#include "solver/export/fields.hpp"

#include <cmath>
#include <string>

#include "base/error.hpp"
#include "solver/export/export.hpp"
#include "solver/physics/host.hpp"

namespace frmini::solver::exporter {

const std::vector<std::string>& field_names() {
  static const std::vector<std::string> names{"rho",       "velocity",      "p",    "T", "mach",
                                              "vorticity", "vorticity-mag", "qcrit"};
  return names;
}

void check_fields(const std::vector<std::string>& fields) {
  for (const auto& f : fields) {
    bool known = false;
    for (const auto& n : field_names()) known = known || n == f;
    if (!known) {
      std::string all;
      for (const auto& n : field_names()) all += (all.empty() ? "" : ",") + n;
      throw UserError("export: --fields: unknown field '" + f + "' (known: " + all + ")");
    }
  }
}

PointState point_state(const double* q, const double* grad, int ndims, bool primitive,
                       double gamma) {
  const int nv = ndims + 2;
  PointState s;
  s.rho = q[0];
  for (int i = 0; i < ndims; ++i) s.vel[i] = primitive ? q[i + 1] : q[i + 1] / q[0];
  s.p = primitive ? q[nv - 1] : physics::pressure(ndims, gamma, q);
  for (int i = 0; i < ndims; ++i)
    for (int j = 0; j < ndims; ++j) {
      const double* g = grad + j * nv;  // d/dx_j of every variable
      // Conserved: d(rho v_i) = rho dv_i + v_i drho.
      s.dvel[i][j] = primitive ? g[i + 1] : (g[i + 1] - s.vel[i] * g[0]) / q[0];
    }
  return s;
}

DerivedFields derived_fields(const PointState& s, double gamma, double R) {
  DerivedFields d;
  d.T = s.p / (s.rho * R);
  const double vv = s.vel[0] * s.vel[0] + s.vel[1] * s.vel[1] + s.vel[2] * s.vel[2];
  d.mach = std::sqrt(vv / (gamma * s.p / s.rho));
  const auto& a = s.dvel;
  d.vorticity = {a[2][1] - a[1][2], a[0][2] - a[2][0], a[1][0] - a[0][1]};
  d.vorticity_mag = std::sqrt(d.vorticity[0] * d.vorticity[0] + d.vorticity[1] * d.vorticity[1] +
                              d.vorticity[2] * d.vorticity[2]);
  double om2 = 0, s2 = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const double sym = 0.5 * (a[i][j] + a[j][i]), asym = 0.5 * (a[i][j] - a[j][i]);
      s2 += sym * sym;
      om2 += asym * asym;
    }
  d.qcrit = 0.5 * (om2 - s2);
  return d;
}

double viscosity(const PointState& s, double mu, double gamma, bool sutherland, double cptref,
                 double cpts) {
  return physics::ViscosityLaw{mu, sutherland, cptref, cpts}(
      physics::cp_temperature(gamma, s.rho, s.p));
}

std::array<double, 3> skin_friction(const PointState& s, const std::array<double, 3>& n,
                                    double mu, double qinf) {
  double a[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) a[i][j] = s.dvel[i][j];
  std::array<double, 3> t{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) t[i] -= physics::viscous_stress(mu, a, i, j) * n[j];
  const double tn = t[0] * n[0] + t[1] * n[1] + t[2] * n[2];
  for (int i = 0; i < 3; ++i) t[i] = (t[i] - tn * n[i]) / qinf;
  return t;
}

}  // namespace frmini::solver::exporter
