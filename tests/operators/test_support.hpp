// Test helpers: random polynomials in an element's space written with monomials (independent
// of the orthonormal bases under test) and exact quadrature on every reference element built
// by collapsing tensor Gauss–Legendre rules (Duffy), independent of the simplex tables.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "operators/linalg.hpp"
#include "operators/quadrules.hpp"
#include "tests/frmini_catch.hpp"

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

// Values of a polynomial at each row of pts.
inline std::vector<double> at(const Poly& u, const Matrix& pts) {
  std::vector<double> v(pts.rows);
  for (std::size_t i = 0; i < pts.rows; ++i) v[i] = u(&pts.data[i * pts.cols]);
  return v;
}

inline std::vector<double> mul(const Matrix& a, const std::vector<double>& x) {
  REQUIRE(a.cols == x.size());
  std::vector<double> y(a.rows, 0.0);
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t j = 0; j < a.cols; ++j) y[i] += a(i, j) * x[j];
  return y;
}

// Largest difference relative to the larger of 1 and the largest exact value b (monomials of
// degree 6 reach values of a few hundred, so an absolute tolerance would mean nothing).
inline double maxdiff(const std::vector<double>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  double m = 0.0, scale = 1.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    m = std::max(m, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return m / scale;
}

// A file of PyFR's matrices written by tools/pyfr-ref-operators: "matrix NAME ROWS COLS" then
// the rows; anti-aliasing files also name their quadrature rule ("qrule NAME NPTS").
struct Reference {
  std::string qrule;
  int npts = 0;
  std::map<std::string, Matrix> mats;
};

inline Reference read_reference(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  Reference ref;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("qrule ", 0) == 0) std::istringstream(line.substr(6)) >> ref.qrule >> ref.npts;
    if (line.rfind("matrix ", 0) != 0) continue;
    std::istringstream head(line.substr(7));
    std::string name;
    std::size_t rows = 0, cols = 0;
    head >> name >> rows >> cols;
    Matrix m(rows, cols);
    for (std::size_t i = 0; i < rows; ++i) {
      REQUIRE(std::getline(in, line));
      std::istringstream row(line);
      for (std::size_t j = 0; j < cols; ++j) REQUIRE(row >> m(i, j));
    }
    ref.mats[name] = m;
  }
  return ref;
}

// Largest entry difference relative to the reference's largest magnitude (at least 1).
inline double reldiff(const Matrix& a, const Matrix& b) {
  REQUIRE(a.rows == b.rows);
  REQUIRE(a.cols == b.cols);
  double err = 0.0;
  for (std::size_t k = 0; k < a.data.size(); ++k) err = std::max(err, std::abs(a.data[k] - b.data[k]));
  return err / std::max(1.0, max_abs(b));
}

}  // namespace frmini::operators::test
