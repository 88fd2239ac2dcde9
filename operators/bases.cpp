#include "operators/bases.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "operators/clean.hpp"
#include "operators/jacobi.hpp"

namespace frmini::operators {

namespace {

using Vec = std::vector<double>;

// Scaled Legendre values s_k·P_k(z), k < n, with s_k = sqrt(k + 1/2) (orthonormal on [-1,1]).
Vec legendre(int n, double z, bool diff = false) {
  Vec v = diff ? jacobi_diff(n - 1, 0, 0, z) : jacobi(n - 1, 0, 0, z);
  for (std::size_t k = 0; k < v.size(); ++k) v[k] *= std::pow(k + 0.5, 0.5);
  return v;
}

// Each evaluator appends, for one point, the basis values (or gradients, ndims per function,
// function-major) in PyFR's ordering. n = p + 1 as in PyFR.
void line_at(int n, const double* x, Vec& out) {
  for (double v : legendre(n, x[0])) out.push_back(v);
}
void line_jac(int n, const double* x, Vec& out) {
  for (double v : legendre(n, x[0], true)) out.push_back(v);
}

void quad_at(int n, const double* x, Vec& out) {
  const Vec pa = legendre(n, x[0]), pb = legendre(n, x[1]);
  for (double pi : pa)
    for (double pj : pb) out.push_back(pi * pj);
}
void quad_jac(int n, const double* x, Vec& out) {
  const Vec pa = legendre(n, x[0]), pb = legendre(n, x[1]);
  const Vec dpa = legendre(n, x[0], true), dpb = legendre(n, x[1], true);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      out.push_back(dpa[i] * pb[j]);
      out.push_back(pa[i] * dpb[j]);
    }
}

void hex_at(int n, const double* x, Vec& out) {
  const Vec pa = legendre(n, x[0]), pb = legendre(n, x[1]), pc = legendre(n, x[2]);
  for (double pi : pa)
    for (double pj : pb)
      for (double pk : pc) out.push_back(pi * pj * pk);
}
void hex_jac(int n, const double* x, Vec& out) {
  const Vec pa = legendre(n, x[0]), pb = legendre(n, x[1]), pc = legendre(n, x[2]);
  const Vec dpa = legendre(n, x[0], true), dpb = legendre(n, x[1], true),
            dpc = legendre(n, x[2], true);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        out.push_back(dpa[i] * pb[j] * pc[k]);
        out.push_back(pa[i] * dpb[j] * pc[k]);
        out.push_back(pa[i] * pb[j] * dpc[k]);
      }
}

// Collapsed coordinate of the triangle (and prism); the vertex η = 1 maps to a = −1 as in PyFR.
double tri_a(double p, double q) { return q != 1 ? 2 * (1 + p) / (1 - q) - 1 : -1; }

void tri_at(int n, const double* x, Vec& out) {
  const double a = tri_a(x[0], x[1]), b = x[1];
  const Vec f = jacobi(n - 1, 0, 0, a);
  for (int i = 0; i < n; ++i) {
    const double pa = f[i] * std::pow(1 - b, i);
    const Vec g = jacobi(n - i - 1, 2 * i + 1, 0, b);
    for (int j = 0; j < n - i; ++j) {
      const double cij = std::pow((2 * i + 1) * (2 * i + 2 * j + 2), 0.5) / std::pow(2.0, i + 1);
      out.push_back(cij * pa * g[j]);
    }
  }
}
void tri_jac(int n, const double* x, Vec& out) {
  const double a = tri_a(x[0], x[1]), b = x[1];
  const Vec f = jacobi(n - 1, 0, 0, a), df = jacobi_diff(n - 1, 0, 0, a);
  for (int i = 0; i < n; ++i) {
    const Vec g = jacobi(n - i - 1, 2 * i + 1, 0, b), dg = jacobi_diff(n - i - 1, 2 * i + 1, 0, b);
    for (int j = 0; j < n - i; ++j) {
      const double cij = std::pow((2 * i + 1) * (2 * i + 2 * j + 2), 0.5) / std::pow(2.0, i + 1);
      const double tmp = i > 0 ? std::pow(1 - b, i - 1) : 1.0;
      const double pij = 2 * tmp * df[i] * g[j];
      const double qij =
          tmp * (-i * f[i] + (1 + a) * df[i]) * g[j] + std::pow(1 - b, i) * f[i] * dg[j];
      out.push_back(cij * pij);
      out.push_back(cij * qij);
    }
  }
}

