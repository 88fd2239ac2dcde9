#include "solver/system/gradients.hpp"

#include <algorithm>
#include <stdexcept>

namespace frmini::solver {

NonZeros::NonZeros(const operators::Matrix& m) {
  for (std::size_t r = 0; r < m.rows; ++r)
    for (std::size_t c = 0; c < m.cols; ++c)
      if (const double x = m.data[r * m.cols + c]; x != 0.0) {
        row.push_back(int(r));
        col.push_back(int(c));
        val.push_back(x);
      }
}

namespace {


// Element e's gradient; `ref` is scratch of ndims*nvars*nupts values.
void gradient_of(const NonZeros& m4, int nu, const GroupGeometry& geo, const double* s,
                 std::size_t e, int nv, double* ref, double* o) {
  const std::size_t n = std::size_t(geo.ndims) * nv * nu;
  std::fill(ref, ref + n, 0.0);  // [d][v][i]
  for (std::size_t k = 0; k < m4.val.size(); ++k) {
    const int d = m4.row[k] / nu, i = m4.row[k] % nu;
    const double m = m4.val[k];
    for (int v = 0; v < nv; ++v) ref[(std::size_t(d) * nv + v) * nu + i] += m * s[std::size_t(v) * nu + m4.col[k]];
  }
  reference_to_physical(geo, nu, e, nv, ref, o);
}

}  // namespace

void reference_to_physical(const GroupGeometry& geo, int nu, std::size_t e, int nv, const double* ref,
                           double* o) {
  const int nd = geo.ndims;
  const std::size_t ne = std::size_t(geo.neles);
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

void upts_gradient(const operators::ElementOperators& ops, const GroupGeometry& geo,
                   const double* s, std::size_t e, int nvars, double* o) {
  std::vector<double> ref(std::size_t(geo.ndims) * nvars * ops.nupts);
  gradient_of(NonZeros(ops.m4), ops.nupts, geo, s, e, nvars, ref.data(), o);
}

std::vector<double> upts_gradients(const operators::ElementOperators& ops,
                                   const GroupGeometry& geo, const std::vector<double>& soln,
                                   int nvars) {
  const std::size_t nd = std::size_t(geo.ndims), nu = std::size_t(ops.nupts), nv = std::size_t(nvars);
  const std::size_t ne = std::size_t(geo.neles);
  if (soln.size() != ne * nv * nu)
    throw std::logic_error("upts_gradients: solution size does not match the group");
  const NonZeros m4(ops.m4);
  std::vector<double> out(ne * nd * nv * nu);
  // Each element's gradient is its own: the result does not depend on the thread count.
#pragma omp parallel
  {
    std::vector<double> ref(nd * nv * nu);
#pragma omp for schedule(static)
    for (std::size_t e = 0; e < ne; ++e)
      gradient_of(m4, int(nu), geo, soln.data() + e * nv * nu, e, nvars, ref.data(),
                  out.data() + e * nd * nv * nu);
  }
  return out;
}

}  // namespace frmini::solver
