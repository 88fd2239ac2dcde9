#include "meshes/lagrange.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace frmini::meshes {

namespace {

double ipow(double x, int n) {
  double r = 1.0;
  for (int k = 0; k < n; ++k) r *= x;
  return r;
}

// Inverts a dense n x n matrix (row-major) by Gauss-Jordan with partial pivoting.
std::vector<double> invert(std::vector<double> a, int n) {
  std::vector<double> inv(size_t(n) * n, 0.0);
  for (int i = 0; i < n; ++i) inv[size_t(i) * n + i] = 1.0;
  for (int c = 0; c < n; ++c) {
    int piv = c;
    for (int r = c + 1; r < n; ++r)
      if (std::abs(a[size_t(r) * n + c]) > std::abs(a[size_t(piv) * n + c])) piv = r;
    if (std::abs(a[size_t(piv) * n + c]) < 1e-13)
      throw std::runtime_error("LagrangeBasis: singular Vandermonde matrix");
    for (int k = 0; k < n; ++k) {
      std::swap(a[size_t(c) * n + k], a[size_t(piv) * n + k]);
      std::swap(inv[size_t(c) * n + k], inv[size_t(piv) * n + k]);
    }
    double d = a[size_t(c) * n + c];
    for (int k = 0; k < n; ++k) {
      a[size_t(c) * n + k] /= d;
      inv[size_t(c) * n + k] /= d;
    }
    for (int r = 0; r < n; ++r) {
      if (r == c) continue;
      double f = a[size_t(r) * n + c];
      if (f == 0.0) continue;
      for (int k = 0; k < n; ++k) {
        a[size_t(r) * n + k] -= f * a[size_t(c) * n + k];
        inv[size_t(r) * n + k] -= f * inv[size_t(c) * n + k];
      }
    }
  }
  return inv;
}

}  // namespace

LagrangeBasis::LagrangeBasis(const std::string& etype, int order)
    : etype_(etype), ndims_(shape(etype).ndims), pyr_(etype == "pyr") {
  nodes_ = lattice(etype, order);
  nnodes_ = int(nodes_.size());
  const int k = order;
  if (etype == "quad") {
    for (int j = 0; j <= k; ++j)
      for (int i = 0; i <= k; ++i) terms_.push_back({i, j, 0, 0});
  } else if (etype == "hex") {
    for (int l = 0; l <= k; ++l)
      for (int j = 0; j <= k; ++j)
        for (int i = 0; i <= k; ++i) terms_.push_back({i, j, l, 0});
  } else if (etype == "tri") {
    for (int j = 0; j <= k; ++j)
      for (int i = 0; i + j <= k; ++i) terms_.push_back({i, j, 0, 0});
  } else if (etype == "tet") {
    for (int l = 0; l <= k; ++l)
      for (int j = 0; j + l <= k; ++j)
        for (int i = 0; i + j + l <= k; ++i) terms_.push_back({i, j, l, 0});
  } else if (etype == "pri") {
    for (int l = 0; l <= k; ++l)
      for (int j = 0; j <= k; ++j)
        for (int i = 0; i + j <= k; ++i) terms_.push_back({i, j, l, 0});
  } else {  // pyr
    for (int i = 0; i <= k; ++i)
      for (int j = 0; j <= k; ++j) {
        int m = std::max(i, j);
        for (int l = 0; l + m <= k; ++l) terms_.push_back({i, j, l, m});
      }
  }
  if (int(terms_.size()) != nnodes_) throw std::logic_error("LagrangeBasis: term count");
  std::vector<double> v(size_t(nnodes_) * nnodes_);
  std::vector<double> tv(nnodes_);
  for (int n = 0; n < nnodes_; ++n) {
    eval_terms(nodes_[n], tv.data(), nullptr);
    for (int t = 0; t < nnodes_; ++t) v[size_t(n) * nnodes_ + t] = tv[t];
  }
  coeff_ = invert(std::move(v), nnodes_);
}

void LagrangeBasis::eval_terms(const Point3& p, double* val, double* grad) const {
  const double x = p[0], y = p[1], z = p[2];
  for (size_t t = 0; t < terms_.size(); ++t) {
    const Term& T = terms_[t];
    if (!pyr_) {
      double px = ipow(x, T.i), py = ipow(y, T.j), pz = ipow(z, T.l);
      val[t] = px * py * pz;
      if (grad) {
        grad[0 * terms_.size() + t] = T.i ? T.i * ipow(x, T.i - 1) * py * pz : 0.0;
        grad[1 * terms_.size() + t] = T.j ? T.j * px * ipow(y, T.j - 1) * pz : 0.0;
        if (ndims_ == 3) grad[2 * terms_.size() + t] = T.l ? T.l * px * py * ipow(z, T.l - 1) : 0.0;
      }
      continue;
    }
    const double w = 0.5 * (1.0 - z);
    if (w <= 1e-14) {  // the apex: only the pure z^l terms survive (a, b stay bounded)
      val[t] = (T.m == 0) ? ipow(z, T.l) : 0.0;
      if (grad) throw std::domain_error("LagrangeBasis: gradient at the pyramid apex");
      continue;
    }
    const double a = x / w, b = y / w;
    const double pa = ipow(a, T.i), pb = ipow(b, T.j), pw = ipow(w, T.m), pz = ipow(z, T.l);
    val[t] = pa * pb * pw * pz;
    if (grad) {
      const size_t n = terms_.size();
      // a = x/w, b = y/w: d/dx = (1/w) d/da; at fixed x, y, da/dz = a/(2w).
      grad[0 * n + t] = T.i ? T.i * ipow(a, T.i - 1) * pb * pw * pz / w : 0.0;
      grad[1 * n + t] = T.j ? T.j * pa * ipow(b, T.j - 1) * pw * pz / w : 0.0;
      double dz = (T.l ? T.l * ipow(z, T.l - 1) : 0.0) * pa * pb * pw;
      // d(a^i b^j w^m)/dz = a^i b^j w^(m-1) (i + j - m) / 2
      if (T.i + T.j - T.m != 0) dz += 0.5 * (T.i + T.j - T.m) * pa * pb * ipow(w, T.m - 1) * pz;
      grad[2 * n + t] = dz;
    }
  }
}

std::vector<double> LagrangeBasis::values(const std::vector<Point3>& pts) const {
  const int n = nnodes_;
  std::vector<double> out(pts.size() * n, 0.0), tv(n);
  for (size_t p = 0; p < pts.size(); ++p) {
    eval_terms(pts[p], tv.data(), nullptr);
    for (int t = 0; t < n; ++t)
      for (int k = 0; k < n; ++k) out[p * n + k] += tv[t] * coeff_[size_t(t) * n + k];
  }
  return out;
}

std::vector<double> LagrangeBasis::gradients(const std::vector<Point3>& pts) const {
  const int n = nnodes_, d = ndims_;
  std::vector<double> out(pts.size() * d * n, 0.0), tv(n), tg(size_t(3) * n);
  for (size_t p = 0; p < pts.size(); ++p) {
    eval_terms(pts[p], tv.data(), tg.data());
    for (int dd = 0; dd < d; ++dd)
      for (int t = 0; t < n; ++t) {
        double g = tg[size_t(dd) * n + t];
        if (g == 0.0) continue;
        for (int k = 0; k < n; ++k) out[(p * d + dd) * n + k] += g * coeff_[size_t(t) * n + k];
      }
  }
  return out;
}

}  // namespace frmini::meshes
