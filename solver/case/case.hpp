// A case: the TOML file (solver/config) turned into everything a run needs — the mesh (a
// frmini mesh file, a Gmsh file, or a built-in generator), the system's configuration
// (physics, order, point sets, precision, provider, boundary conditions with their
// expressions rendered as C), the integrator's options, and the initial condition.
// Mistakes are UserErrors naming "<case file>:<line>: [section] key".
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "meshes/mesh.hpp"
#include "solver/config/config.hpp"
#include "solver/integrators/integrator.hpp"
#include "solver/system/system.hpp"

namespace frmini::solver {

struct Case {
  config::Config cfg;
  meshes::Mesh mesh;
  std::string mesh_source;  // for reports
  SystemConfig sys;
  IntegratorOptions intg;
  double tstart = 0, tend = 0;
  std::string backend;
  kernels::BackendOptions bopts;

  std::map<std::string, std::string> ics;  // [ics] rho, u, v, w, p as C expressions of x, y, z

  // Sets register `reg` to the initial condition on the device: the [ics] expressions are
  // compiled into a kernel (physics::ics) run at every solution point.
  void set_initial_solution(System& s, int reg) const;
  // The same on the host, by the expression interpreter, as [neles][nvars][nupts] conserved
  // values: the independent oracle the device path is tested against.
  std::vector<std::vector<double>> initial_solution(const System& s) const;
};

// Command-line flags overriding the file, as (section, key, value, flag name).
struct Override {
  std::string section, key, value, flag;
};

Case load_case(const std::filesystem::path& file, const std::vector<Override>& overrides = {});
// The same from text already read (restart: the case stored in a solution file).
Case load_case_text(const std::string& text, const std::string& name,
                    const std::vector<Override>& overrides = {});

}  // namespace frmini::solver
