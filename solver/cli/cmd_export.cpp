// frmini export soln.h5 [more.h5 ...] out.vtu|out.pvd: solution files to VTK (docs/export.md).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <set>

#include "base/error.hpp"
#include "solver/cli/args.hpp"
#include "solver/cli/commands.hpp"
#include "solver/export/export.hpp"
#include "solver/export/views.hpp"
#include "solver/io/solution_file.hpp"

namespace frmini::cli {

namespace {

namespace fs = std::filesystem;
namespace ex = solver::exporter;

ArgParser parser() {
  ArgParser p("export",
              "Write solution files as VTK: export soln.h5 [more.h5 ...] [out.vtu|out.pvd]\n"
              "[--isosurface F=V ... [--out iso.vtp]] [--png picture.png]");
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
      .option("isosurface", "F=V",
              "an isosurface of field F (any of --fields; vectors by magnitude, or F:x|y|z)\n"
              "      at value V; repeat for several, e.g. --isosurface qcrit=0.5 --isosurface rho=0.99")
      .option("color-by", "F", "the field coloured onto the isosurfaces and pictures (F[:x|y|z|mag])")
      .option("out", "iso.vtp", "write the isosurfaces (one .vtp, an 'isosurface' array says which)")
      .option("png", "pic.png",
              "an off-screen picture: 3D, the isosurfaces coloured by --color-by with the body;\n"
              "      2D, a colour map of --color-by (default vorticity:z) around the body and wake.\n"
              "      Without DISPLAY, frmini starts Xvfb itself")
      .option("body", "NAME[,NAME]", "boundaries drawn as the body (default: the case's walls)")
      .option("size", "WxH", "picture size in pixels (default 1280x720)")
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
  std::vector<std::string> pos, rest;  // rest: all but --isosurface, gathered here
  ex::ViewOptions vo;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& s = argv[i];
    // Repeatable, so gathered here rather than by ArgParser (which keeps one value per option).
    if (s == "--isosurface" || s.rfind("--isosurface=", 0) == 0) {
      if (s == "--isosurface" && i + 1 == argv.size())
        throw UserError("export: --isosurface needs FIELD=VALUE");
      vo.isosurfaces.push_back(s == "--isosurface" ? argv[++i] : s.substr(13));
      continue;
    }
    rest.push_back(s);
  }
  const ArgParser p = parser();
  const Args a = p.parse_mixed(rest, pos);
  if (!ex::have_vtk()) throw UserError("export: built without VTK (install libvtk9-dev)");
  vo.color_by = a.get("color-by");
  vo.iso_out = a.get("out");
  vo.png = a.get("png");
  vo.body = a.get_list("body");
  if (a.given("size")) {
    const std::string sz = a.get("size");
    if (std::sscanf(sz.c_str(), "%dx%d", &vo.width, &vo.height) != 2 || vo.width < 16 ||
        vo.height < 16 || vo.width > 8192 || vo.height > 8192)
      throw UserError("export: --size " + sz + ": expected WxH, e.g. 1280x720 (16 to 8192)");
  }
  const bool views = !vo.isosurfaces.empty() || !vo.png.empty();
  if (!vo.isosurfaces.empty() && vo.iso_out.empty() && vo.png.empty())
    throw UserError("export: --isosurface needs --out iso.vtp or --png picture.png");
  // The volume output is optional when only isosurfaces or a picture are asked for.
  const bool has_volume = !pos.empty() && (fs::path(pos.back()).extension() == ".vtu" ||
                                           fs::path(pos.back()).extension() == ".pvd");
  if (pos.empty() || (pos.size() < 2 && (!views || has_volume)))
    throw UserError("export: needs solution files and an output .vtu or .pvd, or --isosurface/--png (see frmini export --help)");
  fs::path out;
  if (has_volume || !views) {
    out = pos.back();
    pos.pop_back();
  }
  const std::string ext = out.extension().string();
  if (!out.empty() && ext != ".vtu" && ext != ".pvd")
    throw UserError("export: " + out.string() + ": the output must end in .vtu or .pvd");
  if (views && pos.size() > 1)
    throw UserError("export: --isosurface and --png take one solution file (the export plugin makes them for every output)");
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
  if (!bo.name.empty() && out.empty() && !a.given("out-boundary"))
    throw UserError("export: --boundary without a volume output needs --out-boundary wall.vtp");
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
  if (views) ex::check_views(ctxs.front(), vo);

  std::vector<ex::PvdEntry> vols, bnds;
  for (std::size_t i : idx) {
    const auto& s = solns[i];
    const auto& ctx = ctxs[ctx_of[i]];
    ex::ExportOptions o = eo;
    const std::string tag = fs::path(pos[i]).stem().string();
    if (views) {
      const auto r = ex::write_views(ctx, s, o, vo);
      if (!vo.iso_out.empty())
        std::cout << vo.iso_out << ": " << r.npolys << (s.ndims == 2 ? " line segments" : " polygons")
                  << " on " << vo.isosurfaces.size() << " isosurface(s), t = " << s.state.t << "\n";
      if (!vo.png.empty()) std::cout << vo.png << ": picture, t = " << s.state.t << "\n";
    }
    if (out.empty()) continue;
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
