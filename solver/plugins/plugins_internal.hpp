// Constructors of the individual plugins (one file each), gathered by make_plugins.
#pragma once

#include <memory>
#include <string>

#include "solver/plugins/plugin.hpp"

namespace frmini::solver {

std::unique_ptr<Plugin> make_writer(const Case& k);
std::unique_ptr<Plugin> make_nancheck(const Case& k);
std::unique_ptr<Plugin> make_progress(const Case& k, bool quiet);
std::unique_ptr<Plugin> make_timing(const Case& k);
std::unique_ptr<Plugin> make_integrals(const Case& k);
std::unique_ptr<Plugin> make_forces(const Case& k, const std::string& boundary);
std::unique_ptr<Plugin> make_tavg(const Case& k);

}  // namespace frmini::solver
