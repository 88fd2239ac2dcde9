// The derived point fields of docs/export.md, computed at one point from the solution's
// variables and their physical gradients (both interpolated there with the nodal basis).
// No VTK: pure arithmetic, shared by the volume and boundary writers.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace frmini::solver::exporter {

struct PointState {
  double rho = 0, p = 0;
  std::array<double, 3> vel{};                 // w = 0 in 2D
  std::array<std::array<double, 3>, 3> dvel{};  // dvel[i][j] = d v_i / d x_j (0 beyond ndims)
};

// `q` holds nvars values, `grad` [ndims][nvars] their x, y(, z) derivatives. `primitive`:
// q is (rho, u, v[, w], p) as the tavg plugin writes; otherwise conserved (rho, rho u..., E).
PointState point_state(const double* q, const double* grad, int ndims, bool primitive,
                       double gamma);

struct DerivedFields {
  double T = 0, mach = 0, vorticity_mag = 0, qcrit = 0;
  std::array<double, 3> vorticity{};
};
// T = p/(rho R); mach = |v|/sqrt(gamma p/rho); vorticity = curl v; qcrit = (|Omega|^2 -
// |S|^2)/2 with S and Omega the symmetric and antisymmetric parts of grad v.
DerivedFields derived_fields(const PointState& s, double gamma, double R);

// Viscous wall traction over the reference dynamic pressure, tangential part: the skin
// friction vector cf at a wall point with unit normal n (pointing out of the fluid), dynamic
// viscosity mu. Sign: the force the fluid exerts on the wall, as solver/plugins/forces.cpp.
std::array<double, 3> skin_friction(const PointState& s, const std::array<double, 3>& n,
                                    double mu, double qinf);

// Viscosity at a point: mu, or Sutherland's law as the solver applies it.
double viscosity(const PointState& s, double mu, double gamma, bool sutherland, double cptref,
                 double cpts);

}  // namespace frmini::solver::exporter
