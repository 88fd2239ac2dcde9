// M0 interpolates, M1/M4 differentiate, and the FR divergence and gradient (docs/operators.md)
// are exact for polynomials of degree ≤ p, for every element type at orders 0..6.
#include <cmath>
#include <map>
#include <string>

#include "operators/operators.hpp"
#include "operators/shapes.hpp"
#include "tests/frmini_catch.hpp"
#include "tests/operators/test_support.hpp"

using namespace frmini::operators;
using namespace frmini::operators::test;  // Poly, at, maxdiff, mul

namespace {

const char* const kTypes[] = {"quad", "hex", "tri", "tet", "pri", "pyr"};

constexpr double kTol = 1e-10;

}  // namespace

TEST_CASE("M0 interpolates polynomials of degree <= p exactly", "[operators][exact]") {
  for (const std::string etype : kTypes)
    for (int p = 0; p <= 6; ++p) {
      INFO(etype << " p" << p);
      const auto ops = build_operators(etype, p);
      const Poly u(etype, p, ops.ndims, 17u + p);
      CHECK(maxdiff(mul(ops.m0, at(u, ops.upts)), at(u, ops.fpts)) < kTol);
    }
}

TEST_CASE("M1 and M4 differentiate polynomials of degree <= p exactly", "[operators][exact]") {
  for (const std::string etype : kTypes)
    for (int p = 0; p <= 6; ++p) {
      INFO(etype << " p" << p);
      const auto ops = build_operators(etype, p);
      const std::size_t nu = ops.nupts, nd = ops.ndims;
      const Poly u(etype, p, ops.ndims, 5u + p);

      // M4: gradient, stacked [k·nupts + e].
      std::vector<double> grad(nd * nu), flux(nd * nu), div(nu, 0.0);
      std::vector<Poly> f;
      for (std::size_t k = 0; k < nd; ++k) f.emplace_back(etype, p, ops.ndims, 100u + 7 * k + p);
      for (std::size_t k = 0; k < nd; ++k)
        for (std::size_t e = 0; e < nu; ++e) {
          const double* x = &ops.upts.data[e * nd];
          grad[k * nu + e] = u.d(x, static_cast<int>(k));
          flux[k * nu + e] = f[k](x);
          div[e] += f[k].d(x, static_cast<int>(k));
        }
      CHECK(maxdiff(mul(ops.m4, at(u, ops.upts)), grad) < kTol);
      CHECK(maxdiff(mul(ops.m1, flux), div) < kTol);
    }
}

TEST_CASE("FR divergence and gradient are exact for polynomial fields", "[operators][exact]") {
  for (const std::string etype : kTypes)
    for (int p = 0; p <= 6; ++p) {
      INFO(etype << " p" << p);
      const auto ops = build_operators(etype, p);
      const std::size_t nu = ops.nupts, nf = ops.nfpts, nd = ops.ndims;
      const Poly u(etype, p, ops.ndims, 3u + p);
      std::vector<Poly> f;
      for (std::size_t k = 0; k < nd; ++k) f.emplace_back(etype, p, ops.ndims, 50u + 3 * k + p);

      // Common values from the exact fields: u_c = u(x_f), F̃ⁿ_c = n̂·F(x_f), n̂ unnormalised.
      std::vector<double> flux(nd * nu), div(nu, 0.0), grad(nd * nu), fn(nf, 0.0);
      for (std::size_t k = 0; k < nd; ++k) {
        for (std::size_t e = 0; e < nu; ++e) {
          const double* x = &ops.upts.data[e * nd];
          flux[k * nu + e] = f[k](x);
          div[e] += f[k].d(x, static_cast<int>(k));
          grad[k * nu + e] = u.d(x, static_cast<int>(k));
        }
        for (std::size_t i = 0; i < nf; ++i) fn[i] += ops.norm_fpts(i, k) * f[k](&ops.fpts.data[i * nd]);
      }
      const auto uu = at(u, ops.upts), uc = at(u, ops.fpts);

      // div = M132·F̃ + M3·F̃ⁿ_c  and  grad = M460·u + M6·u_c (as the solver applies them).
      auto d1 = mul(ops.m132, flux), d2 = mul(ops.m3, fn);
      for (std::size_t e = 0; e < nu; ++e) d1[e] += d2[e];
      CHECK(maxdiff(d1, div) < kTol);
      auto g1 = mul(ops.m460, uu), g2 = mul(ops.m6, uc);
      for (std::size_t i = 0; i < g1.size(); ++i) g1[i] += g2[i];
      CHECK(maxdiff(g1, grad) < kTol);

      // The jump terms vanish: M2·F̃ and M0·u reproduce the exact face values.
      CHECK(maxdiff(mul(ops.m2, flux), fn) < kTol);
    }
}

