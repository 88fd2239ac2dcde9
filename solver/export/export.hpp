// frmini export: from a solution file to VTK data sets (docs/export.md). This header has no VTK
// types, so callers that only write files (the CLI, the export plugin) compile in a build
// without VTK; solver/export/export_vtk.hpp adds the in-memory VTK data sets for the renderer.
//
//   SolutionContext ctx = load_solution_context(soln, path, "");   // mesh + case physics
//   write_volume("out.vtu", ctx, soln, ExportOptions{});
//   write_boundary("wall.vtp", ctx, soln, ExportOptions{}, BoundaryOptions{"wall"});
//   write_pvd("out.pvd", {{0.5, "out-0.vtu"}, ...});
#pragma once

#include <limits>
#include <map>
#include <string>
#include <vector>

#include "meshes/mesh.hpp"
#include "solver/config/config.hpp"
#include "solver/io/solution_file.hpp"
#include "solver/physics/physics.hpp"

namespace frmini::solver::exporter {

// False in a build without VTK, where the writers below throw "built without VTK": callers
// check first so the user hears that before anything else.
bool have_vtk();

// What a solution file's case says that export needs, resolved once per file set.
struct SolutionContext {
  meshes::Mesh mesh;
  physics::Options phys;                         // gamma, mu, Sutherland constants
  std::map<std::string, std::string> upts;       // etype -> solution point set ("" = default)
  std::map<std::string, double> constants;       // [constants] of the case (Uinf, Pinf, R...)
  std::vector<std::string> walls;                // boundaries whose [bcs.NAME] type is a wall
};

// The mesh of a solution: `mesh_override` (a frmini .h5 or Gmsh .msh file) if not empty, else
// the case's [mesh] (a file relative to the case file's directory as recorded in
// config-name — tried as given, then relative to the solution file's directory — or a
// built-in generator, regenerated). Throws UserError naming the file when the mesh's UUID
// differs from the solution's.
SolutionContext load_solution_context(const SolutionFile& soln, const std::string& soln_path,
                                      const std::string& mesh_override);
// The same for a run in progress (the export plugin): the case's config and its mesh.
SolutionContext case_context(const config::Config& cfg, const meshes::Mesh& mesh);
meshes::Mesh mesh_for_solution(const SolutionFile& soln, const std::string& mesh_override,
                               const std::string& soln_path = "");

struct ExportOptions {
  int order = 0;    // Lagrange cell order K (0: the solution's order, at least 1)
  int divisor = 0;  // > 0: linear sub-cells, this many per edge, instead of Lagrange cells
  // Point-data arrays to write (empty: all of field_names()).
  std::vector<std::string> fields;
  // R in T = p/(rho R); NaN: [constants] Rgas, else 1 (not "R": cases use that name for
  // other things, e.g. the vortex radius of euler-vortex.toml).
  double R = std::numeric_limits<double>::quiet_NaN();
};
double gas_constant(const SolutionContext& ctx, const ExportOptions& opts);

// The point-data arrays export can write, in output order: rho velocity p T mach vorticity
// vorticity-mag qcrit. Throws UserError naming an unknown one.
const std::vector<std::string>& field_names();
void check_fields(const std::vector<std::string>& fields);

struct BoundaryOptions {
  std::string name;                 // the mesh boundary to write
  // Reference state for cp and cf: NaN takes [constants] Uinf, Pinf, rhoinf (rho∞ = 1 when
  // absent); a missing Uinf or Pinf is a UserError.
  double uinf = std::numeric_limits<double>::quiet_NaN();
  double pinf = std::numeric_limits<double>::quiet_NaN();
  double rhoinf = std::numeric_limits<double>::quiet_NaN();
};

// The reference state of cp and cf: flags first, then [constants] Uinf, Pinf, rhoinf (1 when
// absent). Throws UserError when `bopts.name` is no boundary of the mesh, or Uinf or Pinf is
// unknown: call it before writing anything.
struct ReferenceState {
  double uinf = 0, pinf = 0, rhoinf = 1;
  double qinf() const { return 0.5 * rhoinf * uinf * uinf; }
};
ReferenceState check_boundary(const SolutionContext& ctx, const BoundaryOptions& bopts);

// The writers: each file is written to a temporary name and renamed. Return the number of
// cells written.
long write_volume(const std::string& path, const SolutionContext& ctx, const SolutionFile& soln,
                  const ExportOptions& opts);
long write_boundary(const std::string& path, const SolutionContext& ctx,
                    const SolutionFile& soln, const ExportOptions& opts,
                    const BoundaryOptions& bopts);

struct PvdEntry {
  double time = 0;
  std::string file;  // as the .pvd should name it (relative to the .pvd's directory)
};
void write_pvd(const std::string& path, const std::vector<PvdEntry>& entries);

// Makes [plugins.export] and its schema known (solver/plugins/plugin.hpp); the frmini
// executable calls it before a command runs. Built without VTK, a case with that section is refused with "built without VTK".
void register_export_plugin();

}  // namespace frmini::solver::exporter
