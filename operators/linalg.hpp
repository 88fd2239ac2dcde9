// Small dense linear algebra for building operators on the host: a row-major double matrix,
// products, transposes and an LU-based inverse. Sizes are at most a few hundred, so plain
// loops are fast enough and keep operators/ free of BLAS/LAPACK.
#pragma once

#include <cstddef>
#include <vector>

namespace frmini::operators {

// Row-major dense matrix. Also used for point sets: one point per row, one column per
// reference coordinate (the layout of PyFR's `pts` arrays).
struct Matrix {
  std::size_t rows = 0, cols = 0;
  std::vector<double> data;  // row-major, rows*cols

  Matrix() = default;
  Matrix(std::size_t r, std::size_t c, double v = 0.0) : rows(r), cols(c), data(r * c, v) {}

  double& operator()(std::size_t i, std::size_t j) { return data[i * cols + j]; }
  double operator()(std::size_t i, std::size_t j) const { return data[i * cols + j]; }
};

Matrix matmul(const Matrix& a, const Matrix& b);     // a·b
Matrix transpose(const Matrix& a);
Matrix subtract(const Matrix& a, const Matrix& b);   // a − b
Matrix identity(std::size_t n);
// Inverse by LU with partial pivoting; throws std::runtime_error if a is singular (an internal
// error: a point set unisolvent for its basis never is).
Matrix inverse(const Matrix& a);
double max_abs(const Matrix& a);

}  // namespace frmini::operators
