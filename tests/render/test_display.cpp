// The X display: a bad DISPLAY is a one-line error (VTK would abort), a missing Xvfb too, and
// the Xvfb started for a process stops when that process exits.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

#include "base/error.hpp"
#include "solver/render/display.hpp"
#include "tests/frmini_catch.hpp"

using namespace frmini;
using namespace frmini::render;

namespace {

// Sets (or unsets) an environment variable for one scope.
class EnvVar {
 public:
  EnvVar(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) setenv(name, value, 1);
    else unsetenv(name);
  }
  ~EnvVar() {
    if (old_) setenv(name_.c_str(), old_->c_str(), 1);
    else unsetenv(name_.c_str());
  }

 private:
  std::string name_;
  std::optional<std::string> old_;
};

}  // namespace

TEST_CASE("display: a DISPLAY nobody serves is a one-line error", "[render][display]") {
  REQUIRE(!std::filesystem::exists("/tmp/.X11-unix/X4242"));
  EnvVar d("DISPLAY", ":4242");
  CHECK_THROWS_WITH(ensure_display(),
                    "cannot connect to the X display DISPLAY=:4242: check it, or unset DISPLAY "
                    "to let frmini start Xvfb");
}

TEST_CASE("display: no DISPLAY and no Xvfb is a one-line error", "[render][display]") {
  if (own_xvfb_running()) {
    FRMINI_SKIP("this process already runs its Xvfb (run this test case alone)");
  }
  EnvVar d("DISPLAY", nullptr);
  EnvVar p("PATH", "/nonexistent");
  CHECK_THROWS_WITH(ensure_display(), "no DISPLAY and no Xvfb: install xvfb (tools/install-deps) "
                                      "or run under xvfb-run");
}

TEST_CASE("display: the Xvfb started for a process stops at its exit", "[render][display]") {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  std::fflush(nullptr);  // or the child flushes the parent's buffered output a second time
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    close(fds[0]);
    unsetenv("DISPLAY");
    int status = 1;
    try {
      // "<display> <pid of its Xvfb>", the pid from the server's lock file.
      const std::string d = ensure_display();
      std::ifstream lock("/tmp/.X" + d.substr(1) + "-lock");
      long pid = 0;
      lock >> pid;
      const std::string msg = d + " " + std::to_string(pid);
      if (pid > 0 && write(fds[1], msg.c_str(), msg.size()) == ssize_t(msg.size())) status = 0;
    } catch (...) {
    }
    close(fds[1]);
    std::exit(status);  // runs the destructors that stop the server
  }
  close(fds[1]);
  char buf[64] = {0};
  const ssize_t got = read(fds[0], buf, sizeof buf - 1);
  close(fds[0]);
  int status = -1;
  waitpid(child, &status, 0);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  REQUIRE(got > 1);
  std::istringstream in(buf);
  std::string display;
  long pid = 0;
  in >> display >> pid;
  INFO("display " << display << ", Xvfb pid " << pid);
  REQUIRE(display[0] == ':');
  REQUIRE(pid > 0);
  // The server is gone (reaped by the child: no such process). Not its lock file: tests running
  // in parallel may already have started another server on the same number.
  CHECK(kill(static_cast<pid_t>(pid), 0) == -1);
  CHECK(errno == ESRCH);
}
