// frmini export soln.h5 [more.h5 ...] out.vtu|out.pvd: solution files to VTK (docs/export.md).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <limits>
#include <set>

#include "operators/error.hpp"
#include "solver/cli/args.hpp"
#include "solver/cli/commands.hpp"
#include "solver/export/export.hpp"
#include "solver/io/solution_file.hpp"

namespace frmini::cli {

namespace {

namespace fs = std::filesystem;
namespace ex = solver::exporter;

// Options that take a value: the positionals (any number of solution files, then the output)
// are separated from them before ArgParser sees the options.
const std::set<std::string> kValued{"order", "divisor", "fields", "boundary", "out-boundary",
                                    "mesh", "uinf", "pinf", "rhoinf", "gas-constant"};

ArgParser parser() {
  ArgParser p("export",
              "Write solution files as VTK: export soln.h5 [more.h5 ...] out.vtu|out.pvd");
  p.option("order", "K", "Lagrange cell order (default: the solution's order, at least 1)")
      .option("divisor", "N", "linear sub-cells instead, N per element edge")
      .option("fields", "a,b,...",
              "point arrays to write (default all): rho,velocity,p,T,mach,vorticity,"
              "vorticity-mag,qcrit")
      .option("boundary", "NAME", "also write this boundary's surface with cp and cf")
      .option("out-boundary", "wall.vtp",
              "the boundary file (default <out>-<NAME>.vtp; with several solutions one\n"
              "      <stem>-<solution>.vtp each and <stem>.pvd)")
      .option("mesh", "mesh.h5", "the mesh (default: the one named by the solution's case)")
      .option("uinf", "U", "reference speed for cp, cf (default [constants] Uinf)")
      .option("pinf", "P", "reference pressure for cp (default [constants] Pinf)")
      .option("rhoinf", "RHO", "reference density for cp, cf (default [constants] rhoinf or 1)")
      .option("gas-constant", "R", "R in T = p/(rho R) (default [constants] Rgas or 1)")
      .epilog(
          "One solution and out.vtu: that file. Several solutions (or out.pvd): one\n"
          "<stem>-<solution stem>.vtu each beside out.pvd, a ParaView collection of them\n"
          "with their times. Cells: one VTK Lagrange cell per element (pyramids: linear\n"
          "sub-cells); the solution is interpolated with the element's nodal basis and the\n"
          "nodes placed with the mesh's shape functions. Time-average files\n"
          "(variables = primitive-mean) export the same fields. See docs/export.md.");
  return p;
}

double number(const Args& a, const std::string& name) {
  return a.given(name) ? a.get_double(name) : std::numeric_limits<double>::quiet_NaN();
}

int run_export(const std::vector<std::string>& argv) {
  std::vector<std::string> pos, opts;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& s = argv[i];
    if (s.size() > 2 && s.rfind("--", 0) == 0) {
      opts.push_back(s);
      if (s.find('=') == std::string::npos && kValued.count(s.substr(2)) && i + 1 < argv.size())
        opts.push_back(argv[++i]);
    } else if (s == "-h") {
      opts.push_back(s);
    } else {
      pos.push_back(s);
    }
  }
  const ArgParser p = parser();
  const Args a = p.parse(opts);
  if (!ex::have_vtk()) throw UserError("export: built without VTK (install libvtk9-dev)");
  if (pos.size() < 2)
    throw UserError("export: needs solution files and an output .vtu or .pvd (see frmini export --help)");
  const fs::path out = pos.back();
  pos.pop_back();
  const std::string ext = out.extension().string();
  if (ext != ".vtu" && ext != ".pvd")
    throw UserError("export: " + out.string() + ": the output must end in .vtu or .pvd");
  const bool collection = ext == ".pvd";
  if (!collection && pos.size() > 1)
    throw UserError("export: several solution files need a .pvd output, not " + out.string());

