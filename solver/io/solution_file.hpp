// Solution files (HDF5, documented in docs/file-formats.md): the case text, the mesh UUID, the
// integrator state and the solution of every element group as PyFR lays it out,
// /soln/p<order>-<etype> of shape (neles, nvars, nupts) in conserved variables. Written to a
// temporary name and renamed; enough to restart bit for bit.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "solver/integrators/integrator.hpp"

namespace frmini::solver {

struct SolutionFile {
  std::string config_text;   // the case file as run (flags applied are recorded separately)
  std::string config_name;   // its path, for messages
  std::string flags;         // command-line overrides, e.g. "--backend opencl"
  std::string mesh_uuid;
  std::string system;        // euler | navier-stokes
  int order = 0, ndims = 0, nvars = 0;
  // What /soln holds: "conserved" (a solution: rho, rho u..., E) or "primitive-mean" (the
  // tavg plugin's running means of rho, u, v[, w], p). Only conserved files restart.
  std::string variables = "conserved";
  // A primitive-mean file's averaging window starts here (it ends at state.t); NaN otherwise.
  // A restarted run's time average continues from the file whose window ends at its start.
  double window_start = std::numeric_limits<double>::quiet_NaN();
  IntegratorState state;
  std::vector<std::string> etypes;
  std::vector<std::vector<double>> soln;  // per group [neles][nvars][nupts]
  std::vector<std::vector<std::size_t>> shapes;  // per group {neles, nvars, nupts}
  // A primitive-mean file may also hold the window's means of products of the primitive
  // variables (the tavg plugin's `moments`), named e.g. uu, uv, pp, per group
  // [neles][moment_names.size()][nupts] in /moments; empty otherwise.
  std::vector<std::string> moment_names;
  std::vector<std::vector<double>> moments;
};

void write_solution(const std::string& path, const SolutionFile& s);
// Throws UserError naming the file if it is missing, not a frmini solution or incomplete.
// Without `data`, only the attributes and the state are read (soln and shapes stay empty).
SolutionFile read_solution(const std::string& path, bool data = true);

}  // namespace frmini::solver
