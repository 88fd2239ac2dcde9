// The orthonormal bases: orthonormal by exact quadrature on all seven shapes, gradients equal
// to finite differences, Jacobi polynomials against closed forms, and PyFR's clean.
#include <cmath>
#include <random>
#include <string>

#include "operators/bases.hpp"
#include "operators/clean.hpp"
#include "operators/jacobi.hpp"
#include "operators/nodal.hpp"
#include "operators/shapes.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/operators/test_support.hpp"

using namespace frmini::operators;

TEST_CASE("Jacobi polynomials and derivatives match closed forms", "[operators][bases]") {
  for (double z : {-1.0, -0.3, 0.0, 0.7, 1.0}) {
    const auto p = jacobi(3, 0, 0, z);  // Legendre
    REQUIRE(p.size() == 4);
    CHECK(p[0] == 1.0);
    CHECK(p[1] == Approx(z));
    CHECK(p[2] == Approx(0.5 * (3 * z * z - 1)).margin(1e-15));
    CHECK(p[3] == Approx(0.5 * (5 * z * z * z - 3 * z)).margin(1e-15));
    const auto d = jacobi_diff(3, 0, 0, z);
    CHECK(d[0] == 0.0);
    CHECK(d[1] == Approx(1.0));
    CHECK(d[2] == Approx(3 * z).margin(1e-15));
    CHECK(d[3] == Approx(0.5 * (15 * z * z - 3)).margin(1e-15));
    // P_1^{(a,b)} = ((a+b+2)z + a − b)/2.
    CHECK(jacobi(1, 3, 0, z)[1] == Approx((5 * z + 3) / 2));
  }
  CHECK(jacobi(-1, 0, 0, 0.5).empty());
}

TEST_CASE("bases are orthonormal by quadrature on all seven shapes", "[operators][bases]") {
  for (const std::string s : {"line", "quad", "tri", "hex", "tet", "pri", "pyr"})
    for (int p = 0; p <= 6; ++p) {
      INFO(s << " p" << p);
      // Products of two pyramid functions reach degree 4p + 2 in the collapsed ζ (with the
      // Jacobian); every other shape stays within 2p + 3.
      const auto rule = test::collapsed_rule(s, s == "pyr" ? 2 * p + 2 : p + 3);
      const Matrix phi = ortho_basis_at(s, p, rule.pts);
      REQUIRE(static_cast<int>(phi.rows) == basis_size(s, p));
      double err = 0.0;
      for (std::size_t i = 0; i < phi.rows; ++i)
        for (std::size_t j = 0; j < phi.rows; ++j) {
          double g = 0.0;
          for (std::size_t q = 0; q < phi.cols; ++q) g += rule.wts[q] * phi(i, q) * phi(j, q);
          err = std::max(err, std::abs(g - (i == j ? 1.0 : 0.0)));
        }
      CHECK(err < 1e-12);
    }
}

TEST_CASE("basis gradients equal finite differences", "[operators][bases]") {
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> dist(0.05, 0.3);
  for (const std::string s : {"line", "quad", "tri", "hex", "tet", "pri", "pyr"}) {
    const int nd = shape_ndims(s), p = 4;
    // Interior points: a random convex combination of the vertices (pyr/tri/tet stay off
    // the collapsed singularities).
    const Matrix& v = s == "line" ? Matrix(2, 1) : shape(s == "line" ? "quad" : s).vertices;
    Matrix x(1, nd);
    if (s == "line") {
      x(0, 0) = 0.37;
    } else {
      double tot = 0.0;
      std::vector<double> w(v.rows);
      for (auto& wi : w) tot += (wi = dist(gen));
      for (std::size_t i = 0; i < v.rows; ++i)
        for (int k = 0; k < nd; ++k) x(0, k) += w[i] / tot * v(i, k);
    }
    const Matrix d = jac_ortho_basis_at(s, p, x, false);
    const std::size_t nb = basis_size(s, p);
    for (int k = 0; k < nd; ++k) {
      const double h = 1e-6;
      Matrix xp = x, xm = x;
      xp(0, k) += h;
      xm(0, k) -= h;
      const Matrix fp = ortho_basis_at(s, p, xp, false), fm = ortho_basis_at(s, p, xm, false);
      for (std::size_t j = 0; j < nb; ++j) {
        INFO(s << " basis " << j << " direction " << k);
        CHECK(d(k * nb + j, 0) == Approx((fp(j, 0) - fm(j, 0)) / (2 * h)).margin(1e-6).epsilon(1e-6));
      }
    }
  }
}

TEST_CASE("nodal bases are Lagrange bases (geometry nodes)", "[operators][bases]") {
  for (const std::string s : {"line", "quad", "tri", "hex", "tet", "pri", "pyr"})
    for (int k = 1; k <= 3; ++k) {
      INFO(s << " k" << k);
      const NodalBasis b = geometry_basis(s, k);
      const Matrix l = b.at(b.pts());
      for (std::size_t i = 0; i < l.rows; ++i)
        for (std::size_t j = 0; j < l.cols; ++j) CHECK(std::abs(l(i, j) - (i == j)) < 1e-12);
      // Partition of unity: gradients sum to zero. Sampled at the nodes pulled 10% towards
      // the centroid: at the pyramid's apex the rational basis has no gradient (PyFR's
      // guard returns a finite but meaningless value there).
      Matrix x = b.pts();
      for (std::size_t c = 0; c < x.cols; ++c) {
        double mean = 0.0;
        for (std::size_t i = 0; i < x.rows; ++i) mean += x(i, c) / x.rows;
        for (std::size_t i = 0; i < x.rows; ++i) x(i, c) = mean + 0.9 * (x(i, c) - mean);
      }
      const Matrix d = b.jac_at(x);
      for (int dim = 0; dim < b.ndims(); ++dim)
        for (std::size_t x = 0; x < d.cols; ++x) {
          double sum = 0.0;
          for (std::size_t u = 0; u < b.size(); ++u) sum += d(dim * b.size() + u, x);
          CHECK(std::abs(sum) < 1e-10);
        }
    }
}

TEST_CASE("clean flushes and coalesces like PyFR", "[operators][bases]") {
  const double a = -1.0 + 1e-13, b = -0.5 * (1 + 4e-11);
  std::vector<double> v{1e-11, a, 1.0, 0.5, b, 0.25, 3e-10};
  clean(v);
  CHECK(v[0] == 0.0);                              // |a| < 1e-10 flushed
  CHECK(v[1] == -(std::abs(a) + 1.0) / 2);         // median of the run {|a|, 1}, sign kept
  CHECK(v[2] == (std::abs(a) + 1.0) / 2);
  CHECK(v[3] == (0.5 + std::abs(b)) / 2);
  CHECK(v[4] == -(0.5 + std::abs(b)) / 2);
  CHECK(v[5] == 0.25);
  CHECK(v[6] == 3e-10);
}
