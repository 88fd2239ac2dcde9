// SIGINT and SIGTERM during a run's time loop (what Ctrl-C and a batch scheduler send before
// an allocation ends): the first one is only noted, so the runner finishes the current step,
// writes a checkpoint and exits with 128 + the signal; a second one ends the process at once,
// as the signal would have without frmini. Repeats within kRepeatWindowNs of the first are the
// same request sent twice (`timeout` signals the process and its group; schedulers every
// process of a step) and are ignored. Outside the loop the default actions apply.
#pragma once

#include <cstdint>

namespace frmini::solver {

// Half a second: far longer than the microseconds between duplicates, shorter than a person
// pressing Ctrl-C twice on purpose.
inline constexpr int64_t kRepeatWindowNs = 500'000'000;

class StopSignals {
 public:
  StopSignals();   // installs the handlers
  ~StopSignals();  // restores the previous ones
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  // The signal received since construction, or 0.
  int pending() const;
};

// "SIGINT", "SIGTERM", or "signal N".
const char* signal_name(int sig);

}  // namespace frmini::solver