  ex::ExportOptions eo;
  if (a.given("order")) eo.order = int(a.get_int("order", 1, 12));
  if (a.given("divisor")) eo.divisor = int(a.get_int("divisor", 1, 64));
  if (eo.order && eo.divisor) throw UserError("export: give --order or --divisor, not both");
  if (a.given("gas-constant")) eo.R = a.get_double("gas-constant");
  eo.fields = a.get_list("fields");
  ex::check_fields(eo.fields);
  ex::BoundaryOptions bo;
  bo.name = a.get("boundary");
  if (a.given("out-boundary") && bo.name.empty())
    throw UserError("export: --out-boundary needs --boundary NAME");
  bo.uinf = number(a, "uinf");
  bo.pinf = number(a, "pinf");
  bo.rhoinf = number(a, "rhoinf");
  fs::path bout = a.given("out-boundary")
                      ? fs::path(a.get("out-boundary"))
                      : out.parent_path() / (out.stem().string() + "-" + bo.name + ".vtp");
  if (!bo.name.empty() && bout.extension() != ".vtp")
    throw UserError("export: --out-boundary " + bout.string() + ": must end in .vtp");

  // Read every file first, so a missing or mismatched one fails before anything is written.
  std::vector<solver::SolutionFile> solns;
  for (const auto& f : pos) {
    // Said here: the HDF5 layer's message for a missing file speaks of meshes.
    if (!fs::is_regular_file(f)) throw UserError("export: " + f + ": no such solution file");
    solns.push_back(solver::read_solution(f));
  }
  std::vector<std::size_t> idx(pos.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t x, std::size_t y) {
    return solns[x].state.t < solns[y].state.t;
  });
  std::set<std::string> stems;
  for (const auto& f : pos)
    if (!stems.insert(fs::path(f).stem().string()).second)
      throw UserError("export: two solution files are called " + fs::path(f).stem().string() +
                      "; their outputs would collide");

  // One context per distinct case and mesh (a run's files share one: the mesh is read once).
  std::vector<ex::SolutionContext> ctxs;
  std::vector<std::size_t> ctx_first, ctx_of(pos.size());
  for (std::size_t i = 0; i < pos.size(); ++i) {
    std::size_t c = 0;
    for (; c < ctxs.size(); ++c)
      if (solns[ctx_first[c]].mesh_uuid == solns[i].mesh_uuid &&
          solns[ctx_first[c]].config_text == solns[i].config_text)
        break;
    if (c == ctxs.size()) {
      ctxs.push_back(ex::load_solution_context(solns[i], pos[i], a.get("mesh")));
      ctx_first.push_back(i);
    }
    ctx_of[i] = c;
  }

  if (!bo.name.empty())
    for (const auto& c : ctxs) ex::check_boundary(c, bo);

  std::vector<ex::PvdEntry> vols, bnds;
  for (std::size_t i : idx) {
    const auto& s = solns[i];
    const auto& ctx = ctxs[ctx_of[i]];
    ex::ExportOptions o = eo;
    const std::string tag = fs::path(pos[i]).stem().string();
    fs::path vpath = collection ? out.parent_path() / (out.stem().string() + "-" + tag + ".vtu") : out;
    const long nc = ex::write_volume(vpath.string(), ctx, s, o);
    std::cout << vpath.string() << ": " << nc << " cells, t = " << s.state.t << "\n";
    vols.push_back({s.state.t, vpath.filename().string()});
    if (!bo.name.empty()) {
      fs::path bpath = pos.size() > 1 ? bout.parent_path() / (bout.stem().string() + "-" + tag + ".vtp") : bout;
      const long nb = ex::write_boundary(bpath.string(), ctx, s, o, bo);
      std::cout << bpath.string() << ": " << nb << " boundary cells\n";
      bnds.push_back({s.state.t, bpath.filename().string()});
    }
  }
  if (collection) {
    ex::write_pvd(out.string(), vols);
    std::cout << out.string() << ": " << vols.size() << " data sets\n";
    if (!bo.name.empty() && pos.size() > 1) {
      const fs::path bp = bout.parent_path() / (bout.stem().string() + ".pvd");
      ex::write_pvd(bp.string(), bnds);
      std::cout << bp.string() << ": " << bnds.size() << " data sets\n";
    }
  }
  return 0;
}

}  // namespace

FRMINI_COMMAND("export", "write solution files as VTK (.vtu, boundary .vtp, .pvd)", run_export, 22);

}  // namespace frmini::cli
