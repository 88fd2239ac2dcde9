#include "solver/render/display.hpp"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string_view>
#include <thread>

#include <X11/Xlib.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/error.hpp"

namespace frmini::render {
namespace {

namespace fs = std::filesystem;

// The Xvfb this process started, and a connection this process keeps open to its display.
// An X server resets when its last client disconnects and refuses connections meanwhile, so a
// check that opened and closed the display could leave VTK's own attempt (which aborts on
// failure) to land in that window; the kept connection means there is always a client. At exit
// the connection is closed and the server stopped. A forked child inherits this object but not
// the server: only the process that made them (owner) uses or closes them.
struct Xvfb {
  pid_t pid = -1;
  pid_t owner = -1;
  std::string display;
  Display* kept = nullptr;
  pid_t kept_owner = -1;
  std::string kept_name;
  ~Xvfb() {
    release();
    stop();
  }
  bool running() {
    if (pid <= 0 || owner != getpid()) return false;
    int status;
    if (waitpid(pid, &status, WNOHANG) == pid) {
      pid = -1;
      return false;
    }
    return true;
  }
  void stop() {
    if (pid <= 0 || owner != getpid()) return;
    kill(pid, SIGTERM);
    int status;
    waitpid(pid, &status, 0);
    pid = -1;
  }
  // Keeps a connection to `name` open; false if it cannot be opened.
  bool keep(const std::string& name) {
    if (kept && kept_name == name && kept_owner == getpid()) return true;
    release();
    kept = XOpenDisplay(name.c_str());
    if (!kept) return false;
    kept_name = name;
    kept_owner = getpid();
    return true;
  }
  void release() {
    // In a forked child the connection's socket is the parent's: leave it alone.
    if (kept && kept_owner == getpid()) XCloseDisplay(kept);
    kept = nullptr;
    kept_name.clear();
  }
};

Xvfb& server() {
  static Xvfb x;
  return x;
}
std::mutex& mutex() {
  static std::mutex m;
  return m;
}

std::string find_in_path(std::string_view name) {
  const char* path = std::getenv("PATH");
  std::string_view rest = path ? path : "";
  while (!rest.empty()) {
    const auto colon = rest.find(':');
    const fs::path dir(std::string(rest.substr(0, colon)));
    rest = colon == std::string_view::npos ? "" : rest.substr(colon + 1);
    const auto candidate = dir / name;
    if (!dir.empty() && access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return {};
}

// Whether the X server of display number n accepts a connection on its local socket.
bool accepts(int n) {
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::string path = "/tmp/.X11-unix/X" + std::to_string(n);
  path.copy(addr.sun_path, sizeof addr.sun_path - 1);
  const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  close(fd);
  return ok;
}

// The pid written in display n's lock file by the X server that holds it; -1 if none.
pid_t lock_owner(int n) {
  std::ifstream lock("/tmp/.X" + std::to_string(n) + "-lock");
  long pid = -1;
  if (!(lock >> pid)) return -1;
  return static_cast<pid_t>(pid);
}

// Starts Xvfb on :n; true once it accepts connections, false if it exited (display taken).
bool start_on(const std::string& xvfb, int n, Xvfb& x) {
  const std::string disp = ":" + std::to_string(n);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    // The server must not outlive frmini, even when frmini is killed.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(1);
    // Xvfb's own chatter (font warnings, "server already active") is not ours to show. Only
    // async-signal-safe calls between fork and exec: the parent may have threads.
    const int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
      dup2(null, STDOUT_FILENO);
      dup2(null, STDERR_FILENO);
    }
    // -noreset: no reset (and refused connections) when the last client leaves, as a second
    // guard beside the connection kept open.
    execl(xvfb.c_str(), "Xvfb", disp.c_str(), "-screen", "0", "1920x1080x24", "-nolisten", "tcp",
          "-noreset", static_cast<char*>(nullptr));
    _exit(127);
  }
  x.pid = pid;
  x.owner = parent;
  x.display = disp;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    if (!x.running()) return false;
    // Another process may have started a server on :n at the same moment (tests run in
    // parallel): the socket then answers although ours is about to give up. The lock file
    // holds the pid of the server that won.
    if (accepts(n)) {
      if (lock_owner(n) == pid) return true;
      if (lock_owner(n) > 0) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  x.stop();
  return false;
}

}  // namespace

bool own_xvfb_running() {
  std::lock_guard lock(mutex());
  return server().running();
}

std::string ensure_display() {
  std::lock_guard lock(mutex());
  auto& x = server();
  const char* env = std::getenv("DISPLAY");
  if (env && *env) {
    if (!x.keep(env))
      throw UserError(std::string("cannot connect to the X display DISPLAY=") + env +
                      ": check it, or unset DISPLAY to let frmini start Xvfb");
    return env;
  }
  if (x.running()) {
    setenv("DISPLAY", x.display.c_str(), 1);
    return x.display;
  }
  const std::string xvfb = find_in_path("Xvfb");
  if (xvfb.empty())
    throw UserError("no DISPLAY and no Xvfb: install xvfb (tools/install-deps) or run under xvfb-run");
  for (int n = 99; n < 199; ++n) {
    // A lock file or socket means the number is (or was) in use by another server.
    if (fs::exists("/tmp/.X" + std::to_string(n) + "-lock") ||
        fs::exists("/tmp/.X11-unix/X" + std::to_string(n)))
      continue;
    if (start_on(xvfb, n, x)) {
      if (!x.keep(x.display)) {
        x.stop();
        continue;
      }
      setenv("DISPLAY", x.display.c_str(), 1);
      return x.display;
    }
  }
  throw UserError("no DISPLAY, and Xvfb (" + xvfb + ") did not start on any of :99 to :198");
}

}  // namespace frmini::render