void tet_abc(const double* x, double& a, double& b, double& c) {
  const double p = x[0], q = x[1], r = x[2];
  a = r != -q ? -2 * (1 + p) / (q + r) - 1 : -1;
  b = r != 1 ? 2 * (1 + q) / (1 - r) - 1 : -1;
  c = r;
}

void tet_at(int n, const double* x, Vec& out) {
  double a, b, c;
  tet_abc(x, a, b, c);
  const Vec f = jacobi(n - 1, 0, 0, a);
  for (int i = 0; i < n; ++i) {
    const double ci = std::pow(2.0, -2 * i - 1) * std::pow(2 * i + 1, 0.5) * std::pow(1 - b, i);
    const Vec g = jacobi(n - i - 1, 2 * i + 1, 0, b);
    for (int j = 0; j < n - i; ++j) {
      const double cj = std::pow(i + j + 1, 0.5) * std::pow(2.0, -j) * std::pow(1 - c, i + j);
      const double cij = ci * cj, pij = f[i] * g[j];
      const Vec h = jacobi(n - i - j - 1, 2 * (i + j + 1), 0, c);
      for (int k = 0; k < n - i - j; ++k) {
        const double ck = std::pow(2 * (k + j + i) + 3, 0.5);
        out.push_back(cij * ck * pij * h[k]);
      }
    }
  }
}
void tet_jac(int n, const double* x, Vec& out) {
  double a, b, c;
  tet_abc(x, a, b, c);
  const Vec f = jacobi(n - 1, 0, 0, a), df = jacobi_diff(n - 1, 0, 0, a);
  for (int i = 0; i < n; ++i) {
    const double ci = std::pow(2.0, -2 * i - 1) * std::pow(2 * i + 1, 0.5);
    const Vec g = jacobi(n - i - 1, 2 * i + 1, 0, b), dg = jacobi_diff(n - i - 1, 2 * i + 1, 0, b);
    for (int j = 0; j < n - i; ++j) {
      const double cj = std::pow(i + j + 1, 0.5) * std::pow(2.0, -j);
      const double cij = ci * cj;
      const Vec h = jacobi(n - i - j - 1, 2 * (i + j + 1), 0, c);
      const Vec dh = jacobi_diff(n - i - j - 1, 2 * (i + j + 1), 0, c);
      for (int k = 0; k < n - i - j; ++k) {
        const double ck = std::pow(2 * (k + j + i) + 3, 0.5);
        const double cijk = cij * ck;
        const double tmp1 = i + j > 0 ? std::pow(1 - c, i + j - 1) : 1.0;
        const double tmp2 = i > 0 ? tmp1 * std::pow(1 - b, i - 1) : 1.0;
        const double fi = f[i], dfi = df[i], gj = g[j], dgj = dg[j], hk = h[k], dhk = dh[k];
        const double pijk = 4 * tmp2 * dfi * gj * hk;
        const double qijk =
            2 * (tmp2 * (-i * fi + (1 + a) * dfi) * gj + tmp1 * std::pow(1 - b, i) * fi * dgj) * hk;
        const double rijk = 2 * (1 + a) * tmp2 * dfi * gj * hk +
                            (1 + b) * tmp1 * std::pow(1 - b, i) * fi * dgj * hk +
                            std::pow(1 - c, i + j) * std::pow(1 - b, i) * fi * gj * dhk -
                            (i * (1 + b) * tmp2 + (i + j) * tmp1 * std::pow(1 - b, i)) * fi * gj * hk;
        out.push_back(cijk * pijk);
        out.push_back(cijk * qijk);
        out.push_back(cijk * rijk);
      }
    }
  }
}

