// Resolving a solution file's mesh and physics for export (no VTK needed: the CLI and the
// export plugin use it in every build).
#include <algorithm>
#include <cmath>
#include <filesystem>

#include "base/error.hpp"
#include "meshes/connectivity.hpp"
#include "meshes/gmsh_import.hpp"
#include "meshes/mesh_file.hpp"
#include "solver/case/case.hpp"
#include "solver/config/config.hpp"
#include "solver/export/export.hpp"

namespace frmini::solver::exporter {

namespace fs = std::filesystem;

namespace {

meshes::Mesh read_any_mesh(const fs::path& p) {
  if (p.extension() == ".msh") return meshes::build_mesh(meshes::read_gmsh(p.string()));
  return meshes::read_mesh(p.string());
}

// The case's mesh file: relative paths start at the case file's directory as the run saw it
// (config-name is the path the run was given, so relative to the run's working directory);
// when export runs elsewhere, the same relative path from the solution file's directory.
meshes::Mesh case_mesh(const SolutionFile& s, const config::Config& c, const std::string& soln_path) {
  if (!c.has("mesh", "file"))  // a built-in generator: rebuilt exactly as the run built it
    return load_case_text(s.config_text, s.config_name).mesh;
  fs::path rel = c.str("mesh", "file");
  if (rel.is_absolute()) {
    if (!fs::exists(rel))
      throw UserError(soln_path + ": the case's mesh " + rel.string() + " does not exist (use --mesh)");
    return read_any_mesh(rel);
  }
  std::vector<fs::path> tries{c.dir() / rel};
  if (!soln_path.empty()) tries.push_back(fs::path(soln_path).parent_path() / rel);
  for (const auto& p : tries)
    if (fs::exists(p)) return read_any_mesh(p);
  throw UserError(soln_path + ": the case's mesh " + tries.front().string() +
                  " does not exist (use --mesh)");
}

// The physics as solver/case/case.cpp reads it (the mesh is not rebuilt for this).
void fill_physics(SolutionContext& ctx, const config::Config& c) {
  ctx.constants = c.constants();
  auto& ph = ctx.phys;
  ph.system = c.str("solver", "system");
  ph.ndims = ctx.mesh.ndims;
  ph.gamma = ctx.constants.at("gamma");
  ph.mu = ctx.constants.at("mu");
  ph.pr = ctx.constants.at("Pr");
  ph.sutherland = c.str("solver", "viscosity-correction") == "sutherland";
  if (ph.sutherland) {
    ph.cptref = c.real("constants", "cpTref");
    ph.cpts = c.real("constants", "cpTs");
  }
  for (const auto& g : ctx.mesh.groups) ctx.upts[g.etype] = c.str("solver.points", g.etype);
  // The body of a picture: the walls (no-slp-adia-wall, slp-adia-wall, ...).
  for (const auto& b : c.subsections("bcs"))
    if (c.str("bcs." + b, "type").find("wall") != std::string::npos) ctx.walls.push_back(b);
}

}  // namespace

SolutionContext case_context(const config::Config& cfg, const meshes::Mesh& mesh) {
  SolutionContext ctx;
  ctx.mesh = mesh;
  fill_physics(ctx, cfg);
  return ctx;
}

SolutionContext load_solution_context(const SolutionFile& s, const std::string& soln_path,
                                      const std::string& mesh_override) {
  const std::string name = soln_path.empty() ? s.config_name : soln_path;
  const config::Config c = config::Config::parse(s.config_text, s.config_name);
  SolutionContext ctx;
  if (!mesh_override.empty()) {
    if (!fs::exists(mesh_override)) throw UserError(mesh_override + ": no such mesh file");
    ctx.mesh = read_any_mesh(mesh_override);
  } else {
    ctx.mesh = case_mesh(s, c, name);
  }
  if (ctx.mesh.uuid != s.mesh_uuid)
    throw UserError(name + ": solution is for mesh " + s.mesh_uuid + ", not " +
                    (mesh_override.empty() ? std::string("the case's mesh") : mesh_override) +
                    " (" + ctx.mesh.uuid + ")");
  if (ctx.mesh.ndims != s.ndims)
    throw UserError(name + ": solution is " + std::to_string(s.ndims) + "D, the mesh " +
                    std::to_string(ctx.mesh.ndims) + "D");

  fill_physics(ctx, c);
  return ctx;
}

namespace {

double reference(double flag, const SolutionContext& ctx, const char* key, const char* option,
                 double fallback) {
  if (!std::isnan(flag)) return flag;
  auto it = ctx.constants.find(key);
  if (it != ctx.constants.end()) return it->second;
  if (!std::isnan(fallback)) return fallback;
  throw UserError(std::string("export: --boundary needs ") + key +
                  " in the case's [constants] or " + option);
}

}  // namespace

double gas_constant(const SolutionContext& ctx, const ExportOptions& opts) {
  if (!std::isnan(opts.R)) return opts.R;
  auto it = ctx.constants.find("Rgas");
  return it == ctx.constants.end() ? 1.0 : it->second;
}

ReferenceState check_boundary(const SolutionContext& ctx, const BoundaryOptions& bopts) {
  const auto& bnames = ctx.mesh.boundaries;
  if (std::find(bnames.begin(), bnames.end(), bopts.name) == bnames.end()) {
    std::string all;
    for (const auto& b : bnames) all += (all.empty() ? "" : ", ") + b;
    throw UserError("export: --boundary: the mesh has no boundary '" + bopts.name +
                    "' (it has: " + (all.empty() ? std::string("none") : all) + ")");
  }
  ReferenceState r;
  r.uinf = reference(bopts.uinf, ctx, "Uinf", "--uinf", NAN);
  r.pinf = reference(bopts.pinf, ctx, "Pinf", "--pinf", NAN);
  r.rhoinf = reference(bopts.rhoinf, ctx, "rhoinf", "--rhoinf", 1.0);
  if (!(r.qinf() > 0))
    throw UserError("export: --boundary: the reference dynamic pressure rhoinf Uinf^2/2 must be > 0");
  return r;
}

meshes::Mesh mesh_for_solution(const SolutionFile& soln, const std::string& mesh_override,
                               const std::string& soln_path) {
  return load_solution_context(soln, soln_path, mesh_override).mesh;
}

}  // namespace frmini::solver::exporter
