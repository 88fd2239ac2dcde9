// Runs a case: backend, system, integrator, initial condition (or a restart file), the time
// loop and its plugins. Returns the final integrator state.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "solver/integrators/integrator.hpp"
#include "solver/io/solution_file.hpp"
#include "solver/run/case.hpp"

namespace frmini::solver {

struct RunOptions {
  int64_t max_steps = -1;          // stop after this many steps (-1: run to tend)
  bool quiet = false;
  std::string flags;               // overrides, recorded in solution files
  const SolutionFile* restart = nullptr;
  std::string restart_path;        // the restart file's name, for messages
};

IntegratorState run_case(const Case& k, const RunOptions& o);

}  // namespace frmini::solver
