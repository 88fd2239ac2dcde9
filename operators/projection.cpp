#include "operators/projection.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "operators/bases.hpp"
#include "operators/operators.hpp"
#include "operators/shapes.hpp"

namespace frmini::operators {

namespace {

void check_order(const std::string& etype, int p) {
  if (p < 0)
    throw UserError("operators: order must be >= 0 (got " + std::to_string(p) + ") for " + etype);
}

std::string point_set_name(const std::string& etype, const std::string& upts) {
  const std::string name = upts.empty() ? default_upts(etype) : upts;
  const auto choices = upts_choices(etype);
  if (std::find(choices.begin(), choices.end(), name) == choices.end())
    throw UserError("operators: unknown solution point set '" + name + "' for " + etype);
  return name;
}

// One point of the collapsed rule: the reference coordinates of the collapsed (a, b, c) and
// the Jacobian of the collapse there. quad/hex need none: their rule is the tensor product.
double collapse(const std::string& e, double a, double b, double c, double* x) {
  if (e == "quad" || e == "hex") {
    x[0] = a, x[1] = b, x[2] = c;
    return 1.0;
  }
  if (e == "tri" || e == "pri") {  // the prism: a triangle in (x, y) times a line in z
    x[0] = (1 + a) * (1 - b) / 2 - 1, x[1] = b, x[2] = c;
    return (1 - b) / 2;
  }
  if (e == "tet") {
    x[0] = (1 + a) * (1 - b) * (1 - c) / 4 - 1, x[1] = (1 + b) * (1 - c) / 2 - 1, x[2] = c;
    return (1 - b) / 2 * ((1 - c) / 2) * ((1 - c) / 2);
  }
  // pyr: the square at height c shrinks to the apex.
  x[0] = a * (1 - c) / 2, x[1] = b * (1 - c) / 2, x[2] = c;
  return ((1 - c) / 2) * ((1 - c) / 2);
}

}  // namespace

QuadRule collapsed_gauss_rule(const std::string& etype, int n) {
  const int nd = shape(etype).ndims;  // UserError if unknown
  const QuadRule g = get_quadrule("line", "gauss-legendre", n);
  QuadRule r;
  r.info = {etype, "collapsed-gauss-legendre", 0, -1, "", ""};
  const int nc = nd == 3 ? n : 1;
  std::vector<double> pts;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < nc; ++k) {
        double x[3];
        const double c = nd == 3 ? g.pts.data[k] : 0.0, wc = nd == 3 ? g.wts[k] : 1.0;
        const double jac = collapse(etype, g.pts.data[i], g.pts.data[j], c, x);
        pts.insert(pts.end(), x, x + nd);
        r.wts.push_back(g.wts[i] * g.wts[j] * wc * jac);
      }
  r.info.npts = static_cast<int>(r.wts.size());
  r.pts = Matrix(r.wts.size(), nd);
  r.pts.data = std::move(pts);
  return r;
}

Matrix solution_points(const std::string& etype, int p, const std::string& upts) {
  check_order(etype, p);
  const std::string name = point_set_name(etype, upts);
  return get_quadrule(etype, name, nupts_for(etype, p)).pts;
}

Matrix l2_projection_matrix(const std::string& etype, int p, int q, const std::string& upts) {
  const Matrix xp = solution_points(etype, p, upts), xq = solution_points(etype, q, upts);
  // Nodal to modal at order p: the values are V_pᵀ a, so a = V_p⁻ᵀ f. The bases are left
  // uncleaned: PyFR's clean coalesces values to 1e-10, which exactness to 1e-12 cannot afford.
  const Matrix to_modal = inverse(transpose(ortho_basis_at(etype, p, xp, false)));
  const QuadRule rule = collapsed_gauss_rule(etype, p + q + 2);
  const Matrix phi = ortho_basis_at(etype, q, rule.pts, false);  // nb_q × nq
  const Matrix psi = ortho_basis_at(etype, p, rule.pts, false);  // nb_p × nq
  Matrix m(phi.rows, psi.rows);
  for (std::size_t j = 0; j < phi.rows; ++j)
    for (std::size_t k = 0; k < psi.rows; ++k) {
      double s = 0.0;
      for (std::size_t x = 0; x < rule.wts.size(); ++x) s += rule.wts[x] * phi(j, x) * psi(k, x);
      m(j, k) = s;
    }
  return matmul(transpose(ortho_basis_at(etype, q, xq, false)), matmul(m, to_modal));
}

Matrix projection_matrix(const std::string& etype, int p, int q, const std::string& upts) {
  if (p != q) return l2_projection_matrix(etype, p, q, upts);
  return identity(solution_points(etype, p, upts).rows);  // also checks etype, p and upts
}

}  // namespace frmini::operators
