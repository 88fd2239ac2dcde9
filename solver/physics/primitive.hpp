// Conserved (rho, rho u_c, E) to primitive (rho, u_c, p) variables on the host, with their
// gradients by the chain rule: post-processing (the sampler and integrals plugins) works in the
// variables users write expressions in.
#pragma once

namespace frmini::physics {

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
