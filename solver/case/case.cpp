#include "solver/case/case.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "base/error.hpp"
#include "meshes/connectivity.hpp"
#include "meshes/generators.hpp"
#include "meshes/gmsh_import.hpp"
#include "meshes/mesh_file.hpp"
#include "operators/antialias.hpp"
#include "operators/shapes.hpp"
#include "solver/config/expression.hpp"
#include "solver/physics/host.hpp"
#include "solver/physics/physics.hpp"

namespace frmini::solver {

namespace {

meshes::Mesh load_mesh(const config::Config& c, std::string& source) {
  namespace fs = std::filesystem;
  const bool has_file = c.has("mesh", "file"), has_gen = c.has("mesh", "generator");
  if (has_file == has_gen)
    throw UserError(c.filename() + ": [mesh] needs exactly one of file or generator");
  if (has_file) {
    fs::path p = c.str("mesh", "file");
    if (p.is_relative()) p = c.dir() / p;
    source = p.string();
    if (!fs::exists(p)) throw UserError(c.where("mesh", "file") + ": no such file " + p.string());
    if (p.extension() == ".msh") return meshes::build_mesh(meshes::read_gmsh(p.string()));
    return meshes::read_mesh(p.string());
  }
  // A built-in generator writes a Gmsh file (to a private temporary folder) that is imported
  // exactly like a user's.
  meshes::GeneratorOptions g;
  g.name = c.str("mesh", "generator");
  source = "generator " + g.name;
  for (const auto& k : c.keys("mesh.options")) {
    std::string w = c.where("mesh.options", k);
    auto num = [&] {
      try {
        return std::stod(c.str("mesh.options", k));
      } catch (const std::exception&) {
        throw UserError(w + ": expected a number");
      }
    };
    if (k == "n") g.n = {long(num())};
    else if (k == "length") g.length = {num()};
    else if (k == "order") g.order = int(num());
    else if (k == "ncirc") g.ncirc = int(num());
    else if (k == "nradial") g.nradial = int(num());
    else if (k == "nspan") g.nspan = int(num());
    else if (k == "scale") g.scale = num();
    else if (k == "mixed") g.mixed = c.str("mesh.options", k) == "true";
    else if (k == "upstream") g.upstream = num();
    else if (k == "downstream") g.downstream = num();
    else if (k == "half-height") g.half_height = num();
    else if (k == "wall-cell") g.wall_cell = num();
    else throw UserError(w + ": unknown generator option (see frmini mesh --help)");
  }
  fs::path dir = fs::temp_directory_path() / ("frmini-mesh-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  g.out = (dir / (g.name + ".msh")).string();
  struct Cleanup {
    fs::path d;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(d, ec);
    }
  } cleanup{dir};
  try {
    meshes::generate_mesh(g);
  } catch (const UserError& e) {
    // The generator speaks of its command-line options; here they came from the case file.
    std::string what = e.what();
    if (what.rfind("mesh: ", 0) == 0) what = what.substr(6);
    throw UserError(c.filename() + ": [mesh.options]: " + what);
  }
  return meshes::build_mesh(meshes::read_gmsh(g.out));
}

std::string render_expr(const config::Config& c, const std::string& sec, const std::string& key,
                        const std::map<std::string, double>& consts, kernels::Precision p) {
  auto e = config::Expression::parse(c.expr(sec, key), {"x", "y", "z", "t"}, consts,
                                     c.where(sec, key));
  return e.to_c(p);
}

// A boundary state's density, pressure or wall temperature must be positive. A constant one
// (the usual far field) is checked here, before anything is built; one that varies with x, y,
// z or t is left to the run's blow-up check.
void check_bc_state(const config::Config& c, const std::string& sec, const std::string& key,
                    const std::map<std::string, double>& consts) {
  if (key != "rho" && key != "p" && key != "cpTw") return;
  auto e = config::Expression::parse(c.expr(sec, key), {"x", "y", "z", "t"}, consts,
                                     c.where(sec, key));
  for (const char* var : {"x", "y", "z", "t"})
    if (e.uses(var)) return;
  const double v = e.eval({});
  if (!(v > 0) || !std::isfinite(v))
    throw UserError(c.where(sec, key) + ": " + key + " = " + c.expr(sec, key) + " = " +
                    std::to_string(v) + " is not a physical boundary state (it must be positive)");
}

Case build(config::Config cfg, const std::vector<Override>& overrides) {
  for (const auto& o : overrides) cfg.override_value(o.section, o.key, o.value, o.flag);
  Case k;
  k.cfg = std::move(cfg);
  const config::Config& c = k.cfg;

  k.backend = c.str("backend", "name");
  k.bopts.device = int(c.integer("backend", "device"));
  k.bopts.platform = c.str("backend", "platform");
  k.bopts.threads = int(c.integer("backend", "threads"));
  k.bopts.chain_block = c.integer("backend", "cache-block");
  k.bopts.flush_denormals = c.boolean("backend", "flush-denormals");
  k.bopts.graphs = c.boolean("backend", "cuda-graphs");

  k.mesh = load_mesh(c, k.mesh_source);
  const int nd = k.mesh.ndims;
  const auto consts = c.constants();

  auto& s = k.sys;
  s.phys.system = c.str("solver", "system");
  s.phys.ndims = nd;
  s.phys.riemann = c.str("solver", "riemann-solver");
  s.phys.gamma = consts.at("gamma");
  s.phys.mu = consts.at("mu");
  s.phys.pr = consts.at("Pr");
  s.phys.ldg_beta = c.real("solver", "ldg-beta");
  s.phys.ldg_tau = c.real("solver", "ldg-tau");
  s.phys.sutherland = c.str("solver", "viscosity-correction") == "sutherland";
  if (s.phys.sutherland) {
    s.phys.cptref = c.real("constants", "cpTref");
    s.phys.cpts = c.real("constants", "cpTs");
  }
  if (s.phys.viscous() && !(s.phys.mu > 0))
    throw UserError(c.where("constants", "mu") + ": navier-stokes needs mu > 0");
  s.order = int(c.integer("solver", "order"));
  for (const auto& g : k.mesh.groups) s.upts[g.etype] = c.str("solver.points", g.etype);
  set_antialias(s, c.str("solver", "anti-alias"));
  std::set<std::string> kinds;
  for (const auto& g : k.mesh.groups)
    for (const auto& f : operators::shape(g.etype).faces) kinds.insert(f.kind);
  for (const auto& kind : kinds) {
    s.face_quad_deg[kind] = int(c.integer("solver.face-quad-deg", kind));
    if (s.antialias_surf) try {
        operators::face_quadrule(kind, s.order, s.face_quad_deg[kind]);
      } catch (const UserError& e) {
        throw UserError(c.where("solver.face-quad-deg", kind) + ": " + e.what());
      }
  }
  for (const auto& g : k.mesh.groups) {
    s.quad_deg[g.etype] = int(c.integer("solver.quad-deg", g.etype));
    // A rule the tables lack fails here, naming the case file, not at the system's set-up.
    if (s.antialias_flux) try {
        operators::volume_quadrule(g.etype, s.order, s.quad_deg[g.etype]);
      } catch (const UserError& e) {
        throw UserError(c.where("solver.quad-deg", g.etype) + ": " + e.what());
      }
  }
  s.precision = kernels::parse_precision(c.str("backend", "precision"), c.filename());
  s.matmul = c.str("backend", "matmul");

  // Boundary conditions: a [bcs.NAME] for every boundary with faces, and none for others.
  auto counts = meshes::count_faces(k.mesh);
  for (std::size_t b = 0; b < k.mesh.boundaries.size(); ++b) {
    const std::string& name = k.mesh.boundaries[b];
    if (counts.boundary[b] == 0) continue;
    if (!c.has_section("bcs." + name))
      throw UserError(c.filename() + ": boundary '" + name + "' of the mesh (" + k.mesh_source +
                      ") has no [bcs." + name + "]");
  }
  for (const auto& name : c.subsections("bcs")) {
    auto it = std::find(k.mesh.boundaries.begin(), k.mesh.boundaries.end(), name);
    if (it == k.mesh.boundaries.end() || counts.boundary[it - k.mesh.boundaries.begin()] == 0)
      throw UserError(c.where("bcs." + name, "type") + ": the mesh (" + k.mesh_source +
                      ") has no boundary '" + name + "'");
    const std::string sec = "bcs." + name;
    BcSpec bc;
    bc.type = c.str(sec, "type");
    for (const auto& value : physics::bc_type(bc.type).values) {
      const std::string& v = value.name;
      bool optional = (v == "w" && nd == 2) || value.optional;
      if (!c.has(sec, v)) {
        if (!optional)
          throw UserError(c.filename() + ": [" + sec + "] " + v + " is required by type " +
                          bc.type);
        bc.values[v] = "0.0";
        continue;
      }
      bc.values[v] = render_expr(c, sec, v, consts, s.precision);
      check_bc_state(c, sec, v, consts);
    }
    s.bcs[name] = bc;
  }

  auto& io = k.intg;
  io.scheme = c.str("time", "scheme");
  io.controller = c.str("time", "controller");
  io.dt = c.real("time", "dt");
  io.atol = c.real("time", "atol");
  io.rtol = c.real("time", "rtol");
  io.safety = c.real("time", "safety-fact");
  io.min_fact = c.real("time", "min-fact");
  io.max_fact = c.real("time", "max-fact");
  io.dt_max = c.real("time", "dt-max");
  s.nregs = Integrator::registers(io);
  k.tstart = c.real("time", "tstart");
  k.tend = c.real("time", "tend");
  if (k.tend < k.tstart) throw UserError(c.where("time", "tend") + ": ends before tstart");

  // The initial condition, rendered for the kernel now, so a bad expression fails before any
  // setup work.
  for (const char* v : {"rho", "u", "v", "w", "p"})
    k.ics[v] = config::Expression::parse(c.expr("ics", v), {"x", "y", "z"}, consts,
                                         c.where("ics", v))
                   .to_c(s.precision);
  return k;
}

}  // namespace

// The schema knows the physics' Riemann solvers and boundary conditions before a case is read
// (the plugins' sections come from their registrations: solver/plugins/plugin.hpp).
Case load_case(const std::filesystem::path& file, const std::vector<Override>& overrides) {
  physics::register_schema();
  return build(config::Config::load(file), overrides);
}

Case load_case_text(const std::string& text, const std::string& name,
                    const std::vector<Override>& overrides) {
  physics::register_schema();
  return build(config::Config::parse(text, name), overrides);
}

void Case::set_initial_solution(System& s, int reg) const {
  s.set_from_positions(reg, [&](int npts) { return physics::ics(sys.phys, npts, ics); });
}

std::vector<std::vector<double>> Case::initial_solution(const System& s) const {
  const int nd = s.ndims(), nv = s.nvars();
  const auto consts = cfg.constants();
  const double gamma = consts.at("gamma");
  std::vector<config::Expression> e;
  for (const char* v : {"rho", "u", "v", "w", "p"})
    e.push_back(config::Expression::parse(cfg.expr("ics", v), {"x", "y", "z"}, consts,
                                          cfg.where("ics", v)));
  return s.host_field([&](const double* pos, double* u) {
    const std::map<std::string, double> x = {{"x", pos[0]}, {"y", pos[1]}, {"z", pos[2]}};
    double rho = e[0].eval(x), p = e[4].eval(x), vel[3] = {e[1].eval(x), e[2].eval(x), e[3].eval(x)};
    u[0] = rho;
    for (int c = 0; c < nd; ++c) u[c + 1] = rho * vel[c];
    u[nv - 1] = physics::total_energy(nd, gamma, rho, vel, p);
  });
}

}  // namespace frmini::solver
