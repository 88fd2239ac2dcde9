// The time-average plugin's arithmetic, apart from the run so that it can be tested alone:
// conserved to primitive variables, and a running time-weighted mean of per-group fields
// sampled at increasing times. Between samples the field is taken as linear in time, and the
// means are exact integrals of that piecewise-linear history: the trapezoidal rule for the
// fields themselves, and for the products of two fields (second moments) the integral of the
// product of their linear pieces, so a field linear in time has an exact mean and variance
// however unevenly the samples are spaced (the PI controller's steps).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace frmini::solver {

using GroupFields = std::vector<std::vector<double>>;  // per group [neles][nvars][nupts]

// rho, rho u_i, E -> rho, u_i, p = (gamma - 1)(E - rho |u|^2 / 2), in place, in the layout of
// System::download_solution (nvars = ndims + 2).
void conserved_to_primitive(GroupFields& s, int ndims, const std::vector<std::size_t>& nupts,
                            double gamma);

// The products a turbulence study needs of the primitive variables rho, u, v[, w], p: the
// velocity components' (uu vv ww uv uw vw in 3D, uu vv uv in 2D) and pp, as variable pairs
// and names. Reynolds stresses and rms pressure follow as <ab> - <a><b>.
struct Moments {
  std::vector<std::pair<int, int>> pairs;
  std::vector<std::string> names;
};
Moments velocity_pressure_moments(int ndims);

class TimeAverage {
 public:
  TimeAverage() = default;
  // Also averages the products `pairs` of the fields, whose layout per group is
  // [neles][nvars][nupts[g]]; moments() holds them as [neles][pairs.size()][nupts[g]].
  TimeAverage(int nvars, std::vector<std::size_t> nupts, std::vector<std::pair<int, int>> pairs);
  // Adds the sample `u` at time t (t greater than the last sample's; an equal time replaces
  // nothing and is ignored).
  void add(double t, const GroupFields& u);
  // Continues an earlier mean over [t0, t1] whose last sample, at t1, is `last`: the same
  // state as if those samples had been added here. Replaces anything added before. `moments`
  // are the earlier window's means of the products (required when this average has pairs).
  void resume(double t0, double t1, const GroupFields& mean, const GroupFields& last,
              const GroupFields& moments = {});
  // The mean over [first sample, last sample]; with one sample, that sample.
  GroupFields mean() const;
  // The means of the products over the same window; empty without pairs.
  GroupFields moments() const;
  bool has_moments() const { return !pairs_.empty(); }
  bool empty() const { return nsamples_ == 0; }
  double tfirst() const { return t0_; }
  double tlast() const { return tprev_; }

 private:
  // h (2 a0 b0 + a0 b1 + a1 b0 + 2 a1 b1) / 6 per product: the integral over a step of length
  // h of the product of two linear pieces; with h = 0 the products of `b` alone (one sample).
  void add_products(double h, const GroupFields* a, const GroupFields& b, GroupFields& out) const;

  GroupFields sum_, prev_, sum2_;  // sums of the integrals; the last sample
  int nvars_ = 0;
  std::vector<std::size_t> nupts_;
  std::vector<std::pair<int, int>> pairs_;
  double t0_ = 0, tprev_ = 0;
  long nsamples_ = 0;
};

}  // namespace frmini::solver
