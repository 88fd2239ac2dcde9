#include "kernels/matmul/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace frmini::kernels::matmul {

Analysis analyse(const HostMatrix& a, double alpha) {
  Analysis r;
  r.m = a.rows;
  r.k = a.cols;
  r.rows.resize(r.m);
  r.cols.resize(r.k);
  r.afix.assign(r.m, -1);
  r.alix.assign(r.m, -1);
  std::vector<double> mags;
  for (std::size_t i = 0; i < r.m; ++i)
    for (std::size_t j = 0; j < r.k; ++j) {
      double v = alpha * a(i, j);
      if (std::abs(a(i, j)) <= zero_tol || v == 0.0) continue;
      Nonzero nz{i, j, v};
      r.rows[i].push_back(nz);
      r.cols[j].push_back(nz);
      if (r.afix[i] < 0) r.afix[i] = long(j);
      r.alix[i] = long(j);
      ++r.nnz;
      mags.push_back(std::abs(v));
    }
  for (std::size_t j = 0; j < r.k; ++j)
    if (!r.cols[j].empty()) r.bix.push_back(j);
  for (std::size_t i = 0; i < r.m; ++i)
    if (!r.rows[i].empty()) ++r.m_nz;
  std::sort(mags.begin(), mags.end());
  for (std::size_t i = 0; i < mags.size(); ++i)
    if (i == 0 || mags[i] - mags[i - 1] > 1e-10 * mags[i]) ++r.unique_abs;
  return r;
}

double Analysis::min_bytes(double beta, std::size_t itemsize, std::size_t n) const {
  double s = double(itemsize), nn = double(n), ku = double(bix.size());
  if (beta == 0.0) return s * nn * (ku + double(m));
  if (beta == 1.0) return s * nn * (ku + 2.0 * double(m_nz));
  return s * nn * (ku + 2.0 * double(m));
}

std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t h) {
  auto p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) {
    h ^= p[i];
    h *= 1099511628211ULL;
  }
  return h;
}

std::uint64_t hash_matrix(const HostMatrix& a) {
  std::uint64_t h = fnv1a(&a.rows, sizeof a.rows);
  h = fnv1a(&a.cols, sizeof a.cols, h);
  return fnv1a(a.data.data(), a.data.size() * sizeof(double), h);
}

std::string hex64(std::uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace frmini::kernels::matmul
