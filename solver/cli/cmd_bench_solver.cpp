// `frmini bench solver`: the paper's per-timestep table (Tables 1/2: generated vs BLAS, single
// vs double, orders 1-4) on the Taylor-Green vortex mesh of reference/benchmarking.md: a fully
// periodic box of hexes on [0, 2 pi]^3, compressible Navier-Stokes, Re 1600, RK4 at a fixed
// step. Each configuration takes one untimed step (compilation, tuning), then `--steps` timed
// steps, synchronised one by one; the table gives the median and minimum per step.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "kernels/backend.hpp"
#include "meshes/connectivity.hpp"
#include "meshes/generators.hpp"
#include "meshes/gmsh_import.hpp"
#include "meshes/mesh_file.hpp"
#include "operators/atomic_file.hpp"
#include "operators/error.hpp"
#include "solver/cli/args.hpp"
#include "solver/cli/bench.hpp"
#include "solver/integrators/integrator.hpp"
#include "solver/physics/physics.hpp"

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

// The Taylor-Green initial condition (reference/validation-cases.md), PyFR's Ps = 111.607,
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
};

int bench_solver(const std::vector<std::string>& argv) {
  ArgParser p("bench solver",
              "Per-step times of the Taylor-Green vortex (Navier-Stokes, RK4) for each order, "
              "precision and matmul provider: the paper's Tables 1/2.");
  p.option("backend", "NAME", "cpu, opencl or cuda", "cpu")
      .option("mesh", "FILE.h5", "a hex mesh instead of the built-in box (e.g. PyFR's 32^3 TGV mesh imported)")
      .option("n", "N", "built-in box: N^3 hexes on [0, 2 pi]^3", "16")
      .option("order", "LIST", "orders", "1-4")
      .option("precision", "LIST", "single,double", "double,single")
      .option("providers", "LIST", "matmul providers to compare", "generated,blas")
      .option("steps", "N", "timed steps per configuration", "10")
      .option("cache-block", "N", "cpu: elements per cache block (0 = from the caches, -1 = none)", "0")
      .option("csv", "FILE", "also write the table as CSV")
      .flag("profile", "after each configuration, time every kernel alone over its whole range");
  Args a = p.parse(argv);
  auto orders = a.get_int_list("order", 0, 8);
  auto precs = a.get_list("precision");
  auto provs = a.get_list("providers");
  const long steps = a.get_int("steps", 1, 100000);
  kernels::BackendOptions bo;
  bo.chain_block = a.get_int("cache-block", -1, 1 << 30);
  auto be = kernels::make_backend(a.get_choice("backend", {"cpu", "opencl", "cuda"}), bo);
  auto mesh = tgv_mesh(a.get("mesh"), a.get_int("n", 1, 1000));
  if (mesh.ndims != 3) throw UserError("bench solver: the mesh must be 3D");

  std::printf("Taylor-Green vortex, Navier-Stokes, RK4; %lld elements; backend %s (%s)\n",
              (long long)mesh.total_elements(), be->name().c_str(), be->device_description().c_str());
  std::printf("%-6s %-9s %-10s %12s %12s %12s %14s\n", "order", "precision", "provider",
              "DOF", "s/step", "min s/step", "DOF-stages/s");
  std::vector<Row> rows;
  for (long order : orders)
    for (const auto& prec : precs)
      for (const auto& prov : provs) {
        solver::SystemConfig cfg;
        cfg.phys.system = "navier-stokes";
        cfg.phys.ndims = 3;
        cfg.phys.mu = 1.0 / 1600;
        cfg.phys.pr = 0.71;
        cfg.order = int(order);
        cfg.precision = kernels::parse_precision(prec, "bench solver: --precision");
        cfg.matmul = prov;
        solver::IntegratorOptions io;
        io.dt = 1e-3;
        cfg.nregs = solver::Integrator::registers(io);
        solver::System sys(*be, mesh, cfg);
        auto intg = solver::Integrator::make(sys, io, {});
        sys.set_from_positions(intg->current(),
                               [&](int npts) { return physics::ics(cfg.phys, npts, tgv_ics); });
        intg->step_once(1e300);  // compilation and tuning
        be->synchronize();
        std::vector<double> t;
        for (long s = 0; s < steps; ++s) {
          auto t0 = std::chrono::steady_clock::now();
          intg->step_once(1e300);
          be->synchronize();
          t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        std::sort(t.begin(), t.end());
        Row r{int(order), prec, prov, double(sys.ndofs()), t[t.size() / 2], t.front()};
        rows.push_back(r);
        std::printf("%-6d %-9s %-10s %12.0f %12.4g %12.4g %14.4g\n", r.order, prec.c_str(),
                    prov.c_str(), r.dofs, r.median, r.min, r.dofs * 4 / r.median);
        std::fflush(stdout);
        if (a.given("profile")) {
          const double bw = be->bandwidth().triad_gbs;
          for (const auto& k : sys.profile(3))
            std::printf("    %-34s %9.3f ms %8.1f GB/s %5.0f%% of triad\n", k.name.c_str(),
                        k.seconds * 1e3, k.bytes / k.seconds / 1e9, 100 * k.bytes / k.seconds / 1e9 / bw);
        }
      }
  // Speedups of every provider over the first one listed that is not itself (blas by default).
  std::printf("\nspeedup (median s/step of %s / median s/step of the provider):\n", provs.back().c_str());
  for (const auto& r : rows)
    for (const auto& o : rows)
      if (o.order == r.order && o.precision == r.precision && o.provider == provs.back() &&
          r.provider != o.provider)
        std::printf("  p%d %-6s %-10s %6.2fx\n", r.order, r.precision.c_str(), r.provider.c_str(),
                    o.median / r.median);
  if (a.given("csv")) {
    std::string csv = "order,precision,provider,dof,median_s_per_step,min_s_per_step\n";
    char b[256];
    for (const auto& r : rows) {
      std::snprintf(b, sizeof b, "%d,%s,%s,%.0f,%.6e,%.6e\n", r.order, r.precision.c_str(),
                    r.provider.c_str(), r.dofs, r.median, r.min);
      csv += b;
    }
    write_text_atomically(a.get("csv"), csv);
  }
  return 0;
}

}  // namespace

static const bool registered = register_bench(
    {"solver", "per-step times of the Taylor-Green vortex by order, precision and provider",
     bench_solver});

}  // namespace frmini::cli
