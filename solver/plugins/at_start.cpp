// Compiled into every executable that reads case files (the frmini executable, and through
// frmini_solver the tests and tools): the built-in plugins and the physics' choices are in the
// schema before main, whichever of the static libraries' objects the executable pulls in.
#include "solver/plugins/plugin.hpp"

namespace {
[[maybe_unused]] const bool registered = [] {
  frmini::solver::register_builtin_plugins();
  return true;
}();
}  // namespace
