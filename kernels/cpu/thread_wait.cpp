// How the cpu backend's OpenMP threads wait at a barrier: spin briefly, then sleep.
//
// libgomp spins 300,000 times (about a millisecond) at each barrier before it sleeps. On a quiet
// machine that is the fastest choice, but a desktop or a shared node is rarely quiet: with one
// busy process beside a 2-thread run, the thread that arrives first spins on a core the late
// thread needs, and every barrier of the step pays for it. A short spin keeps the quiet
// machine's speed within noise and lets a waiting thread give its core away (measured by
// tools/shared-cores; the table is in docs/reliability.md).
//
// libgomp reads GOMP_SPINCOUNT once, in its initialiser, before main() runs; glibc's own
// initialiser, which runs before libgomp's, resets the environment to the one the process was
// started with, so not even a .preinit_array function can change it. The frmini command
// therefore sets the variable and executes itself again, once, at the start of main(). A
// user's own GOMP_SPINCOUNT or OMP_WAIT_POLICY is never overridden, and under valgrind (which
// would not follow the exec) the process goes on as it is.
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "kernels/backends.hpp"
#include "kernels/cpu/device.hpp"

namespace frmini::kernels {

namespace {
constexpr const char* default_spins = "1000";
}

void choose_thread_wait(char** argv) {
  if (std::getenv("GOMP_SPINCOUNT") || std::getenv("OMP_WAIT_POLICY")) return;
  if (std::getenv("VALGRIND_LAUNCHER")) return;
  // The program's own file by its name, not as /proc/self/exe: the name becomes the process's
  // (what ps, top and pkill show).
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0 || std::size_t(n) >= sizeof self - 1) return;
  self[n] = '\0';
  if (setenv("GOMP_SPINCOUNT", default_spins, 0) != 0) return;
  execv(self, argv);
  unsetenv("GOMP_SPINCOUNT");  // no exec: libgomp keeps its default, and reports say so
}

namespace cpu {

std::string thread_wait() {
  if (const char* s = std::getenv("GOMP_SPINCOUNT"))
    return std::string("spin ") + s + " times, then sleep (GOMP_SPINCOUNT)";
  if (const char* p = std::getenv("OMP_WAIT_POLICY")) return std::string("OMP_WAIT_POLICY=") + p;
  return "follow the OpenMP runtime's default";
}

}  // namespace cpu

}  // namespace frmini::kernels
