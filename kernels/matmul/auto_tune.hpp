// Choosing among candidate kernels by timing them on the real operands (the providers of
// provider.hpp), shared by every backend:
//  - 'auto' times every candidate of every willing provider;
//  - a named provider with several strategies (generated) is tuned the same way among its own.
// C is saved before timing and restored afterwards (beta != 0 runs would corrupt it). A
// challenger displaces the incumbent only when it is at least 5% faster (PyFR's
// autotune-ifac = 0.95); the incumbency order is the providers' order, then each provider's own
// candidate order, so ties and noise keep the same, earlier choice. Decisions are cached on disk
// (kernels/cache.hpp) and always recorded in tuning_log() so reports can show what was chosen.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/matmul/provider.hpp"

namespace frmini::kernels::matmul {

struct TuneOptions {
  double ifac = 0.95;   // a challenger must take < ifac * incumbent's time
  int warmup = 2;       // untimed runs before timing each candidate
  int nrep = 10;        // timed runs; the fastest counts (preemption only adds time)
  bool use_cache = true;  // read and write decisions on disk ($FRMINI_TUNE_CACHE=0 disables)
};

// One tuning decision, for logs and run reports.
struct TuneRecord {
  std::string problem;      // Problem::name
  std::string mode;         // "auto" or the provider name
  std::string provider, strategy;
  double seconds = 0;       // best time of the chosen kernel (0 when read from the cache)
  bool from_cache = false;
  // Every candidate timed: "provider/strategy" and its median seconds; declines as
  // "provider: declined (reason)" with -1.  (Times are each candidate's fastest run.)
  std::vector<std::pair<std::string, double>> timings;
};

// Times `candidates` (in incumbency order) on the problem's real operands and returns the
// winner. `p` gives the operands whose C is saved/restored. Throws if candidates is empty.
std::unique_ptr<Kernel> pick_fastest(Backend& backend, const Problem& p,
                                     std::vector<std::unique_ptr<Kernel>> candidates,
                                     const TuneOptions& opts, TuneRecord* record);

// The whole tuning step: asks each provider (in order, skipping 'reference' unless it is the
// only one), consults and fills the disk cache, logs the decision (stderr when the backend is
// verbose) and appends it to tuning_log(). `mode` names the cache entry ("auto" or a provider).
// Throws UserError when no provider accepts the problem, listing their reasons.
std::unique_ptr<Kernel> tune(Backend& backend, const std::vector<std::shared_ptr<Provider>>& providers,
                             const Problem& p, const std::string& mode,
                             const TuneOptions& opts = {});

// Every decision taken in this process, in order.
std::vector<TuneRecord> tuning_log();
void clear_tuning_log();

// The median of a sample (helper shared with benchmarks); 0 for an empty one.
double median(std::vector<double> v);

}  // namespace frmini::kernels::matmul
