// What the plugins' files share: the built-in plugin types (one file each, listed in
// registry.cpp) and the blow-up checks.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "solver/plugins/plugin.hpp"
#include "solver/plugins/point_list.hpp"

namespace frmini::solver {

// The built-in plugins, one line each: a new one is its file, defining `PluginType
// <name>_plugin()`, and a line here.
#define FRMINI_BUILTIN_PLUGINS(X) \
  X(nancheck)                     \
  X(writer)                       \
  X(integrals)                    \
  X(progress)                     \
  X(forces)                       \
  X(tavg)                         \
  X(sampler)                      \
  X(timing)
#define FRMINI_DECLARE_PLUGIN(name) PluginType name##_plugin();
FRMINI_BUILTIN_PLUGINS(FRMINI_DECLARE_PLUGIN)
#undef FRMINI_DECLARE_PLUGIN

// Throws DivergedError (exit status 3) naming the step, time, element, variable and position
// of the first non-finite value of `soln` (download_solution's layout); `who` opens the message.
void require_finite(RunContext& ctx, const std::vector<std::vector<double>>& soln,
                    const std::string& who);
// Over several ranks, once the solution is known not to be finite somewhere (Comm-wide): every
// rank throws DivergedError; the lowest rank holding a non-finite value names it (with its
// rank and the element's number in the whole mesh), the others' messages say "on another
// rank" and are not printed. Collective.
[[noreturn]] void stop_diverged_run(RunContext& ctx, const std::string& who);

}  // namespace frmini::solver
