// What every kernel generator needs to know about a constant operator A (with alpha folded
// in), computed once: its non-zeros by row and by column, the rows of B it actually reads,
// the last column feeding each row of C (so a row can be stored as soon as it is complete),
// and the minimum bytes and flops of the product (the bandwidth floor: the B rows read and C,
// each moved once, C read too when beta != 0).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "kernels/matmul/provider.hpp"

namespace frmini::kernels::matmul {

// Entries with |a| <= this are zeros (the operators are "cleaned" the same way).
inline constexpr double zero_tol = 1e-12;

struct Nonzero {
  std::size_t row, col;
  double value;  // alpha already folded in
};

struct Analysis {
  std::size_t m = 0, k = 0;
  std::size_t nnz = 0;
  std::vector<std::vector<Nonzero>> rows;  // non-zeros of each row, by increasing column
  std::vector<std::vector<Nonzero>> cols;  // non-zeros of each column, by increasing row
  std::vector<std::size_t> bix;            // columns of A holding a non-zero (rows of B read)
  std::vector<long> afix, alix;            // first/last non-zero column of each row, -1 if none
  std::size_t m_nz = 0;                    // rows holding a non-zero
  std::size_t unique_abs = 0;              // distinct |a| (1e-10 relative)
  double density() const { return m && k ? double(nnz) / double(m * k) : 0.0; }

  // The floor: bytes a product over n columns must move, and its flops (2 per non-zero).
  double min_bytes(double beta, std::size_t itemsize, std::size_t n) const;
  double flops(std::size_t n) const { return 2.0 * double(nnz) * double(n); }
};

// alpha is folded into the values.
Analysis analyse(const HostMatrix& a, double alpha);

// Stable 64-bit FNV-1a hash, used for cache keys (std::hash is not stable across runs).
std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t h = 1469598103934665603ULL);
std::uint64_t hash_matrix(const HostMatrix& a);
std::string hex64(std::uint64_t h);

}  // namespace frmini::kernels::matmul
