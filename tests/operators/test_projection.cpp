// The projection from order p to order q (restart at another order), on every element type
// for p, q in 1..4: its quadrature, exactness on the functions both spaces hold, the round
// trip, the identity at q == p, and for q < p the L2 property (the residual is orthogonal to
// the order-q space), checked with the tests' own collapsed rule and polynomials.
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "operators/bases.hpp"
#include "operators/nodal.hpp"
#include "operators/operators.hpp"
#include "operators/projection.hpp"
#include "operators/shapes.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/operators/test_support.hpp"

using namespace frmini::operators;
using namespace frmini::operators::test;  // Poly, at, maxdiff, mul

namespace {

std::vector<double> random_values(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> v(n);
  for (double& x : v) x = dist(gen);
  return v;
}

// ∫ a b over the reference element with `rule`, a and b given at its points.
double integral(const test::Rule& rule, const std::vector<double>& a, const double* b) {
  double s = 0.0;
  for (std::size_t x = 0; x < rule.wts.size(); ++x) s += rule.wts[x] * a[x] * b[x];
  return s;
}

}  // namespace

TEST_CASE("projection: its collapsed rule has the element's volume and integrates the bases exactly",
          "[operators][projection]") {
  const std::map<std::string, double> volume = {{"quad", 4.0}, {"tri", 2.0}, {"hex", 8.0},
                                                {"tet", 4.0 / 3}, {"pri", 4.0}, {"pyr", 8.0 / 3}};
  for (const std::string& etype : element_types())
    for (int p = 1; p <= 4; ++p)
      for (int q = 1; q <= 4; ++q) {
        INFO(etype << " p" << p << " q" << q);
        const QuadRule r = collapsed_gauss_rule(etype, p + q + 2);
        double vol = 0.0;
        for (double w : r.wts) vol += w;
        CHECK(std::abs(vol - volume.at(etype)) < 1e-13);
        // The mixed products ∫ φ_j ψ_k the projection takes from it, against the tests' own
        // rule with more points: exact. And the order-q basis is orthonormal (a rule exact
        // for its squares): the projection needs no mass matrix.
        const auto ref = test::collapsed_rule(etype, p + q + 4);
        const Matrix phi = ortho_basis_at(etype, q, r.pts, false);
        const Matrix psi = ortho_basis_at(etype, p, r.pts, false);
        const Matrix phr = ortho_basis_at(etype, q, ref.pts, false);
        const Matrix psr = ortho_basis_at(etype, p, ref.pts, false);
        double err = 0.0;
        for (std::size_t j = 0; j < phi.rows; ++j)
          for (std::size_t k = 0; k < psi.rows; ++k) {
            double s = 0.0, t = 0.0;
            for (std::size_t x = 0; x < r.wts.size(); ++x) s += r.wts[x] * phi(j, x) * psi(k, x);
            for (std::size_t x = 0; x < ref.wts.size(); ++x)
              t += ref.wts[x] * phr(j, x) * psr(k, x);
            err = std::max(err, std::abs(s - t));
          }
        CHECK(err < 1e-13);
        const QuadRule sq = collapsed_gauss_rule(etype, 2 * q + 2);
        const Matrix f = ortho_basis_at(etype, q, sq.pts, false);
        double orth = 0.0;
        for (std::size_t i = 0; i < f.rows; ++i)
          for (std::size_t j = 0; j < f.rows; ++j) {
            double s = 0.0;
            for (std::size_t x = 0; x < sq.wts.size(); ++x) s += sq.wts[x] * f(i, x) * f(j, x);
            orth = std::max(orth, std::abs(s - (i == j ? 1.0 : 0.0)));
          }
        CHECK(orth < 1e-13);
      }
}

