#include "operators/clean.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numeric>

namespace frmini::operators {

namespace {
// np.median of an ascending run of values.
double median(const std::vector<double>& a, const std::vector<std::size_t>& ix, std::size_t i,
              std::size_t j) {
  const std::size_t n = j - i, mid = i + n / 2;
  return n % 2 ? a[ix[mid]] : (a[ix[mid - 1]] + a[ix[mid]]) / 2;
}
}  // namespace

void clean(std::vector<double>& arr, double tol) {
  for (double& v : arr)
    if (std::abs(v) < tol) v = 0.0;
  if (arr.size() <= 1) return;

  std::vector<double> amfl(arr.size());
  for (std::size_t k = 0; k < arr.size(); ++k) amfl[k] = std::abs(arr[k]);
  std::vector<std::size_t> amix(arr.size());
  std::iota(amix.begin(), amix.end(), std::size_t{0});
  std::stable_sort(amix.begin(), amix.end(),
                   [&](std::size_t a, std::size_t b) { return amfl[a] < amfl[b]; });

  // Runs are measured from their first (smallest) member, as in PyFR: np.isclose(x, first).
  const double atol = 0.1 * tol;
  std::size_t i = 0, ix = amix[0], j = 1;
  for (; j < amix.size(); ++j) {
    const std::size_t jx = amix[j];
    if (!(std::abs(amfl[jx] - amfl[ix]) <= atol + tol * std::abs(amfl[ix]))) {
      if (j - i > 1) {
        const double m = median(amfl, amix, i, j);
        for (std::size_t k = i; k < j; ++k) amfl[amix[k]] = m;
      }
      i = j;
      ix = jx;
    }
  }
  j = amix.size() - 1;
  if (i != j) {
    const double m = median(amfl, amix, i, amix.size());
    for (std::size_t k = i; k < amix.size(); ++k) amfl[amix[k]] = m;
  }
  for (std::size_t k = 0; k < arr.size(); ++k) arr[k] = std::copysign(amfl[k], arr[k]);
}

}  // namespace frmini::operators
