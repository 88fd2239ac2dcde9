// The run loop's signal handlers (solver/run/signals.hpp): a signal is noted, not acted on; the
// same signal sent twice at once (`timeout` signals the process and its group) is one
// request; a repeat after the window ends the process by that signal. The handlers act on
// the whole process, so each case runs in a child of its own and the parent reads how it
// ended.
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <thread>
#include <vector>

#include "solver/run/signals.hpp"
#include "tests/frmini_catch.hpp"

using frmini::solver::kRepeatWindowNs;
using frmini::solver::StopSignals;

namespace {

// Runs body in a forked child; returns its wait status. The child exits 0 when body returns
// true, 1 when false (it must not touch Catch2's state).
template <class F>
int in_child(F body) {
  const pid_t pid = fork();
  if (pid == 0) _exit(body() ? 0 : 1);
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

void sleep_ns(int64_t ns) {
  timespec ts{time_t(ns / 1000000000), long(ns % 1000000000)};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

}  // namespace

TEST_CASE("a signal in the loop is noted, and the process goes on", "[signals]") {
  for (int sig : {SIGTERM, SIGINT}) {
    const int st = in_child([sig] {
      StopSignals s;
      if (s.pending() != 0) return false;
      raise(sig);
      return s.pending() == sig;
    });
    REQUIRE(WIFEXITED(st));
    CHECK(WEXITSTATUS(st) == 0);
  }
}

TEST_CASE("the same signal twice at once is one request", "[signals]") {
  // From this thread, back to back, and from four threads at once to the process (each
  // handler may run on another thread while the first is still in it).
  const int st = in_child([] {
    StopSignals s;
    raise(SIGTERM);
    raise(SIGTERM);
    if (s.pending() != SIGTERM) return false;
    std::vector<std::thread> senders;
    for (int i = 0; i < 4; ++i) senders.emplace_back([] { kill(getpid(), SIGTERM); });
    for (auto& t : senders) t.join();
    return s.pending() == SIGTERM;
  });
  INFO("the child " << (WIFSIGNALED(st) ? "was ended by signal " : "exited ")
                    << (WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st)));
  REQUIRE(WIFEXITED(st));
  CHECK(WEXITSTATUS(st) == 0);
}

TEST_CASE("a repeat after the window ends the process by that signal", "[signals]") {
  for (int sig : {SIGINT, SIGTERM}) {
    const int st = in_child([sig] {
      StopSignals s;
      raise(sig);
      sleep_ns(kRepeatWindowNs + kRepeatWindowNs / 5);
      raise(sig);
      return false;  // not reached
    });
    REQUIRE(WIFSIGNALED(st));
    CHECK(WTERMSIG(st) == sig);
  }
}

TEST_CASE("a new StopSignals starts with nothing noted, and the old handlers come back", "[signals]") {
  const int st = in_child([] {
    {
      StopSignals s;
      raise(SIGINT);
      if (s.pending() != SIGINT) return false;
    }
    StopSignals again;  // a second run loop in the same process (tests, MPI tools)
    if (again.pending() != 0) return false;
    raise(SIGINT);  // a first signal again: noted, not a repeat of the old one
    return again.pending() == SIGINT;
  });
  REQUIRE(WIFEXITED(st));
  CHECK(WEXITSTATUS(st) == 0);
}
