// Runs a case: backend, system, integrator, initial condition (or a restart file), the time
// loop and its plugins. Returns the final integrator state.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "solver/integrators/integrator.hpp"
#include "solver/io/solution_file.hpp"
#include "solver/case/case.hpp"

namespace frmini::solver {

struct RunOptions {
  int64_t max_steps = -1;          // stop after this many steps (-1: run to tend)
  bool quiet = false;
  std::string flags;               // overrides, recorded in solution files
  bool no_plugins = false;         // only the blow-up check and the report (timing a case)
  const SolutionFile* restart = nullptr;
  std::string restart_path;        // the restart file's name, for messages
};

// The run stopped on SIGINT or SIGTERM after writing `checkpoint` (solver/run/signals.hpp):
// the command exits with 128 + signal.
struct Interrupted : std::runtime_error {
  Interrupted(int sig, std::string file, const std::string& what)
      : std::runtime_error(what), signal(sig), checkpoint(std::move(file)) {}
  int signal;
  std::string checkpoint;
};

IntegratorState run_case(const Case& k, const RunOptions& o);

// Whether run_case has reached its time loop: an error there, other than a divergence that
// every rank sees, is one rank's alone, and over several ranks the others would wait for it
// in their next exchange (cmd_run ends the whole run instead).
bool in_time_loop();

}  // namespace frmini::solver
