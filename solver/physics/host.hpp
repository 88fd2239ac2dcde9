// The physics the host side needs, in one place: the ideal-gas relations between conserved
// (rho, rho u_c, E) and primitive (rho, u_c, p) variables, the viscosity law and the viscous
// stress. Everything outside the kernels that works in physical quantities uses these: the
// initial state, the CFL estimate and the physical-state check, the forces, time averages, the
// sampler and integrals, and the export's derived fields. (The kernels have their own rendering
// of the same formulas, in solver/physics/kernels.)
#pragma once

#include <cmath>
#include <concepts>

namespace frmini::physics {

// p = (gamma - 1) (E - rho |v|^2 / 2), from conserved q(v): v = 0 rho, 1..nd momentum, nd+1 E.
template <class Q>
  requires std::invocable<Q&, int>
double pressure(int nd, double gamma, Q&& q) {
  const double rho = q(0);
  double vv = 0;
  for (int c = 0; c < nd; ++c) vv += (q(1 + c) / rho) * (q(1 + c) / rho);
  return (gamma - 1) * (q(nd + 1) - 0.5 * rho * vv);
}
// The same from nd + 2 values `stride` apart (a [nvars][nupts] block: stride nupts).
inline double pressure(int nd, double gamma, const double* q, long stride = 1) {
  return pressure(nd, gamma, [&](int v) { return q[v * stride]; });
}

// E = p / (gamma - 1) + rho |v|^2 / 2.
inline double total_energy(int nd, double gamma, double rho, const double* vel, double p) {
  double vv = 0;
  for (int c = 0; c < nd; ++c) vv += vel[c] * vel[c];
  return p / (gamma - 1) + 0.5 * rho * vv;
}

// c_p T of an ideal gas: gamma/(gamma - 1) p/rho (= gamma (E/rho - |v|^2/2)).
inline double cp_temperature(double gamma, double rho, double p) {
  return gamma / (gamma - 1) * p / rho;
}

// The dynamic viscosity: constant, or Sutherland's law in c_p T,
//   mu(T) = mu (cpTref + cpTs) / (cpT + cpTs) (cpT / cpTref)^(3/2).
struct ViscosityLaw {
  double mu = 0;
  bool sutherland = false;
  double cptref = 0, cpts = 0;
  double operator()(double cpt) const {
    if (!sutherland) return mu;
    return mu * (cptref + cpts) / (cpt + cpts) * std::pow(cpt / cptref, 1.5);
  }
};

// Newtonian stress with Stokes' hypothesis, tau_ij = mu (du_i/dx_j + du_j/dx_i - 2/3 delta_ij
// div u), from grad[i][j] = du_i/dx_j (3 x 3, zero beyond nd).
inline double viscous_stress(double mu, const double (&grad)[3][3], int i, int j) {
  const double divv = grad[0][0] + grad[1][1] + grad[2][2];
  return mu * (grad[i][j] + grad[j][i]) - (i == j ? 2.0 / 3.0 * mu * divv : 0.0);
}

// q: nd + 2 conserved values; dq (or null): d q_v / d x_j at [j*(nd+2) + v]. Writes prim
// (nd + 2 values: rho, u, v[, w], p) and, when dq is given, dprim in dq's layout:
//   grad u_c = (grad m_c - u_c grad rho) / rho,
//   grad p   = (gamma - 1) (grad E - sum_c u_c grad m_c + |u|^2/2 grad rho).
inline void conserved_to_primitive(int nd, double gamma, const double* q, const double* dq,
                                   double* prim, double* dprim) {
  const int nv = nd + 2;
  const double rho = q[0];
  double u[3] = {0, 0, 0}, usq = 0;
  for (int c = 0; c < nd; ++c) u[c] = q[1 + c] / rho, usq += u[c] * u[c];
  prim[0] = rho;
  for (int c = 0; c < nd; ++c) prim[1 + c] = u[c];
  prim[nv - 1] = (gamma - 1) * (q[nv - 1] - 0.5 * rho * usq);
  if (!dq) return;
  for (int j = 0; j < nd; ++j) {
    const double* d = dq + j * nv;
    double* o = dprim + j * nv;
    double ugm = 0;
    o[0] = d[0];
    for (int c = 0; c < nd; ++c) {
      o[1 + c] = (d[1 + c] - u[c] * d[0]) / rho;
      ugm += u[c] * d[1 + c];
    }
    o[nv - 1] = (gamma - 1) * (d[nv - 1] - ugm + 0.5 * usq * d[0]);
  }
}

}  // namespace frmini::physics
