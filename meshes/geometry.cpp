#include "meshes/geometry.hpp"

#include <algorithm>
#include <cmath>

#include "meshes/element_types.hpp"
#include "meshes/lagrange.hpp"
#include "meshes/quadrature.hpp"

namespace frmini::meshes {

namespace {

// Index in the lattice of order k of each reference vertex.
std::vector<int> vertex_nodes(const std::string& etype, int k) {
  const auto& s = shape(etype);
  auto lat = lattice(etype, k);
  std::vector<int> out;
  for (const auto& v : s.verts)
    for (size_t i = 0; i < lat.size(); ++i)
      if (std::abs(lat[i][0] - v[0]) + std::abs(lat[i][1] - v[1]) + std::abs(lat[i][2] - v[2]) < 1e-12)
        out.push_back(int(i));
  return out;
}

double det(const double* j, int d) {
  if (d == 2) return j[0] * j[3] - j[1] * j[2];
  return j[0] * (j[4] * j[8] - j[5] * j[7]) - j[1] * (j[3] * j[8] - j[5] * j[6]) +
         j[2] * (j[3] * j[7] - j[4] * j[6]);
}

}  // namespace

GroupGeometry analyse_group(const ElementGroup& g, int ndims) {
  LagrangeBasis basis(g.etype, g.order);
  const int nn = basis.nnodes(), d = ndims;
  // det J of order k is a polynomial of degree d*k - 1 per direction (more on collapsed
  // shapes); n points per direction integrate degree 2n-1, with margin for the Duffy factor.
  const int nq = (d * g.order) / 2 + 2;
  Quadrature q = quadrature(g.etype, nq);
  // Jacobians are also checked at the nodes, where inverted elements usually show first
  // (but not at the pyramid apex, where the rational basis has no gradient).
  std::vector<Point3> pts = q.pts;
  for (const auto& p : basis.nodes())
    if (!(g.etype == "pyr" && p[2] > 1 - 1e-12)) pts.push_back(p);
  const auto grad = basis.gradients(pts);
  const size_t npts = pts.size(), nquad = q.pts.size();

  GroupGeometry out;
  double vol = 0.0, jmin = 1e300;
  int64_t nbad = 0, first = -1;
#pragma omp parallel for reduction(+ : vol, nbad) reduction(min : jmin) schedule(static)
  for (int64_t e = 0; e < g.neles; ++e) {
    const double* x = g.nodes.data() + size_t(e) * nn * d;
    bool bad = false;
    for (size_t p = 0; p < npts; ++p) {
      double jac[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
      for (int r = 0; r < d; ++r)        // physical coordinate
        for (int c = 0; c < d; ++c) {    // reference direction
          const double* gp = grad.data() + (p * d + c) * nn;
          double s = 0.0;
          for (int n = 0; n < nn; ++n) s += gp[n] * x[n * d + r];
          jac[r * d + c] = s;
        }
      double dj = det(jac, d);
      jmin = std::min(jmin, dj);
      if (dj <= 0.0) bad = true;
      if (p < nquad) vol += q.wts[p] * dj;
    }
    if (bad) {
      ++nbad;
#pragma omp critical
      if (first < 0 || e < first) first = e;
    }
  }
  out.volume = vol;
  out.min_jacobian = jmin;
  out.n_bad = nbad;
  out.first_bad = first;
  return out;
}

std::vector<uint8_t> curved_flags(const ElementGroup& g, int ndims, double tol) {
  std::vector<uint8_t> flags(size_t(g.neles), 0);
  if (g.order == 1) return flags;
  const int d = ndims, nn = g.nnodes;
  LagrangeBasis lin(g.etype, 1);
  const auto vn = vertex_nodes(g.etype, g.order);
  const auto lv = lin.values(lattice(g.etype, g.order));  // [node][vertex]
  const int nv = lin.nnodes();
#pragma omp parallel for schedule(static)
  for (int64_t e = 0; e < g.neles; ++e) {
    const double* x = g.nodes.data() + size_t(e) * nn * d;
    double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
    for (int v : vn)
      for (int c = 0; c < d; ++c) {
        lo[c] = std::min(lo[c], x[v * d + c]);
        hi[c] = std::max(hi[c], x[v * d + c]);
      }
    double size = 0.0;
    for (int c = 0; c < d; ++c) size = std::max(size, hi[c] - lo[c]);
    double dev = 0.0;
    for (int n = 0; n < nn; ++n)
      for (int c = 0; c < d; ++c) {
        double s = 0.0;
        for (int v = 0; v < nv; ++v) s += lv[size_t(n) * nv + v] * x[vn[v] * d + c];
        dev = std::max(dev, std::abs(s - x[n * d + c]));
      }
    flags[size_t(e)] = dev > tol * size;
  }
  return flags;
}

}  // namespace frmini::meshes
