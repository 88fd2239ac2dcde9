#include "solver/run/signals.hpp"

#include <atomic>
#include <csignal>
#include <cstdint>
#include <ctime>

namespace frmini::solver {

namespace {
volatile std::sig_atomic_t received = 0;
// When the first signal came (CLOCK_MONOTONIC, ns; 0: none yet). An atomic that is lock-free
// may be used from a handler, and the compare-exchange settles two handlers running at once on
// two threads (a process-directed signal goes to any thread that does not block it).
std::atomic<int64_t> first_ns{0};
static_assert(std::atomic<int64_t>::is_always_lock_free);
struct sigaction previous_int, previous_term;

int64_t now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);  // async-signal-safe (POSIX)
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

extern "C" void on_signal(int sig) {
  const int64_t now = now_ns();
  int64_t first = 0;
  if (first_ns.compare_exchange_strong(first, now)) {
    received = sig;
    return;
  }
  // `timeout` sends its signal to the process and then to its process group, batch
  // schedulers to every process of a job step: the same request arrives twice within
  // microseconds. Only a repeat that a person could have sent ends the run at once.
  if (now - first < kRepeatWindowNs) return;
  // The second signal: the default action (termination by that signal), now. signal() and
  // raise() are async-signal-safe.
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}
}  // namespace

StopSignals::StopSignals() {
  received = 0;
  first_ns = 0;
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;  // a write or read under way is not cut short by EINTR
  sigaction(SIGINT, &sa, &previous_int);
  sigaction(SIGTERM, &sa, &previous_term);
}

StopSignals::~StopSignals() {
  sigaction(SIGINT, &previous_int, nullptr);
  sigaction(SIGTERM, &previous_term, nullptr);
}

int StopSignals::pending() const { return received; }

const char* signal_name(int sig) {
  switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "a signal";
  }
}

}  // namespace frmini::solver
