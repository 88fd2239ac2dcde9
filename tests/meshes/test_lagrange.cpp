// The nodal basis and the quadrature: Kronecker property, partition of unity, gradients of the
// identity map, and exact reference volumes for every shape and order.
#include <cmath>

#include "meshes/element_types.hpp"
#include "meshes/geometry.hpp"
#include "meshes/lagrange.hpp"
#include "meshes/quadrature.hpp"
#include "tests/frmini_catch.hpp"

using namespace frmini::meshes;

TEST_CASE("Lagrange basis is nodal and reproduces linear maps", "[meshes]") {
  for (const auto& s : all_shapes())
    for (int k = 1; k <= 4; ++k) {
      LagrangeBasis b(s.name, k);
      auto v = b.values(b.nodes());
      const int n = b.nnodes();
      double err = 0;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) err = std::max(err, std::abs(v[size_t(i) * n + j] - (i == j)));
      INFO(s.name << " order " << k);
      CHECK(err < 1e-9);
      // Gradients of x_d (nodal values = node coordinates) are the unit vectors.
      Quadrature q = quadrature(s.name, 3);
      auto g = b.gradients(q.pts);
      double gerr = 0;
      const int d = s.ndims;
      for (size_t p = 0; p < q.pts.size(); ++p)
        for (int c = 0; c < d; ++c)
          for (int r = 0; r < d; ++r) {
            double sum = 0;
            for (int i = 0; i < n; ++i) sum += g[(p * d + c) * n + i] * b.nodes()[size_t(i)][r];
            gerr = std::max(gerr, std::abs(sum - (r == c)));
          }
      CHECK(gerr < 1e-9);
    }
}

TEST_CASE("quadrature integrates the reference volumes", "[meshes]") {
  const std::vector<std::pair<std::string, double>> vol = {
      {"tri", 2}, {"quad", 4}, {"tet", 4.0 / 3}, {"pri", 4}, {"pyr", 8.0 / 3}, {"hex", 8}};
  for (const auto& [name, v] : vol) {
    Quadrature q = quadrature(name, 4);
    double s = 0;
    for (double w : q.wts) s += w;
    INFO(name);
    CHECK(std::abs(s - v) < 1e-13);
  }
  // A cubic in x integrates exactly on the tet: int x^3 over the reference tet.
  Quadrature q = quadrature("tet", 3);
  double s = 0;
  for (size_t i = 0; i < q.pts.size(); ++i) s += q.wts[i] * std::pow(q.pts[i][0] + 1, 3);
  CHECK(std::abs(s - 8.0 / 15) < 1e-12);  // 64 x (1/120), the unit simplex moment of u^3
}

TEST_CASE("element geometry: volume, inverted elements and curved flags", "[meshes]") {
  // One order-2 quad: the reference square scaled by 0.5, with one edge node pushed out.
  ElementGroup g;
  g.etype = "quad";
  g.order = 2;
  g.nnodes = 9;
  g.neles = 1;
  for (const auto& p : lattice("quad", 2)) g.nodes.insert(g.nodes.end(), {0.5 * p[0], 0.5 * p[1]});
  auto geo = analyse_group(g, 2);
  CHECK(std::abs(geo.volume - 1.0) < 1e-13);
  CHECK(geo.n_bad == 0);
  CHECK(curved_flags(g, 2)[0] == 0);
  g.nodes[1 * 2 + 1] -= 0.1;  // node (0, -1): the bottom edge bulges by 0.1
  geo = analyse_group(g, 2);
  CHECK(std::abs(geo.volume - (1.0 + 2.0 / 3 * 0.1)) < 1e-12);  // parabolic cap: 2/3 b h
  CHECK(curved_flags(g, 2)[0] == 1);
  for (size_t i = 0; i < g.nodes.size(); i += 2) g.nodes[i] = -g.nodes[i];  // mirror: inverted
  CHECK(analyse_group(g, 2).n_bad == 1);
}
