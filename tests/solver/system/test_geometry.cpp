// Geometry of element groups: exact metric terms for affine elements, the discrete metric
// identities (the free-stream condition) on curved elements, and outward face normals.
#include <cmath>

#include "base/error.hpp"
#include "operators/operators.hpp"
#include "operators/shapes.hpp"
#include "solver/system/geometry.hpp"
#include "tests/frmini_catch.hpp"

using namespace frmini;

namespace {

// One element of `etype` at geometric order k whose nodes are map(std_ele node).
template <class Map>
meshes::ElementGroup element(const std::string& etype, int k, int nd, Map map, int copies = 1) {
  meshes::ElementGroup g;
  g.etype = etype;
  g.order = k;
  operators::Matrix pts = operators::std_ele(etype, k);
  g.nnodes = int(pts.rows);
  g.neles = copies;
  for (int c = 0; c < copies; ++c)
    for (std::size_t n = 0; n < pts.rows; ++n) {
      std::vector<double> xi(pts.data.begin() + n * nd, pts.data.begin() + (n + 1) * nd);
      auto x = map(xi, c);
      g.nodes.insert(g.nodes.end(), x.begin(), x.end());
    }
  return g;
}

double det3(const double a[3][3]) {
  return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
         a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
         a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
}

}  // namespace

TEST_CASE("affine elements have exact metric terms, locations and normals") {
  const double A[3][3] = {{1.3, 0.2, -0.1}, {0.1, 0.9, 0.3}, {-0.2, 0.1, 1.1}};
  const double b[3] = {0.5, -1.0, 2.0};
  const double det = det3(A);
  // adj(A) = det * A^-1, computed by cofactors: S_ab = det (A^-1)_ab.
  double S[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      int i1 = (j + 1) % 3, i2 = (j + 2) % 3, j1 = (i + 1) % 3, j2 = (i + 2) % 3;
      S[i][j] = A[i1][j1] * A[i2][j2] - A[i1][j2] * A[i2][j1];
    }
  for (std::string et : {"hex", "tet", "pri"}) {
    INFO(et);
    auto ops = operators::build_operators(et, 3);
    auto g = element(et, 1, 3, [&](const std::vector<double>& xi, int) {
      std::vector<double> x(3);
      for (int i = 0; i < 3; ++i) x[i] = b[i] + A[i][0] * xi[0] + A[i][1] * xi[1] + A[i][2] * xi[2];
      return x;
    });
    auto geo = solver::compute_geometry(g, 3, ops);
    for (int u = 0; u < ops.nupts; ++u) {
      CHECK(geo.rcpdjac_upts[u] == Approx(1.0 / det).epsilon(1e-12));
      for (int a = 0; a < 3; ++a) {
        double x = b[a] + A[a][0] * ops.upts(u, 0) + A[a][1] * ops.upts(u, 1) + A[a][2] * ops.upts(u, 2);
        CHECK(geo.ploc_upts[u * 3 + a] == Approx(x).margin(1e-12));
        for (int c = 0; c < 3; ++c) CHECK(geo.smats_upts[u * 9 + a * 3 + c] == Approx(S[a][c]).margin(1e-12));
      }
    }
    // Outward normals: pnorm points away from the element's centroid.
    const auto& verts = operators::shape(et).vertices;
    double xc[3] = {b[0], b[1], b[2]};
    for (int a = 0; a < 3; ++a)
      for (std::size_t v = 0; v < verts.rows; ++v)
        for (int k = 0; k < 3; ++k) xc[a] += A[a][k] * verts(v, k) / double(verts.rows);
    for (int f = 0; f < ops.nfpts; ++f) {
      double dot = 0;
      for (int c = 0; c < 3; ++c) dot += geo.pnorm_fpts[f * 3 + c] * (geo.ploc_fpts[f * 3 + c] - xc[c]);
      CHECK(dot > 0);
    }
  }
}

TEST_CASE("curved elements satisfy the discrete metric identities (free-stream condition)") {
  // sum_a d(S_ab)/dxi_a = 0 at the solution points, with the operators' own derivative M4:
  // this is what makes a uniform flow an exact steady solution on curved meshes.
  for (std::string et : {"hex", "quad", "tet", "tri", "pri"}) {
    for (int p : {1, 2, 3, 4}) {
      INFO(et << " p" << p);
      auto ops = operators::build_operators(et, p);
      const int nd = ops.ndims, nu = ops.nupts;
      auto g = element(et, 3, nd, [&](const std::vector<double>& xi, int c) {
        std::vector<double> x(xi);
        double s = 0.08 * (c + 1);
        x[0] += s * std::sin(1.1 * xi[1] + 0.3) * (nd == 3 ? std::cos(0.7 * xi[2]) : 1.0);
        x[1] += s * std::sin(0.9 * xi[0] - 0.2);
        if (nd == 3) x[2] += s * std::cos(1.3 * xi[0] + 0.5 * xi[1]);
        return x;
      }, 2);
      auto geo = solver::compute_geometry(g, nd, ops);
      for (int e = 0; e < 2; ++e)
        for (int bb = 0; bb < nd; ++bb)
          for (int i = 0; i < nu; ++i) {
            double div = 0;
            for (int a = 0; a < nd; ++a)
              for (int u = 0; u < nu; ++u)
                div += ops.m4(a * nu + i, u) * geo.smats_upts[((u * nd + a) * nd + bb) * 2 + e];
            CHECK(std::abs(div) < 1e-12);
          }
    }
  }
}

TEST_CASE("inverted elements are refused with a clear message") {
  auto ops = operators::build_operators("quad", 2);
  auto g = element("quad", 1, 2, [](const std::vector<double>& xi, int) {
    return std::vector<double>{-xi[0], xi[1]};  // mirrored: negative Jacobian
  });
  CHECK_THROWS_WITH(solver::compute_geometry(g, 2, ops),
                    Catch::Contains("element 0 of type quad has a non-positive Jacobian"));
}