void pri_at(int n, const double* x, Vec& out) {
  const double a = tri_a(x[0], x[1]), b = x[1], c = x[2];
  const Vec f = jacobi(n - 1, 0, 0, a);
  Vec pab;
  for (int i = 0; i < n; ++i) {
    const double ci = std::pow(1 - b, i) / std::pow(2.0, i + 1);
    const Vec g = jacobi(n - i - 1, 2 * i + 1, 0, b);
    for (int j = 0; j < n - i; ++j) {
      const double cij = std::pow((2 * i + 1) * (2 * i + 2 * j + 2), 0.5) * ci;
      pab.push_back(cij * f[i] * g[j]);
    }
  }
  const Vec pc = legendre(n, c);
  for (double pij : pab)
    for (double pk : pc) out.push_back(pij * pk);
}
void pri_jac(int n, const double* x, Vec& out) {
  const double a = tri_a(x[0], x[1]), b = x[1], c = x[2];
  const Vec f = jacobi(n - 1, 0, 0, a), df = jacobi_diff(n - 1, 0, 0, a);
  Vec pab;  // (pij, qij, rij) triples
  for (int i = 0; i < n; ++i) {
    const Vec g = jacobi(n - i - 1, 2 * i + 1, 0, b), dg = jacobi_diff(n - i - 1, 2 * i + 1, 0, b);
    for (int j = 0; j < n - i; ++j) {
      const double cij = std::pow((2 * i + 1) * (2 * i + 2 * j + 2), 0.5) / std::pow(2.0, i + 1);
      const double tmp = i > 0 ? std::pow(1 - b, i - 1) : 1.0;
      const double pij = 2 * tmp * df[i] * g[j];
      const double qij =
          tmp * (-i * f[i] + (1 + a) * df[i]) * g[j] + std::pow(1 - b, i) * f[i] * dg[j];
      const double rij = std::pow(1 - b, i) * f[i] * g[j];
      pab.push_back(cij * pij);
      pab.push_back(cij * qij);
      pab.push_back(cij * rij);
    }
  }
  const Vec hc = legendre(n, c), dhc = legendre(n, c, true);
  for (std::size_t m = 0; m < pab.size(); m += 3)
    for (int k = 0; k < n; ++k) {
      out.push_back(pab[m] * hc[k]);
      out.push_back(pab[m + 1] * hc[k]);
      out.push_back(pab[m + 2] * dhc[k]);
    }
}

// Pyramid: collapsed coordinates, apex (ζ = 1) maps to a = b = 0 as in PyFR.
Vec pyr_scaled(int n, double z, bool diff) {
  Vec v = diff ? jacobi_diff(n - 1, 0, 0, z) : jacobi(n - 1, 0, 0, z);
  for (std::size_t k = 0; k < v.size(); ++k)
    v[k] *= std::pow(2.0, -static_cast<double>(k) - 0.25) * std::pow(k + 0.5, 0.5);
  return v;
}

void pyr_at(int n, const double* x, Vec& out) {
  const double r = x[2];
  const double a = r != 1 ? 2 * x[0] / (1 - r) : 0, b = r != 1 ? 2 * x[1] / (1 - r) : 0, c = r;
  const Vec pa = pyr_scaled(n, a, false), pb = pyr_scaled(n, b, false);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double cij = std::pow(1 - c, i + j), pij = pa[i] * pb[j];
      const Vec pc = jacobi(n - std::max(i, j) - 1, 2 * (i + j + 1), 0, c);
      for (std::size_t k = 0; k < pc.size(); ++k) {
        const double ck = std::pow(2 * (static_cast<int>(k) + j + i) + 3, 0.5);
        out.push_back(cij * ck * pij * pc[k]);
      }
    }
}
void pyr_jac(int n, const double* x, Vec& out) {
  const double r = x[2];
  const double a = r != 1 ? 2 * x[0] / (1 - r) : 0, b = r != 1 ? 2 * x[1] / (1 - r) : 0, c = r;
  const Vec fc = pyr_scaled(n, a, false), gc = pyr_scaled(n, b, false);
  const Vec dfc = pyr_scaled(n, a, true), dgc = pyr_scaled(n, b, true);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const Vec h = jacobi(n - std::max(i, j) - 1, 2 * (i + j + 1), 0, c);
      const Vec dh = jacobi_diff(n - std::max(i, j) - 1, 2 * (i + j + 1), 0, c);
      for (std::size_t k = 0; k < h.size(); ++k) {
        const double ck = std::pow(2 * (static_cast<int>(k) + j + i) + 3, 0.5);
        const double tmp = i + j > 0 ? std::pow(1 - c, i + j - 1) : 1.0;
        const double fi = fc[i], dfi = dfc[i], gj = gc[j], dgj = dgc[j], hk = h[k], dhk = dh[k];
        const double pijk = 2 * tmp * dfi * gj * hk;
        const double qijk = 2 * tmp * fi * dgj * hk;
        const double rijk = tmp * (a * dfi * gj + b * fi * dgj - (i + j) * fi * gj) * hk +
                            std::pow(1 - c, i + j) * fi * gj * dhk;
        out.push_back(ck * pijk);
        out.push_back(ck * qijk);
        out.push_back(ck * rijk);
      }
    }
}

