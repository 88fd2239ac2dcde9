// Test helpers: random polynomials in an element's space written with monomials (independent
// of the orthonormal bases under test) and exact quadrature on every reference element built
// by collapsing tensor Gauss–Legendre rules (Duffy), independent of the simplex tables.
#pragma once

#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "operators/linalg.hpp"
#include "operators/quadrules.hpp"

namespace frmini::operators::test {

// Σ c·x^a y^b z^c over the monomials of the element's space at order p:
// quad/hex: each exponent ≤ p; tri/tet/pyr: total ≤ p (the pyramid space contains P_p);
// pri: a + b ≤ p and c ≤ p; line: a ≤ p.
class Poly {
 public:
  Poly(const std::string& etype, int p, int ndims, unsigned seed) : nd_(ndims) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    for (int a = 0; a <= p; ++a)
      for (int b = 0; b <= (nd_ > 1 ? p : 0); ++b)
        for (int c = 0; c <= (nd_ > 2 ? p : 0); ++c) {
          bool in = true;
          if (etype == "tri" || etype == "tet" || etype == "pyr") in = a + b + c <= p;
          if (etype == "pri") in = a + b <= p;
          if (in) terms_.push_back({{a, b, c}, dist(gen)});
        }
  }
  double operator()(const double* x) const {
    double s = 0.0;
    for (const auto& t : terms_) s += t.c * mono(x, t.e, -1);
    return s;
  }
  double d(const double* x, int k) const {
    double s = 0.0;
    for (const auto& t : terms_) s += t.c * mono(x, t.e, k);
    return s;
  }

 private:
  struct Term {
    std::array<int, 3> e;
    double c;
  };
  // The monomial, or its derivative along k (k ≥ 0).
  double mono(const double* x, const std::array<int, 3>& e, int k) const {
    double v = 1.0;
    for (int i = 0; i < nd_; ++i) {
      if (i == k) {
        if (e[i] == 0) return 0.0;
        v *= e[i] * std::pow(x[i], e[i] - 1);
      } else {
        v *= std::pow(x[i], e[i]);
      }
    }
    return v;
  }
  int nd_;
  std::vector<Term> terms_;
};

struct Rule {
  Matrix pts;
  std::vector<double> wts;
};

// An n-point-per-direction collapsed Gauss–Legendre rule on the reference `shape`.
inline Rule collapsed_rule(const std::string& shape, int n) {
  const QuadRule g = get_quadrule("line", "gauss-legendre", n);
  const auto& x = g.pts.data;
  const auto& w = g.wts;
  std::vector<std::vector<double>> pts;
  Rule r;
  auto add = [&](std::vector<double> p, double wt) {
    pts.push_back(std::move(p));
    r.wts.push_back(wt);
  };
  for (int i = 0; i < n; ++i) {
    if (shape == "line") {
      add({x[i]}, w[i]);
      continue;
    }
    for (int j = 0; j < n; ++j) {
      const double a = x[i], b = x[j], wab = w[i] * w[j];
      if (shape == "quad") add({a, b}, wab);
      if (shape == "tri") add({(1 + a) * (1 - b) / 2 - 1, b}, wab * (1 - b) / 2);
      for (int k = 0; k < n && shape != "quad" && shape != "tri"; ++k) {
        const double c = x[k], wabc = wab * w[k];
        if (shape == "hex") add({a, b, c}, wabc);
        if (shape == "pri") add({(1 + a) * (1 - b) / 2 - 1, b, c}, wabc * (1 - b) / 2);
        if (shape == "tet")
          add({(1 + a) * (1 - b) * (1 - c) / 4 - 1, (1 + b) * (1 - c) / 2 - 1, c},
              wabc * (1 - b) * (1 - c) * (1 - c) / 8);
        if (shape == "pyr")
          add({a * (1 - c) / 2, b * (1 - c) / 2, c}, wabc * (1 - c) * (1 - c) / 4);
      }
    }
  }
  r.pts = Matrix(pts.size(), pts[0].size());
  for (std::size_t i = 0; i < pts.size(); ++i)
    for (std::size_t j = 0; j < pts[i].size(); ++j) r.pts(i, j) = pts[i][j];
  return r;
}

}  // namespace frmini::operators::test