TEST_CASE("projection: exact for the polynomials both orders hold", "[operators][projection]") {
  // Poly(etype, m) spans the element's order-m space: total degree ≤ m on tri/tet/pyr, the
  // tensor space Q_m on quad/hex (each exponent ≤ m, more than total degree m), P_m ⊗ P_m on
  // the prism; with m = min(p, q) it lies in both spaces, so the projection keeps it.
  for (const std::string& etype : element_types())
    for (int p = 1; p <= 4; ++p)
      for (int q = 1; q <= 4; ++q) {
        INFO(etype << " p" << p << " q" << q);
        const Poly u(etype, std::min(p, q), shape(etype).ndims, 31u * p + 7u * q);
        const Matrix xp = solution_points(etype, p), xq = solution_points(etype, q);
        const Matrix P = projection_matrix(etype, p, q);
        REQUIRE(int(P.rows) == nupts_for(etype, q));
        REQUIRE(int(P.cols) == nupts_for(etype, p));
        CHECK(maxdiff(mul(P, at(u, xp)), at(u, xq)) < 1e-12);
        // Back to p: the same polynomial.
        CHECK(maxdiff(mul(projection_matrix(etype, q, p), mul(P, at(u, xp))), at(u, xp)) < 1e-12);
      }
  // The Lobatto sets of the tensor elements and the prism, too.
  using Set = std::pair<std::string, std::string>;
  for (const auto& [etype, set] : {Set{"quad", "gauss-legendre-lobatto"},
                                   Set{"hex", "gauss-legendre-lobatto"},
                                   Set{"pri", "williams-shunn~gauss-legendre-lobatto"}})
    for (int p = 1; p <= 3; ++p) {
      const int q = p + 1;
      INFO(etype << " " << set << " p" << p);
      const Poly u(etype, p, shape(etype).ndims, 5u + p);
      CHECK(maxdiff(mul(projection_matrix(etype, p, q, set), at(u, solution_points(etype, p, set))),
                    at(u, solution_points(etype, q, set))) < 1e-12);
    }
}

TEST_CASE("projection: a higher order holds the whole lower space so p -> q -> p is the identity",
          "[operators][projection]") {
  // Any nodal values (not only polynomials of degree ≤ p) come back: the order-p space lies
  // in the order-q space for q > p on every element type, the pyramid's included.
  for (const std::string& etype : element_types())
    for (int p = 1; p <= 3; ++p)
      for (int q = p + 1; q <= 4; ++q) {
        INFO(etype << " p" << p << " q" << q);
        const auto f = random_values(nupts_for(etype, p), 11u * p + q);
        const auto up = mul(projection_matrix(etype, p, q), f);
        const auto back = mul(projection_matrix(etype, q, p), up);
        CHECK(maxdiff(back, f) < 1e-12);
      }
}

TEST_CASE("projection: the same order is the identity", "[operators][projection]") {
  for (const std::string& etype : element_types())
    for (int p = 0; p <= 4; ++p) {
      INFO(etype << " p" << p);
      const Matrix P = projection_matrix(etype, p, p);
      CHECK(P.data == identity(nupts_for(etype, p)).data);  // exactly: bit for bit restarts
      CHECK(max_abs(subtract(l2_projection_matrix(etype, p, p), identity(P.rows))) < 1e-12);
    }
}

TEST_CASE("projection: to a lower order it is the L2 projection (residual orthogonal to order q)",
          "[operators][projection]") {
  for (const std::string& etype : element_types())
    for (int p = 2; p <= 4; ++p)
      for (int q = 1; q < p; ++q) {
        INFO(etype << " p" << p << " q" << q);
        const Matrix xp = solution_points(etype, p), xq = solution_points(etype, q);
        const auto f = random_values(xp.rows, 3u * p + q);
        const auto g = mul(projection_matrix(etype, p, q), f);
        // f (order p) and its projection g (order q) at the points of a rule exact for the
        // products of their residual with the order-q basis.
        const auto rule = test::collapsed_rule(etype, p + q + 3);
        const auto fx = mul(NodalBasis(etype, p, xp).at(rule.pts), f);
        const auto gx = mul(NodalBasis(etype, q, xq).at(rule.pts), g);
        std::vector<double> r(fx.size());
        for (std::size_t x = 0; x < r.size(); ++x) r[x] = fx[x] - gx[x];
        const Matrix phi = ortho_basis_at(etype, q, rule.pts, false);
        double worst = 0.0, norm = std::sqrt(integral(rule, fx, fx.data()));
        for (std::size_t j = 0; j < phi.rows; ++j)
          worst = std::max(worst, std::abs(integral(rule, r, &phi.data[j * phi.cols])));
        CHECK(worst < 1e-12 * std::max(1.0, norm));
        // Not the interpolant: the residual itself is not zero (f has order-p content).
        CHECK(std::sqrt(integral(rule, r, r.data())) > 1e-3 * norm);
      }
}

TEST_CASE("projection: bad element types or orders or point sets are user errors",
          "[operators][projection]") {
  CHECK_THROWS_AS(projection_matrix("hexagon", 1, 2), frmini::UserError);
  CHECK_THROWS_AS(projection_matrix("hex", -1, 2), frmini::UserError);
  CHECK_THROWS_AS(projection_matrix("tet", 1, 2, "gauss-legendre"), frmini::UserError);
  CHECK_THROWS_AS(projection_matrix("tet", 1, 9), frmini::UserError);  // beyond the tables
}
