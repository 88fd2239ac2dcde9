#include "solver/system/gradients.hpp"

#include <algorithm>
#include <stdexcept>

namespace frmini::solver {

void upts_gradient(const operators::ElementOperators& ops, const GroupGeometry& geo,
                   const double* s, std::size_t e, int nvars, double* o) {
  const int nd = geo.ndims, nu = ops.nupts, nv = nvars;
  const std::size_t ne = std::size_t(geo.neles);
  std::vector<double> ref(std::size_t(nd) * nv * nu, 0.0);  // [d][v][i]
  for (int d = 0; d < nd; ++d)
    for (int i = 0; i < nu; ++i)
      for (int j = 0; j < nu; ++j) {
        const double m = ops.m4(std::size_t(d * nu + i), std::size_t(j));
        if (m == 0.0) continue;
        for (int v = 0; v < nv; ++v) ref[(std::size_t(d) * nv + v) * nu + i] += m * s[std::size_t(v) * nu + j];
      }
  std::fill(o, o + std::size_t(nd) * nv * nu, 0.0);
  for (int i = 0; i < nu; ++i) {
    const double rj = geo.rcpdjac_upts[std::size_t(i) * ne + e];
    for (int j = 0; j < nd; ++j)
      for (int d = 0; d < nd; ++d) {
        // smats[a][b] = |J| dxi_a/dx_b, so d/dx_j = sum_d dxi_d/dx_j d/dxi_d.
        const double sm = geo.smats_upts[((std::size_t(i) * nd + d) * nd + j) * ne + e];
        for (int v = 0; v < nv; ++v)
          o[(std::size_t(j) * nv + v) * nu + i] += rj * sm * ref[(std::size_t(d) * nv + v) * nu + i];
      }
  }
}

std::vector<double> upts_gradients(const operators::ElementOperators& ops,
                                   const GroupGeometry& geo, const std::vector<double>& soln,
                                   int nvars) {
  const std::size_t nd = std::size_t(geo.ndims), nu = std::size_t(ops.nupts), nv = std::size_t(nvars);
  const std::size_t ne = std::size_t(geo.neles);
  if (soln.size() != ne * nv * nu)
    throw std::logic_error("upts_gradients: solution size does not match the group");
  std::vector<double> out(ne * nd * nv * nu);
  for (std::size_t e = 0; e < ne; ++e)
    upts_gradient(ops, geo, soln.data() + e * nv * nu, e, nvars, out.data() + e * nd * nv * nu);
  return out;
}

}  // namespace frmini::solver
