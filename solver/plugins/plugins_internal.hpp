// Constructors of the individual plugins (one file each), gathered by make_plugins.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "solver/plugins/plugin.hpp"
#include "solver/plugins/point_list.hpp"

namespace frmini::solver {

std::unique_ptr<Plugin> make_writer(const Case& k);
std::unique_ptr<Plugin> make_nancheck(const Case& k);
std::unique_ptr<Plugin> make_progress(const Case& k, bool quiet);
std::unique_ptr<Plugin> make_timing(const Case& k);
std::unique_ptr<Plugin> make_integrals(const Case& k);
std::unique_ptr<Plugin> make_forces(const Case& k, const std::string& boundary);
std::unique_ptr<Plugin> make_tavg(const Case& k);
std::unique_ptr<Plugin> make_sampler(const Case& k);

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
