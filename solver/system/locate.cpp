#include "solver/system/locate.hpp"

#include <algorithm>
#include <cmath>

#include "operators/nodal.hpp"

namespace frmini::solver {

namespace {

// Reference centroids (PyFR's reference elements): Newton starts there.
std::array<double, 3> centroid(const std::string& etype) {
  if (etype == "tri") return {-1.0 / 3, -1.0 / 3, 0};
  if (etype == "tet") return {-0.5, -0.5, -0.5};
  if (etype == "pri") return {-1.0 / 3, -1.0 / 3, 0};
  if (etype == "pyr") return {0, 0, -0.5};
  return {0, 0, 0};  // quad, hex
}

// Solves the nd x nd system J d = r in place (Gaussian elimination with partial pivoting);
// false if J is singular.
bool solve(int nd, double J[3][3], double r[3]) {
  for (int c = 0; c < nd; ++c) {
    int piv = c;
    for (int i = c + 1; i < nd; ++i)
      if (std::abs(J[i][c]) > std::abs(J[piv][c])) piv = i;
    if (J[piv][c] == 0) return false;
    std::swap(J[c], J[piv]);
    std::swap(r[c], r[piv]);
    for (int i = c + 1; i < nd; ++i) {
      const double f = J[i][c] / J[c][c];
      for (int k = c; k < nd; ++k) J[i][k] -= f * J[c][k];
      r[i] -= f * r[c];
    }
  }
  for (int c = nd - 1; c >= 0; --c) {
    for (int k = c + 1; k < nd; ++k) r[c] -= J[c][k] * r[k];
    r[c] /= J[c][c];
  }
  return true;
}

// Newton on x(xi) = target within element e; true with xi set if it converged.
bool invert_map(const operators::NodalBasis& basis, const meshes::ElementGroup& g, int nd,
                int64_t e, const std::array<double, 3>& target, std::array<double, 3>& xi) {
  const std::size_t nn = std::size_t(g.nnodes);
  const double* X = &g.nodes[std::size_t(e) * nn * std::size_t(nd)];
  operators::Matrix p(1, std::size_t(nd));
  for (int it = 0; it < 60; ++it) {
    for (int k = 0; k < nd; ++k) p(0, std::size_t(k)) = xi[std::size_t(k)];
    const operators::Matrix N = basis.at(p), dN = basis.jac_at(p);  // 1 x nn, (nd nn) x 1
    double r[3] = {0, 0, 0}, J[3][3] = {};
    for (int c = 0; c < nd; ++c) {
      double x = 0;
      for (std::size_t u = 0; u < nn; ++u) x += N(0, u) * X[u * std::size_t(nd) + std::size_t(c)];
      r[c] = target[std::size_t(c)] - x;
      for (int k = 0; k < nd; ++k) {
        double d = 0;
        for (std::size_t u = 0; u < nn; ++u)
          d += dN(std::size_t(k) * nn + u, 0) * X[u * std::size_t(nd) + std::size_t(c)];
        J[c][k] = d;
      }
    }
    if (!solve(nd, J, r)) return false;
    double step = 0;
    for (int k = 0; k < nd; ++k) {
      // Damped far outside the element (a point in a neighbour): the polynomial map is not
      // meant to be evaluated there and Newton could wander.
      const double d = std::clamp(r[k], -1.0, 1.0);
      xi[std::size_t(k)] += d;
      step = std::max(step, std::abs(d));
    }
    if (step < 1e-14) return true;
    if (std::abs(xi[0]) > 10 || std::abs(xi[1]) > 10 || std::abs(xi[2]) > 10) return false;
  }
  return true;  // converged to rounding but never below 1e-14: the inside test decides
}

}  // namespace

bool in_reference_element(const std::string& etype, const double* x, double t) {
  const double a = x[0], b = x[1];
  if (etype == "quad") return std::abs(a) <= 1 + t && std::abs(b) <= 1 + t;
  if (etype == "tri") return a >= -1 - t && b >= -1 - t && a + b <= t;
  const double c = x[2];
  if (etype == "hex") return std::abs(a) <= 1 + t && std::abs(b) <= 1 + t && std::abs(c) <= 1 + t;
  if (etype == "tet") return a >= -1 - t && b >= -1 - t && c >= -1 - t && a + b + c <= -1 + t;
  if (etype == "pri") return a >= -1 - t && b >= -1 - t && a + b <= t && std::abs(c) <= 1 + t;
  if (etype == "pyr") {
    const double h = (1 - c) / 2 + t;
    return c >= -1 - t && c <= 1 + t && std::abs(a) <= h && std::abs(b) <= h;
  }
  return false;
}

std::vector<Location> locate_points(const meshes::Mesh& mesh,
                                    const std::vector<std::array<double, 3>>& pts) {
  const int nd = mesh.ndims;
  std::vector<Location> out(pts.size());
  // A point on a face between elements may come out of Newton a few 1e-9 outside both (the
  // map and its Jacobian are evaluated through the nodal basis, to about 1e-9): such a point
  // belongs to the first element it is within 1e-6 of, when no element holds it strictly.
  std::vector<Location> near(pts.size());
  for (std::size_t gi = 0; gi < mesh.groups.size(); ++gi) {
    const auto& g = mesh.groups[gi];
    const auto basis = operators::geometry_basis(g.etype, g.order);
    const std::size_t nn = std::size_t(g.nnodes);
    for (int64_t e = 0; e < g.neles; ++e) {
      // Bounding box of the element's nodes, widened by 5% of its size: a curved side can
      // bulge past its nodes, by a fraction of the box.
      double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
      const double* X = &g.nodes[std::size_t(e) * nn * std::size_t(nd)];
      for (std::size_t u = 0; u < nn; ++u)
        for (int c = 0; c < nd; ++c) {
          lo[c] = std::min(lo[c], X[u * std::size_t(nd) + std::size_t(c)]);
          hi[c] = std::max(hi[c], X[u * std::size_t(nd) + std::size_t(c)]);
        }
      double size = 0;
      for (int c = 0; c < nd; ++c) size = std::max(size, hi[c] - lo[c]);
      const double pad = 0.05 * size + 1e-12;
      for (std::size_t i = 0; i < pts.size(); ++i) {
        if (out[i].group >= 0) continue;
        bool in = true;
        for (int c = 0; c < nd && in; ++c) in = pts[i][std::size_t(c)] >= lo[c] - pad && pts[i][std::size_t(c)] <= hi[c] + pad;
        if (!in) continue;
        std::array<double, 3> xi = centroid(g.etype);
        if (!invert_map(basis, g, nd, e, pts[i], xi)) continue;
        if (in_reference_element(g.etype, xi.data(), 1e-9)) out[i] = {int(gi), e, xi};
        else if (near[i].group < 0 && in_reference_element(g.etype, xi.data(), 1e-6))
          near[i] = {int(gi), e, xi};
      }
    }
  }
  for (std::size_t i = 0; i < pts.size(); ++i)
    if (out[i].group < 0) out[i] = near[i];
  return out;
}

}  // namespace frmini::solver
