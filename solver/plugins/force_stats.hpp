// The statistics of a force-coefficient history that a bluff-body case is judged by: the
// Strouhal number of the lift, the mean drag and the rms lift, over whole shedding cycles
// after the start-up transient. Samples may be unevenly spaced in time (the PI controller),
// so means are time integrals of the piecewise-linear signal, not sample averages.
#pragma once

#include <string>
#include <vector>

namespace frmini::solver {

struct ForceStatsOptions {
  // Statistics start at `tstart` when given (>= the first sample), else after the first
  // `discard` fraction of the history (the transient).
  double tstart = -1e308;
  double discard = 0.5;
  double lref = 1, uref = 1;  // St = f lref / uref
  int min_cycles = 3;         // fewer whole cycles: no Strouhal number
};

struct ForceStats {
  bool cycles_found = false;  // at least min_cycles whole cycles: St valid, window = cycles
  int ncycles = 0;
  double t0 = 0, t1 = 0;      // the averaging window
  double strouhal = 0;        // f lref / uref (0 when !cycles_found)
  double mean_cd = 0, mean_cl = 0;
  double rms_cl = 0;          // rms of Cl - mean Cl (the lift fluctuation)
  std::string note;           // "" or why there is no Strouhal number ("not enough cycles ...")
};

// The lift's period is the spacing of upward crossings of Cl - mean(Cl) (linearly
// interpolated, with a hysteresis of a tenth of the lift's standard deviation so that noise
// near the mean does not count as a crossing). With at least `min_cycles` whole cycles the
// window is first to last crossing; otherwise the whole post-transient history, and `note`
// says so. Throws std::invalid_argument when the vectors differ in length.
ForceStats force_stats(const std::vector<double>& t, const std::vector<double>& cd,
                       const std::vector<double>& cl, const ForceStatsOptions& o);

}  // namespace frmini::solver