TEST_CASE("M3 lifts: M3 = Mass^-1 Surf on quad faces with GL points", "[operators][exact]") {
  // For quad with Gauss–Legendre points the column of M3 for a flux point on face x = +1 is
  // g_R'(ξ_u)·δ(η_u, η_f), g_R = (L_p + L_{p+1})/2 the right Radau (DG) correction function.
  for (int p = 1; p <= 6; ++p) {
    INFO("p" << p);
    const auto ops = build_operators("quad", p);
    auto legendre_d = [](int n, double x) {  // P_n'(x) by the recurrence
      double p0 = 1, p1 = x, d0 = 0, d1 = 1;
      if (n == 0) return 0.0;
      for (int k = 1; k < n; ++k) {
        const double p2 = ((2 * k + 1) * x * p1 - k * p0) / (k + 1);
        const double d2 = d0 + (2 * k + 1) * p1;
        p0 = p1, p1 = p2, d0 = d1, d1 = d2;
      }
      return d1;
    };
    for (int f = 0; f < ops.nfpts; ++f) {
      if (ops.fpts_face[f] != 1) continue;  // face 1: (1, s)
      for (int u = 0; u < ops.nupts; ++u) {
        const double xi = ops.upts(u, 0), eta = ops.upts(u, 1);
        const double same = std::abs(eta - ops.fpts(f, 1)) < 1e-12 ? 1.0 : 0.0;
        const double want = same * 0.5 * (legendre_d(p, xi) + legendre_d(p + 1, xi));
        CHECK(std::abs(ops.m3(u, f) - want) < 1e-10);
      }
    }
  }
}

TEST_CASE("flux point weights integrate over faces: closed surface and divergence theorem",
          "[operators][exact]") {
  // Over the boundary of the reference element: sum w |n| n = 0 (a closed surface), and
  // sum w (x_0 n_0) = the element's volume (divergence theorem for the field (x_0, 0, 0)).
  const std::map<std::string, double> vol = {{"quad", 4.0}, {"hex", 8.0}, {"tri", 2.0},
                                             {"tet", 4.0 / 3}, {"pri", 4.0}, {"pyr", 8.0 / 3}};
  for (const auto& et : element_types())
    for (int p = 1; p <= 4; ++p) {
      INFO(et << " p" << p);
      auto ops = build_operators(et, p);
      REQUIRE(ops.fpts_wts.size() == std::size_t(ops.nfpts));
      std::vector<double> closed(ops.ndims, 0.0);
      double div = 0;
      for (int f = 0; f < ops.nfpts; ++f) {
        for (int d = 0; d < ops.ndims; ++d) closed[d] += ops.fpts_wts[f] * ops.norm_fpts(f, d);
        div += ops.fpts_wts[f] * ops.fpts(f, 0) * ops.norm_fpts(f, 0);
      }
      for (double c : closed) CHECK(std::abs(c) < 1e-12);
      CHECK(std::abs(div - vol.at(et)) < 1e-12);
    }
}
