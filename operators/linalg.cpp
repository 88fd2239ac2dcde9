#include "operators/linalg.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace frmini::operators {

Matrix matmul(const Matrix& a, const Matrix& b) {
  if (a.cols != b.rows)
    throw std::logic_error("matmul: shape mismatch " + std::to_string(a.rows) + "x" +
                           std::to_string(a.cols) + " * " + std::to_string(b.rows) + "x" +
                           std::to_string(b.cols));
  Matrix c(a.rows, b.cols);
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t k = 0; k < a.cols; ++k) {
      const double aik = a(i, k);
      if (aik == 0.0) continue;  // tensor-element operators are mostly zeros
      for (std::size_t j = 0; j < b.cols; ++j) c(i, j) += aik * b(k, j);
    }
  return c;
}

Matrix transpose(const Matrix& a) {
  Matrix t(a.cols, a.rows);
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t j = 0; j < a.cols; ++j) t(j, i) = a(i, j);
  return t;
}

Matrix subtract(const Matrix& a, const Matrix& b) {
  if (a.rows != b.rows || a.cols != b.cols) throw std::logic_error("subtract: shape mismatch");
  Matrix c = a;
  for (std::size_t i = 0; i < c.data.size(); ++i) c.data[i] -= b.data[i];
  return c;
}

Matrix identity(std::size_t n) {
  Matrix m(n, n);
  for (std::size_t i = 0; i < n; ++i) m(i, i) = 1.0;
  return m;
}

Matrix inverse(const Matrix& a) {
  if (a.rows != a.cols) throw std::logic_error("inverse: matrix is not square");
  const std::size_t n = a.rows;
  Matrix lu = a;
  std::vector<std::size_t> perm(n);
  for (std::size_t i = 0; i < n; ++i) perm[i] = i;

  for (std::size_t k = 0; k < n; ++k) {
    std::size_t piv = k;
    for (std::size_t i = k + 1; i < n; ++i)
      if (std::abs(lu(i, k)) > std::abs(lu(piv, k))) piv = i;
    if (lu(piv, k) == 0.0) throw std::runtime_error("inverse: singular matrix");
    if (piv != k) {
      for (std::size_t j = 0; j < n; ++j) std::swap(lu(k, j), lu(piv, j));
      std::swap(perm[k], perm[piv]);
    }
    for (std::size_t i = k + 1; i < n; ++i) {
      lu(i, k) /= lu(k, k);
      const double l = lu(i, k);
      for (std::size_t j = k + 1; j < n; ++j) lu(i, j) -= l * lu(k, j);
    }
  }

  // Solve L·U·x = P·e_j for each column j.
  Matrix inv(n, n);
  std::vector<double> x(n);
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t i = 0; i < n; ++i) x[i] = perm[i] == j ? 1.0 : 0.0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < i; ++k) x[i] -= lu(i, k) * x[k];
    for (std::size_t i = n; i-- > 0;) {
      for (std::size_t k = i + 1; k < n; ++k) x[i] -= lu(i, k) * x[k];
      x[i] /= lu(i, i);
    }
    for (std::size_t i = 0; i < n; ++i) inv(i, j) = x[i];
  }
  return inv;
}

double max_abs(const Matrix& a) {
  double m = 0.0;
  for (double v : a.data) m = std::max(m, std::abs(v));
  return m;
}

}  // namespace frmini::operators