using Eval = void (*)(int, const double*, Vec&);
struct Basis {
  Eval at, jac;
};

Basis lookup(const std::string& shape) {
  if (shape == "line") return {line_at, line_jac};
  if (shape == "quad") return {quad_at, quad_jac};
  if (shape == "tri") return {tri_at, tri_jac};
  if (shape == "hex") return {hex_at, hex_jac};
  if (shape == "tet") return {tet_at, tet_jac};
  if (shape == "pri") return {pri_at, pri_jac};
  if (shape == "pyr") return {pyr_at, pyr_jac};
  throw std::invalid_argument("bases: unknown shape '" + shape + "'");
}

void check_pts(const std::string& shape, const Matrix& pts) {
  if (static_cast<int>(pts.cols) != shape_ndims(shape))
    throw std::invalid_argument("bases: " + shape + " points need " +
                                std::to_string(shape_ndims(shape)) + " coordinates");
}

}  // namespace

int shape_ndims(const std::string& shape) {
  if (shape == "line") return 1;
  if (shape == "quad" || shape == "tri") return 2;
  if (shape == "hex" || shape == "tet" || shape == "pri" || shape == "pyr") return 3;
  throw std::invalid_argument("bases: unknown shape '" + shape + "'");
}

int basis_size(const std::string& shape, int p) {
  const int n = p + 1;
  if (shape == "line") return n;
  if (shape == "quad") return n * n;
  if (shape == "tri") return n * (n + 1) / 2;
  if (shape == "hex") return n * n * n;
  if (shape == "tet") return n * (n + 1) * (n + 2) / 6;
  if (shape == "pri") return n * n * (n + 1) / 2;
  if (shape == "pyr") return n * (n + 1) * (2 * n + 1) / 6;
  throw std::invalid_argument("bases: unknown shape '" + shape + "'");
}

Matrix ortho_basis_at(const std::string& shape, int p, const Matrix& pts, bool do_clean) {
  check_pts(shape, pts);
  const Basis fn = lookup(shape);
  const std::size_t nb = basis_size(shape, p);
  Matrix phi(nb, pts.rows);
  Vec v;
  for (std::size_t x = 0; x < pts.rows; ++x) {
    v.clear();
    fn.at(p + 1, &pts.data[x * pts.cols], v);
    for (std::size_t j = 0; j < nb; ++j) phi(j, x) = v[j];
  }
  if (do_clean) clean(phi.data);
  return phi;
}

Matrix jac_ortho_basis_at(const std::string& shape, int p, const Matrix& pts, bool do_clean) {
  check_pts(shape, pts);
  const Basis fn = lookup(shape);
  const std::size_t nb = basis_size(shape, p), nd = pts.cols;
  Matrix d(nd * nb, pts.rows);
  Vec v;
  for (std::size_t x = 0; x < pts.rows; ++x) {
    v.clear();
    fn.jac(p + 1, &pts.data[x * pts.cols], v);
    for (std::size_t j = 0; j < nb; ++j)
      for (std::size_t k = 0; k < nd; ++k) d(k * nb + j, x) = v[j * nd + k];
  }
  if (do_clean) clean(d.data);
  return d;
}

}  // namespace frmini::operators
