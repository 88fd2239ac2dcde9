#include "solver/render/display.hpp"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string_view>
#include <thread>

#include <X11/Xlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "operators/error.hpp"

namespace frmini::render {
namespace {

namespace fs = std::filesystem;

// The Xvfb this process started; stopped by its destructor at exit. A forked child inherits
// this object but not the server: only the process that started it (owner) uses or stops it.
struct Xvfb {
  pid_t pid = -1;
  pid_t owner = -1;
  std::string display;
  ~Xvfb() { stop(); }
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
    // Xvfb's own chatter (font warnings, "server already active") is not ours to show.
    if (FILE* null = std::freopen("/dev/null", "w", stderr)) (void)null;
    if (FILE* null = std::freopen("/dev/null", "w", stdout)) (void)null;
    execl(xvfb.c_str(), "Xvfb", disp.c_str(), "-screen", "0", "1920x1080x24", "-nolisten", "tcp",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  x.pid = pid;
  x.owner = parent;
  x.display = disp;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    if (!x.running()) return false;
    if (accepts(n)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  x.stop();
  return false;
}

// Opens and closes the display with Xlib: VTK's own attempt aborts the process on failure.
bool can_open(const std::string& display) {
  Display* d = XOpenDisplay(display.c_str());
  if (!d) return false;
  XCloseDisplay(d);
  return true;
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
    if (x.running() && x.display == env) return env;
    if (!can_open(env))
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
      setenv("DISPLAY", x.display.c_str(), 1);
      if (!can_open(x.display)) {
        x.stop();
        unsetenv("DISPLAY");
        continue;
      }
      return x.display;
    }
  }
  throw UserError("no DISPLAY, and Xvfb (" + xvfb + ") did not start on any of :99 to :198");
}

}  // namespace frmini::render
