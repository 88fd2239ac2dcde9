// The time-average plugin's arithmetic, apart from the run so that it can be tested alone:
// conserved to primitive variables, and a running time-weighted mean of per-group fields
// sampled at increasing times. Between samples the field is taken as linear in time (the
// trapezoidal rule), so unevenly spaced samples (the PI controller's steps) weigh by the time
// they stand for; a field linear in time averages exactly.
#pragma once

#include <vector>

namespace frmini::solver {

using GroupFields = std::vector<std::vector<double>>;  // per group [neles][nvars][nupts]

// rho, rho u_i, E -> rho, u_i, p = (gamma - 1)(E - rho |u|^2 / 2), in place, in the layout of
// System::download_solution (nvars = ndims + 2).
void conserved_to_primitive(GroupFields& s, int ndims, const std::vector<std::size_t>& nupts,
                            double gamma);

class TimeAverage {
 public:
  // Adds the sample `u` at time t (t greater than the last sample's; an equal time replaces
  // nothing and is ignored).
  void add(double t, const GroupFields& u);
  // Continues an earlier mean over [t0, t1] whose last sample, at t1, is `last`: the same
  // state as if those samples had been added here. Replaces anything added before.
  void resume(double t0, double t1, const GroupFields& mean, const GroupFields& last);
  // The mean over [first sample, last sample]; with one sample, that sample.
  GroupFields mean() const;
  bool empty() const { return nsamples_ == 0; }
  double tfirst() const { return t0_; }
  double tlast() const { return tprev_; }

 private:
  GroupFields sum_, prev_;  // sum of trapezoids; the last sample
  double t0_ = 0, tprev_ = 0;
  long nsamples_ = 0;
};

}  // namespace frmini::solver
