#include "solver/run/signals.hpp"

#include <csignal>

namespace frmini::solver {

namespace {
volatile std::sig_atomic_t received = 0;
struct sigaction previous_int, previous_term;

extern "C" void on_signal(int sig) {
  if (received) {
    // The second signal: the default action (termination by that signal), now. signal() and
    // raise() are async-signal-safe.
    std::signal(sig, SIG_DFL);
    std::raise(sig);
    return;
  }
  received = sig;
}
}  // namespace

StopSignals::StopSignals() {
  received = 0;
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
