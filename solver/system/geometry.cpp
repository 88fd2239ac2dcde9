#include "solver/system/geometry.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "base/error.hpp"
#include "operators/nodal.hpp"
#include "operators/shapes.hpp"
#include "solver/system/host_gemm.hpp"

namespace frmini::solver {

namespace {

using operators::Matrix;

// Node coordinates as a panel [nnodes][ndims*neles] (column c*neles + e); `relative`: less
// each element's first node.
std::vector<double> node_panel(const meshes::ElementGroup& g, int ndims, bool relative = false) {
  const std::size_t ne = std::size_t(g.neles), nn = std::size_t(g.nnodes);
  std::vector<double> x(nn * ndims * ne);
  for (std::size_t e = 0; e < ne; ++e)
    for (std::size_t n = 0; n < nn; ++n)
      for (int c = 0; c < ndims; ++c)
        x[(n * ndims + c) * ne + e] =
            g.nodes[(e * nn + n) * ndims + c] - (relative ? g.nodes[e * nn * ndims + c] : 0.0);
  return x;
}

// C = A·B with A a Matrix and B a panel of `cols` columns.
std::vector<double> apply(const Matrix& a, const std::vector<double>& b, std::size_t cols) {
  std::vector<double> c(a.rows * cols);
  host_gemm(a.rows, cols, a.cols, a.data.data(), a.cols, b.data(), cols, c.data(), cols);
  return c;
}

// The derivative operator of a nodal basis at points x, as one matrix: row k*nx + i,
// column u, entry dl_u/dxi_k(x_i).
Matrix derivative_matrix(const operators::NodalBasis& b, const Matrix& x) {
  Matrix jt = b.jac_at(x);  // [k*size + u][i]
  const std::size_t nb = b.size(), nx = x.rows, nd = std::size_t(b.ndims());
  Matrix d(nd * nx, nb);
  for (std::size_t k = 0; k < nd; ++k)
    for (std::size_t u = 0; u < nb; ++u)
      for (std::size_t i = 0; i < nx; ++i) d(k * nx + i, u) = jt(k * nb + u, i);
  return d;
}

}  // namespace

std::vector<double> ploc_at(const meshes::ElementGroup& g, int ndims, const Matrix& pts) {
  auto sbasis = operators::geometry_basis(g.etype, g.order);
  return apply(sbasis.at(pts), node_panel(g, ndims), std::size_t(ndims * g.neles));
}

namespace {

// Metric terms at the pseudo-grid points from the Jacobian jac[(k*nm + m)][c*ne + e] =
// dx_c/dxi_k: sm [m][(a*nd + b)*ne + e] = S_ab and djac [m][e].
void metrics_2d(const std::vector<double>& jac, std::size_t nm, std::size_t ne,
                std::vector<double>& sm, std::vector<double>& dj) {
  auto J = [&](std::size_t k, std::size_t m, std::size_t c, std::size_t e) {
    return jac[((k * nm + m) * 2 + c) * ne + e];
  };
  for (std::size_t m = 0; m < nm; ++m)
    for (std::size_t e = 0; e < ne; ++e) {
      double xx = J(0, m, 0, e), xy = J(0, m, 1, e), yx = J(1, m, 0, e), yy = J(1, m, 1, e);
      // J[k][c] = dx_c/dxi_k: (xx, xy) = d(x,y)/dxi, (yx, yy) = d(x,y)/deta.
      double* s = &sm[m * 4 * ne + e];
      s[0 * ne] = yy;   // S_00 =  dy/deta
      s[1 * ne] = -yx;  // S_01 = -dx/deta
      s[2 * ne] = -xy;  // S_10 = -dy/dxi
      s[3 * ne] = xx;   // S_11 =  dx/dxi
      dj[m * ne + e] = xx * yy - xy * yx;
    }
}

// Kopriva's curl form, which keeps a free stream on curved elements: T_d = x × dx/dxi_d,
// S_a = 1/2 (d_{a+1} T_{a+2} - d_{a+2} T_{a+1}); xm the points [m][c*ne + e], dm the
// derivative matrix of the pseudo-grid basis.
void metrics_3d(const std::vector<double>& xm, const std::vector<double>& jac, const Matrix& dm,
                std::size_t nm, std::size_t ne, std::vector<double>& sm, std::vector<double>& dj) {
  auto J = [&](std::size_t k, std::size_t m, std::size_t c, std::size_t e) {
    return jac[((k * nm + m) * 3 + c) * ne + e];
  };
  std::vector<std::vector<double>> dtt(3);
  for (std::size_t d = 0; d < 3; ++d) {
    std::vector<double> tt(nm * 3 * ne);
    for (std::size_t m = 0; m < nm; ++m)
      for (std::size_t e = 0; e < ne; ++e) {
        const double* x = &xm[m * 3 * ne + e];
        double a0 = x[0], a1 = x[ne], a2 = x[2 * ne];
        double b0 = J(d, m, 0, e), b1 = J(d, m, 1, e), b2 = J(d, m, 2, e);
        tt[(m * 3 + 0) * ne + e] = a1 * b2 - a2 * b1;
        tt[(m * 3 + 1) * ne + e] = a2 * b0 - a0 * b2;
        tt[(m * 3 + 2) * ne + e] = a0 * b1 - a1 * b0;
      }
    dtt[d] = apply(dm, tt, 3 * ne);  // [(k*nm + m)][c*ne + e] = d_k (T_d)_c
  }
  auto D = [&](std::size_t k, std::size_t d, std::size_t m, std::size_t c, std::size_t e) {
    return dtt[d][((k * nm + m) * 3 + c) * ne + e];
  };
  for (std::size_t m = 0; m < nm; ++m)
    for (std::size_t e = 0; e < ne; ++e) {
      for (std::size_t a = 0; a < 3; ++a) {
        std::size_t a1 = (a + 1) % 3, a2 = (a + 2) % 3;
        for (std::size_t b = 0; b < 3; ++b)
          sm[(m * 9 + a * 3 + b) * ne + e] = 0.5 * (D(a1, a2, m, b, e) - D(a2, a1, m, b, e));
      }
      double x0 = J(0, m, 0, e), x1 = J(0, m, 1, e), x2 = J(0, m, 2, e);
      double y0 = J(1, m, 0, e), y1 = J(1, m, 1, e), y2 = J(1, m, 2, e);
      double z0 = J(2, m, 0, e), z1 = J(2, m, 1, e), z2 = J(2, m, 2, e);
      dj[m * ne + e] = x0 * (y1 * z2 - y2 * z1) - x1 * (y0 * z2 - y2 * z0) + x2 * (y0 * z1 - y1 * z0);
    }
}

// 1/|J| at the solution points; a non-positive |J| is a tangled element of the mesh.
std::vector<double> reciprocal_jacobian(const std::vector<double>& djac, std::size_t ne,
                                        const std::string& etype) {
  std::vector<double> r(djac.size());
  for (std::size_t i = 0; i < djac.size(); ++i) {
    double d = djac[i];
    if (!(d > 0.0)) {
      std::ostringstream o;
      o << "mesh: element " << (i % ne) << " of type " << etype
        << " has a non-positive Jacobian (" << d << ") at a solution point";
      throw UserError(o.str());
    }
    r[i] = 1.0 / d;
  }
  return r;
}

// The physical normals (scaled by the face's area) at the flux points: the reference normals
// through the metric terms there, smf [f][(a*nd + b)*ne + e].
std::vector<double> physical_normals(const operators::ElementOperators& ops, const std::vector<double>& smf,
                                     std::size_t nd, std::size_t ne) {
  std::vector<double> pn(std::size_t(ops.nfpts) * nd * ne, 0.0);
  for (std::size_t f = 0; f < std::size_t(ops.nfpts); ++f)
    for (std::size_t b = 0; b < nd; ++b)
      for (std::size_t a = 0; a < nd; ++a) {
        const double na = ops.norm_fpts(f, a);
        if (na == 0.0) continue;
        const double* s = &smf[(f * nd * nd + a * nd + b) * ne];
        double* p = &pn[(f * nd + b) * ne];
        for (std::size_t e = 0; e < ne; ++e) p[e] += na * s[e];
      }
  return pn;
}

}  // namespace

GroupGeometry compute_geometry(const meshes::ElementGroup& g, int ndims,
                               const operators::ElementOperators& ops) {
  GroupGeometry r;
  r.etype = g.etype;
  r.ndims = ndims;
  r.nupts = ops.nupts;
  r.nfpts = ops.nfpts;
  r.neles = g.neles;
  const std::size_t ne = std::size_t(g.neles), nd = std::size_t(ndims);

  // Pseudo-grid points and their basis: metrics become degree-max(p,1) polynomials.
  const int q = std::max(ops.order, 1);
  Matrix mpts = operators::std_ele(g.etype, q);
  operators::NodalBasis mbasis(g.etype, q, mpts);
  const std::size_t nm = mpts.rows;

  // From coordinates relative to each element: the metric terms do not depend on where the
  // element lies, but the curl form's products x dx/dxi do, and their rounding grew as
  // (|x|/h)^2 (to 1e-8 of the terms on cubes 1.6 wide a thousand units out).
  auto sbasis = operators::geometry_basis(g.etype, g.order);
  std::vector<double> xm = apply(sbasis.at(mpts), node_panel(g, ndims, true), nd * ne);
  Matrix dm = derivative_matrix(mbasis, mpts);
  // jac[(k*nm + m)][c*ne + e] = dx_c/dxi_k
  std::vector<double> jac = apply(dm, xm, nd * ne);
  std::vector<double> sm(nm * nd * nd * ne), dj(nm * ne);
  if (nd == 2) metrics_2d(jac, nm, ne, sm, dj);
  else metrics_3d(xm, jac, dm, nm, ne, sm, dj);

  // Interpolate to the solution and flux points.
  Matrix lu = mbasis.at(ops.upts), lf = mbasis.at(ops.fpts);
  r.smats_upts = apply(lu, sm, nd * nd * ne);
  r.djac_upts = apply(lu, dj, ne);
  r.rcpdjac_upts = reciprocal_jacobian(r.djac_upts, ne, g.etype);
  r.pnorm_fpts = physical_normals(ops, apply(lf, sm, nd * nd * ne), nd, ne);
  r.ploc_upts = ploc_at(g, ndims, ops.upts);
  r.ploc_fpts = ploc_at(g, ndims, ops.fpts);
  if (ops.nqpts > 0) {
    r.nqpts = ops.nqpts;
    r.smats_qpts = apply(mbasis.at(ops.qpts), sm, nd * nd * ne);
  }
  return r;
}

}  // namespace frmini::solver
