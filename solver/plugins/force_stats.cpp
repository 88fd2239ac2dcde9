#include "solver/plugins/force_stats.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace frmini::solver {

namespace {

// The linear interpolant of (t, y) at time s, t sorted, s within [t.front(), t.back()].
double at(const std::vector<double>& t, const std::vector<double>& y, double s) {
  auto it = std::upper_bound(t.begin(), t.end(), s);
  if (it == t.begin()) return y.front();
  if (it == t.end()) return y.back();
  const std::size_t j = std::size_t(it - t.begin()), i = j - 1;
  const double h = t[j] - t[i];
  return h > 0 ? y[i] + (y[j] - y[i]) * (s - t[i]) / h : y[j];
}

// Integrals of y and of (y - c)^2 over [a, b] for the piecewise-linear interpolant: exact for
// each linear piece (the square by Simpson's rule, exact for a quadratic).
struct Moments {
  double iy = 0, iyy = 0;
};
Moments integrate(const std::vector<double>& t, const std::vector<double>& y, double a, double b,
                  double c) {
  Moments m;
  std::vector<double> ts{a}, ys{at(t, y, a)};
  for (std::size_t i = 0; i < t.size(); ++i)
    if (t[i] > a && t[i] < b) ts.push_back(t[i]), ys.push_back(y[i]);
  ts.push_back(b), ys.push_back(at(t, y, b));
  for (std::size_t i = 1; i < ts.size(); ++i) {
    const double h = ts[i] - ts[i - 1], p = ys[i - 1] - c, q = ys[i] - c;
    m.iy += 0.5 * h * (ys[i - 1] + ys[i]);
    m.iyy += h / 3 * (p * p + p * q + q * q);
  }
  return m;
}

}  // namespace

ForceStats force_stats(const std::vector<double>& t, const std::vector<double>& cd,
                       const std::vector<double>& cl, const ForceStatsOptions& o) {
  if (cd.size() != t.size() || cl.size() != t.size())
    throw std::invalid_argument("force_stats: t, cd and cl differ in length");
  ForceStats r;
  if (t.size() < 2 || !(t.back() > t.front())) {
    r.note = "not enough samples";
    if (!t.empty()) r.t0 = r.t1 = t.front(), r.mean_cd = cd.front(), r.mean_cl = cl.front();
    return r;
  }
  double a = o.tstart > -1e300 ? std::max(o.tstart, t.front())
                               : t.front() + o.discard * (t.back() - t.front());
  const double b = t.back();
  if (!(a < b)) a = t.front();

  // The post-transient mean and spread of Cl set the crossing level and the hysteresis.
  const double span = b - a;
  const double mcl = integrate(t, cl, a, b, 0).iy / span;
  const double sd = std::sqrt(integrate(t, cl, a, b, mcl).iyy / span);
  std::vector<double> up;  // upward crossings of mcl
  bool armed = false;      // Cl has been below mcl - h since the last crossing
  const double h = 0.1 * sd;
  for (std::size_t i = 1; i < t.size(); ++i) {
    if (t[i - 1] < a || !(sd > 0)) continue;
    const double p = cl[i - 1] - mcl, q = cl[i] - mcl;
    if (p < -h) armed = true;
    if (armed && p < 0 && q >= 0) {
      up.push_back(t[i - 1] + (t[i] - t[i - 1]) * (-p) / (q - p));
      armed = false;
    }
  }
  r.ncycles = up.empty() ? 0 : int(up.size()) - 1;
  if (r.ncycles >= o.min_cycles) {
    r.cycles_found = true;
    r.t0 = up.front(), r.t1 = up.back();
    const double period = (r.t1 - r.t0) / r.ncycles;
    r.strouhal = o.lref / (period * o.uref);
  } else {
    r.t0 = a, r.t1 = b;
    // No commas: the note is a field of the summary CSV.
    r.note = "not enough cycles (" + std::to_string(r.ncycles) + " whole lift cycles after the "
             "transient; " + std::to_string(o.min_cycles) + " needed)";
  }
  const double w = r.t1 - r.t0;
  r.mean_cd = integrate(t, cd, r.t0, r.t1, 0).iy / w;
  r.mean_cl = integrate(t, cl, r.t0, r.t1, 0).iy / w;
  r.rms_cl = std::sqrt(integrate(t, cl, r.t0, r.t1, r.mean_cl).iyy / w);
  return r;
}

}  // namespace frmini::solver
