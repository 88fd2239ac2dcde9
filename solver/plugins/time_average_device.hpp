// The time average of time_average.hpp kept on the device: the running sums of the primitive
// variables (and of their products) are fields beside the solution (system/point_field.hpp)
// that one kernel per element group updates from a register at each sample
// (physics::tavg_sample), so a sample downloads nothing. Only when the mean is read (a file
// is written) do the sums come over: they are added to totals kept on the host in double and
// zeroed on the device, so that in single precision the device sums only span the samples
// between two reads. The same arithmetic as TimeAverage, whose results it gives to round-off.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "kernels/pointwise/kernel.hpp"
#include "solver/plugins/time_average.hpp"
#include "solver/system/point_field.hpp"
#include "solver/system/system.hpp"

namespace frmini::solver {

class DeviceTimeAverage {
 public:
  // `pairs`: the products of primitive variables also averaged (none: means only).
  DeviceTimeAverage(System& sys, std::vector<std::pair<int, int>> pairs);
  ~DeviceTimeAverage();
  DeviceTimeAverage(const DeviceTimeAverage&) = delete;
  DeviceTimeAverage& operator=(const DeviceTimeAverage&) = delete;

  // Samples register `reg` at time t (later than the last sample; an equal time is ignored).
  void add(double t, int reg);
  // Continues an earlier window [t0, t1] whose means are `mean` (and `moments`, with pairs):
  // the sample at t1 must be the only one taken so far (a restart samples its first state).
  void resume(double t0, const GroupFields& mean, const GroupFields& moments = {});
  // Per group [neles][nvars][nupts] primitive means over [tfirst, tlast] (one sample: that
  // sample), and [neles][pairs][nupts] means of the products (empty without pairs).
  GroupFields mean();
  GroupFields moments();

  bool has_moments() const { return !pairs_.empty(); }
  bool empty() const { return nsamples_ == 0; }
  double tfirst() const { return t0_; }
  double tlast() const { return tprev_; }

 private:
  void flush();  // device sums into the host totals, and the device sums to zero
  GroupFields scaled(const GroupFields& total) const;

  System& sys_;
  std::vector<std::pair<int, int>> pairs_;
  PointField sum_, prev_;
  std::unique_ptr<PointField> sum2_;
  std::vector<std::unique_ptr<kernels::pointwise::PointwiseKernel>> kernels_;  // per group
  int bound_reg_ = -1;
  GroupFields total_, total2_;  // flushed sums, in double
  bool unread_ = false;         // samples since the last flush
  double t0_ = 0, tprev_ = 0;
  long nsamples_ = 0;
};

}  // namespace frmini::solver
