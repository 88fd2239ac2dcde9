#include "operators/jacobi.hpp"

namespace frmini::operators {

std::vector<double> jacobi(int n, double a, double b, double z) {
  std::vector<double> j;
  if (n < 0) return j;
  j.push_back(1.0);
  if (n >= 1) j.push_back(((a + b + 2) * z + a - b) / 2);
  if (n >= 2) {
    const double apb = a + b, bbmaa = b * b - a * a;
    for (int q = 2; q <= n; ++q) {
      const double qapbpq = q * (apb + q), apbp2q = apb + 2 * q;
      const double apbp2qm1 = apbp2q - 1, apbp2qm2 = apbp2q - 2;
      const double aq = apbp2q * apbp2qm1 / (2 * qapbpq);
      const double bq = apbp2qm1 * bbmaa / (2 * qapbpq * apbp2qm2);
      const double cq = apbp2q * (a + q - 1) * (b + q - 1) / (qapbpq * apbp2qm2);
      const double jm1 = j[j.size() - 1], jm2 = j[j.size() - 2];
      j.push_back((aq * z - bq) * jm1 - cq * jm2);
    }
  }
  return j;
}

std::vector<double> jacobi_diff(int n, double a, double b, double z) {
  std::vector<double> dj;
  if (n < 0) return dj;
  dj.push_back(0.0);
  if (n >= 1) {
    const auto jp = jacobi(n - 1, a + 1, b + 1, z);
    for (std::size_t i = 0; i < jp.size(); ++i)
      dj.push_back(jp[i] * (static_cast<double>(i) + a + b + 2) / 2);
  }
  return dj;
}

}  // namespace frmini::operators
