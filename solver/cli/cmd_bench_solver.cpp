// `frmini bench solver`: the paper's per-timestep tables (Table 1: s/step for each order,
// precision and provider; Table 2: generated over BLAS speedups) on the Taylor-Green vortex
// benchmark mesh (a fully periodic box of hexes on [0, 2 pi]^3,
// compressible Navier-Stokes, Re 1600, RK4 at a fixed step), or on a case file (--case, e.g.
// the cylinder at Re 3900). Each configuration takes one untimed step (compilation, tuning),
// then rounds of `--steps` timed steps that alternate between the providers, synchronised one
// by one; the tables give the median (and the first listing the minimum) per step.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "kernels/backend.hpp"
#include "meshes/connectivity.hpp"
#include "meshes/generators.hpp"
#include "meshes/gmsh_import.hpp"
#include "meshes/mesh_file.hpp"
#include "solver/case/case.hpp"
#include "solver/cli/args.hpp"
#include "solver/cli/bench.hpp"
#include "solver/integrators/integrator.hpp"
#include "solver/physics/physics.hpp"
#include "solver/system/step_floor.hpp"

namespace frmini::cli {

namespace {

meshes::Mesh tgv_mesh(const std::string& file, long n) {
  if (!file.empty()) return meshes::read_mesh(file);
  namespace fs = std::filesystem;
  auto dir = fs::temp_directory_path() / ("frmini-bench-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  meshes::GeneratorOptions g;
  g.name = "box-hex";
  g.out = (dir / "tgv.msh").string();
  g.n = {n};
  g.length = {2 * M_PI};
  meshes::generate_mesh(g);
  auto m = meshes::build_mesh(meshes::read_gmsh(g.out));
  fs::remove_all(dir);
  return m;
}

// The Taylor-Green initial condition (PyFR's 3d-taylor-green case), PyFR's Ps = 111.607,
// as C expressions for physics::ics: evaluated on the device like a case's [ics].
const std::map<std::string, std::string> tgv_ics = {
    {"rho", "(111.607 + (cos(2*x) + cos(2*y))*(cos(2*z) + 2)/16)/111.607"},
    {"u", "sin(x)*cos(y)*cos(z)"},
    {"v", "-cos(x)*sin(y)*cos(z)"},
    {"w", "0.0"},
    {"p", "111.607 + (cos(2*x) + cos(2*y))*(cos(2*z) + 2)/16"}};

struct Row {
  int order;
  std::string precision, provider;
  double dofs, median, min;
  double floor = 0;  // s a step at the least bytes (solver/system/step_floor.hpp) and the triad
  double laid_out = 0;  // s a step at the bytes of the pipeline as laid out, at the triad
};

// One configuration ready to step: the case behind it (its mesh outlives the system).
struct Setup {
  std::unique_ptr<solver::Case> kase;  // null for the Taylor-Green box
  std::unique_ptr<solver::System> sys;
  std::unique_ptr<solver::Integrator> intg;
  int stages = 4;
};

// The Taylor-Green box: Navier-Stokes, Re 1600, RK4 at a fixed step.
// A provider named in --providers as NAME, NAME+aa (flux anti-aliasing), NAME+surf (surface-flux
// anti-aliasing) or NAME+aa+surf (both).
struct Label {
  std::string prov;
  bool flux = false, surf = false;
  std::string antialias() const { return flux && surf ? "flux,surf-flux" : flux ? "flux" : surf ? "surf-flux" : "none"; }
};

Label parse_label(const std::string& label) {
  Label l{label};
  auto strip = [&](const std::string& suffix) {
    const std::string& p = l.prov;
    if (p.size() <= suffix.size() || p.compare(p.size() - suffix.size(), suffix.size(), suffix) != 0) return false;
    l.prov.resize(p.size() - suffix.size());
    return true;
  };
  l.surf = strip("+surf");
  l.flux = strip("+aa");
  return l;
}

Setup tgv_setup(kernels::Backend& be, const meshes::Mesh& mesh, int order, const std::string& prec,
                const std::string& label) {
  const Label l = parse_label(label);
  solver::SystemConfig cfg;
  cfg.phys.system = "navier-stokes";
  cfg.phys.ndims = 3;
  cfg.phys.mu = 1.0 / 1600;
  cfg.phys.pr = 0.71;
  cfg.order = order;
  cfg.precision = kernels::parse_precision(prec, "bench solver: --precision");
  cfg.matmul = l.prov;
  solver::set_antialias(cfg, l.antialias());
  solver::IntegratorOptions io;
  io.dt = 1e-3;
  cfg.nregs = solver::Integrator::registers(io);
  Setup s;
  s.sys = std::make_unique<solver::System>(be, mesh, cfg);
  s.intg = solver::Integrator::make(*s.sys, io, {});
  s.sys->set_from_positions(s.intg->current(),
                            [&](int npts) { return physics::ics(cfg.phys, npts, tgv_ics); });
  return s;
}

// A case file with the order, precision and provider overridden, as `frmini run` would with
// flags, from its initial condition. Its scheme runs at its first dt with no controller, so
// every timed step does the same work (no rejected steps).
Setup case_setup(kernels::Backend& be, const std::string& file, int order, const std::string& prec,
                 const std::string& label) {
  const Label l = parse_label(label);
  std::vector<solver::Override> ov = {{"solver", "order", std::to_string(order), "--order"},
                                      {"backend", "precision", prec, "--precision"},
                                      {"backend", "matmul", l.prov, "--providers"}};
  if (l.flux || l.surf) ov.push_back({"solver", "anti-alias", l.antialias(), "--providers"});
  Setup s;
  s.kase = std::make_unique<solver::Case>(solver::load_case(file, ov));
  auto io = s.kase->intg;
  io.controller = "none";
  s.sys = std::make_unique<solver::System>(be, s.kase->mesh, s.kase->sys);
  s.intg = solver::Integrator::make(*s.sys, io, {s.kase->tstart, io.dt});
  s.kase->set_initial_solution(*s.sys, s.intg->current());
  s.stages = s.intg->stages();
  return s;
}

double timed_step(kernels::Backend& be, solver::Integrator& intg) {
  auto t0 = std::chrono::steady_clock::now();
  intg.step_once(1e300);
  be.synchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Median s/step of `r`'s order and precision with provider `base`, over r's (0 if absent).
double speedup(const std::vector<Row>& rows, const Row& r, const std::string& base) {
  for (const auto& o : rows)
    if (o.order == r.order && o.precision == r.precision && o.provider == base)
      return o.median / r.median;
  return 0;
}

// Table 1: one row per order, one column per precision/provider; Table 2: the speedup of
// every other provider over the last one listed (blas by default).
void print_tables(const std::vector<Row>& rows, const std::vector<long>& orders,
                  const std::vector<std::string>& precs, const std::vector<std::string>& provs) {
  std::printf("\nTable 1: time per step (s, median)\n%-6s", "order");
  for (const auto& pr : precs)
    for (const auto& pv : provs) std::printf(" %18s", (pr + "/" + pv).c_str());
  std::printf("\n");
  for (long o : orders) {
    std::printf("%-6ld", o);
    for (const auto& pr : precs)
      for (const auto& pv : provs)
        for (const auto& r : rows)
          if (r.order == o && r.precision == pr && r.provider == pv) std::printf(" %18.4g", r.median);
    std::printf("\n");
  }
  const std::string& base = provs.back();
  std::printf("\nTable 2: speedup (median s/step of %s / median s/step of the provider):\n",
              base.c_str());
  for (const auto& r : rows)
    if (r.provider != base)
      std::printf("  p%d %-6s %-10s %6.2fx\n", r.order, r.precision.c_str(), r.provider.c_str(),
                  speedup(rows, r, base));
}

struct Timing {
  long steps, repeats;
  bool profile;
};

// One order and precision: a step of each provider's system untimed (compilation, tuning),
// then the rounds, alternating; prints and returns one row per provider. The floor comes from
// the bytes the timed steps must move (System::floor_so_far) at the device's triad bandwidth.
std::vector<Row> time_providers(kernels::Backend& be, std::vector<Setup>& su, const Timing& tm,
                                int order, const std::string& prec,
                                const std::vector<std::string>& provs) {
  std::vector<std::vector<double>> t(su.size());
  std::vector<solver::StepFloor> f0;
  for (auto& s : su) {
    s.intg->step_once(1e300);
    be.synchronize();
    f0.push_back(s.sys->floor_so_far());
  }
  for (long r = 0; r < tm.repeats; ++r)
    for (std::size_t i = 0; i < su.size(); ++i)
      for (long s = 0; s < tm.steps; ++s) t[i].push_back(timed_step(be, *su[i].intg));
  const double triad = be.bandwidth().triad_gbs * 1e9;
  std::vector<Row> rows;
  for (std::size_t i = 0; i < su.size(); ++i) {
    std::sort(t[i].begin(), t[i].end());
    const solver::StepFloor f = (su[i].sys->floor_so_far() - f0[i]) / double(t[i].size());
    Row row{order, prec, provs[i], double(su[i].sys->ndofs()), t[i][t[i].size() / 2],
            t[i].front(), triad > 0 ? f.total() / triad : 0, triad > 0 ? f.laid_out() / triad : 0};
    rows.push_back(row);
    std::printf("%-6d %-9s %-12s %12.0f %12.4g %12.4g %14.4g %12.4g %8.2f %10.2f\n", row.order,
                prec.c_str(), provs[i].c_str(), row.dofs, row.median, row.min,
                row.dofs * su[i].stages / row.median, row.floor,
                row.floor > 0 ? row.median / row.floor : 0.0,
                row.laid_out > 0 ? row.median / row.laid_out : 0.0);
    std::fflush(stdout);
    if (tm.profile)
      for (const auto& k : su[i].sys->profile(3))
        std::printf("    %-34s %9.3f ms %8.1f GB/s %5.0f%% of triad\n", k.name.c_str(),
                    k.seconds * 1e3, k.bytes / k.seconds / 1e9, 100 * k.bytes / k.seconds / triad);
  }
  return rows;
}

void write_csv(const std::string& path, const std::vector<Row>& rows, const std::string& base) {
  std::string csv = "order,precision,provider,dof,median_s_per_step,min_s_per_step,speedup_vs_" +
                    base + ",floor_s_per_step,median_over_floor,laid_out_s_per_step,median_over_laid_out\n";
  char b[320];
  for (const auto& r : rows) {
    std::snprintf(b, sizeof b, "%d,%s,%s,%.0f,%.6e,%.6e,%.4f,%.6e,%.4f,%.6e,%.4f\n", r.order,
                  r.precision.c_str(), r.provider.c_str(), r.dofs, r.median, r.min,
                  speedup(rows, r, base), r.floor, r.floor > 0 ? r.median / r.floor : 0.0,
                  r.laid_out, r.laid_out > 0 ? r.median / r.laid_out : 0.0);
    csv += b;
  }
  write_text_atomically(path, csv);
}

int bench_solver(const std::vector<std::string>& argv) {
  ArgParser p("bench solver",
              "Per-step times for each order, precision and matmul provider: the paper's Table 1 "
              "(s/step) and Table 2 (speedup over the last provider), on the Taylor-Green "
              "vortex box (Navier-Stokes, RK4) or on a case file (--case).");
  p.option("backend", "NAME", "cpu, opencl or cuda (overrides the case's)", "cpu")
      .option("case", "FILE.toml", "time this case (e.g. configs/cylinder-re3900.toml) instead of the box")
      .option("mesh", "FILE.h5", "a hex mesh instead of the built-in box (e.g. PyFR's 32^3 TGV mesh imported)")
      .option("n", "N", "built-in box: N^3 hexes on [0, 2 pi]^3", "16")
      .option("order", "LIST", "orders", "1-4")
      .option("precision", "LIST", "single,double", "double,single")
      .option("providers", "LIST", "matmul providers to compare; NAME+aa: NAME with flux anti-aliasing, "
                                   "NAME+surf with surface-flux anti-aliasing, NAME+aa+surf with both "
                                   "(generated,generated+aa times its cost)", "generated,blas")
      .option("steps", "N", "timed steps per configuration and repeat", "10")
      .option("repeats", "N", "rounds alternating the providers (the load of a shared machine "
                              "falls on all alike)", "1")
      .option("cache-block", "N", "cpu: elements per cache block (0 = from the caches, -1 = none)", "0")
      .option("csv", "FILE", "also write Table 1 with the speedups as CSV")
      .flag("profile", "after each configuration, time every kernel alone over its whole range");
  Args a = p.parse(argv);
  auto orders = a.get_int_list("order", 0, 8);
  auto precs = a.get_list("precision");
  auto provs = a.get_list("providers");
  const long steps = a.get_int("steps", 1, 100000);
  const long repeats = a.get_int("repeats", 1, 1000);
  const std::string casefile = a.get("case");
  kernels::BackendOptions bo;
  bo.chain_block = a.get_int("cache-block", -1, 1 << 30);
  std::string backend = a.get_choice("backend", {"cpu", "opencl", "cuda"});
  meshes::Mesh mesh;
  std::string title;
  if (casefile.empty()) {
    mesh = tgv_mesh(a.get("mesh"), a.get_int("n", 1, 1000));
    if (mesh.ndims != 3) throw UserError("bench solver: the mesh must be 3D");
    title = "Taylor-Green vortex, Navier-Stokes, RK4; " + std::to_string(mesh.total_elements()) +
            " elements";
  } else {
    if (a.given("mesh") || a.given("n"))
      throw UserError("bench solver: --mesh and --n are for the Taylor-Green box, not --case");
    auto k = solver::load_case(casefile);  // checks the file before anything is timed
    if (!a.given("backend")) backend = k.backend;
    bo = k.bopts, bo.chain_block = a.given("cache-block") ? a.get_int("cache-block", -1, 1 << 30)
                                                          : k.bopts.chain_block;
    title = casefile + ": " + k.mesh_source + ", " + std::to_string(k.mesh.total_elements()) +
            " elements, " + k.sys.phys.system + ", " + k.intg.scheme + " at dt = " +
            std::to_string(k.intg.dt);
  }
  auto be = kernels::make_backend(backend, bo);

  std::printf("%s; backend %s (%s)\n", title.c_str(), be->name().c_str(),
              be->device_description().c_str());
  std::printf("each configuration: one untimed step, then %ld rounds of %ld timed steps alternating "
              "the providers; medians over all timed steps\n", repeats, steps);
  std::printf("%-6s %-9s %-12s %12s %12s %12s %14s %12s %8s %10s\n", "order", "precision", "provider",
              "DOF", "s/step", "min s/step", "DOF-stages/s", "floor s", "/floor", "/laid out");
  std::fflush(stdout);
  std::vector<Row> rows;
  const Timing tm{steps, repeats, a.given("profile")};
  for (long order : orders)
    for (const auto& prec : precs) {
      // Every provider's system lives at once, so the rounds can alternate between them (the
      // cylinder at p = 4 in double: two systems, 10.7 GB resident on the cpu backend).
      std::vector<Setup> su;
      for (const auto& prov : provs)
        su.push_back(casefile.empty() ? tgv_setup(*be, mesh, int(order), prec, prov)
                                      : case_setup(*be, casefile, int(order), prec, prov));
      for (auto& r : time_providers(*be, su, tm, int(order), prec, provs)) rows.push_back(r);
    }
  print_tables(rows, orders, precs, provs);
  if (a.given("csv")) write_csv(a.get("csv"), rows, provs.back());
  return 0;
}

}  // namespace

static const bool registered = register_bench(
    {"solver", "per-step times of the Taylor-Green vortex or a case by order, precision and provider",
     bench_solver});

}  // namespace frmini::cli
