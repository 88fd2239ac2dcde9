// The export plugin ([plugins.export]): what `frmini export` makes, every dt-out during a run —
// the volume (.vtu), the isosurfaces (.vtp), the wall (.vtp with cp, cf) and a picture (.png),
// numbered like the writer's files — with ParaView collections (.pvd) rewritten after each
// output so a viewer can open the series while the run goes on.
//
// It lives beside the exporter rather than in solver/plugins/ because it needs VTK and the
// exporter, which depend on the solver library; it registers itself with make_plugins by
// section name (register_export_plugin, called by the frmini executable at start).
#include <filesystem>
#include <iostream>
#include <sstream>

#include "base/error.hpp"
#include "solver/export/export.hpp"
#include "solver/export/views.hpp"
#include "solver/plugins/plugin.hpp"

namespace frmini::solver::exporter {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSection = "plugins.export";

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');) {
    const auto b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
    if (b != std::string::npos) out.push_back(item.substr(b, e - b + 1));
  }
  return out;
}

class ExportPlugin : public PeriodicOutput {
 public:
  explicit ExportPlugin(const Case& k)
      : PeriodicOutput(k.tstart, k.cfg.real(kSection, "dt-out")),
        dir_(k.cfg.str(kSection, "basedir")),
        base_(k.cfg.str(kSection, "basename")),
        volume_(k.cfg.boolean(kSection, "volume")),
        ctx_(case_context(k.cfg, k.mesh)) {
    if (!have_vtk())
      throw UserError(k.cfg.where(kSection, "dt-out") + ": the export plugin needs VTK; frmini was built without it (install libvtk9-dev)");
    output_folder(dir_.empty() ? fs::path(".") : dir_, k.cfg.where(kSection, "basedir"));
    opts_.order = int(k.cfg.integer(kSection, "order"));
    opts_.divisor = int(k.cfg.integer(kSection, "divisor"));
    if (opts_.order && opts_.divisor)
      throw UserError(k.cfg.where(kSection, "divisor") + ": give order or divisor, not both");
    // Every mistake named by its key's file and line, before the first step.
    auto at = [&](const char* key, auto&& check) {
      try {
        check();
      } catch (const UserError& e) {
        throw UserError(k.cfg.where(kSection, key) + ": " + e.what());
      }
    };
    opts_.fields = split_list(k.cfg.str(kSection, "fields"));
    at("fields", [&] { check_fields(opts_.fields); });
    bopts_.name = k.cfg.str(kSection, "boundary");
    if (!bopts_.name.empty()) at("boundary", [&] { check_boundary(ctx_, bopts_); });
    views_.isosurfaces = split_list(k.cfg.str(kSection, "isosurfaces"));
    views_.color_by = k.cfg.str(kSection, "color-by");
    png_ = k.cfg.boolean(kSection, "png");
    if (png_ && ctx_.mesh.ndims == 3 && views_.isosurfaces.empty())
      throw UserError(k.cfg.where(kSection, "png") +
                      ": a 3D picture shows isosurfaces: give isosurfaces = \"qcrit=0.5\" (or png = false)");
    ViewOptions probe = views_;
    probe.png = png_ ? "x.png" : "";
    probe.iso_out = views_.isosurfaces.empty() ? "" : "x.vtp";
    at("isosurfaces", [&] { check_views(ctx_, probe); });
    // The collections are named after basename without its {n}/{t} part: "cyl-{n}" -> "cyl".
    std::string stem = base_;
    for (const char* key : {"{n}", "{t}"})
      for (std::size_t p; (p = stem.find(key)) != std::string::npos;) stem.erase(p, 3);
    while (!stem.empty() && (stem.back() == '-' || stem.back() == '_' || stem.back() == '.'))
      stem.pop_back();
    stem_ = stem.empty() ? "export" : stem;
  }
  std::string name() const override { return "export"; }

 private:
  void write(RunContext& ctx, int count) override {
    // Over several ranks the solution is gathered on rank 0 (every rank takes part), which
    // makes the files for the whole mesh.
    const SolutionFile s = current_solution(ctx);
    if (!ctx.root()) return;
    const double t = s.state.t;
    const std::string n = output_name(base_, t, count);
    fs::create_directories(dir_.empty() ? fs::path(".") : dir_);
    if (volume_) {
      const fs::path f = dir_ / (n + ".vtu");
      write_volume(f.string(), ctx_, s, opts_);
      vols_.push_back({t, f.filename().string()});
      write_pvd((dir_ / (stem_ + ".pvd")).string(), vols_);
    }
    if (!bopts_.name.empty()) {
      const fs::path f = dir_ / (n + "-" + bopts_.name + ".vtp");
      write_boundary(f.string(), ctx_, s, opts_, bopts_);
      bnds_.push_back({t, f.filename().string()});
      write_pvd((dir_ / (stem_ + "-" + bopts_.name + ".pvd")).string(), bnds_);
    }
    ViewOptions v = views_;
    if (!v.isosurfaces.empty()) v.iso_out = (dir_ / (n + "-iso.vtp")).string();
    if (png_) v.png = (dir_ / (n + ".png")).string();
    if (!v.isosurfaces.empty() || png_) {
      ViewReport r;
      try {
        r = write_views(ctx_, s, opts_, v);
      } catch (const UserError& e) {
        // A uniform start has no vortices (qcrit = 0 everywhere): a value outside a field's
        // range is a fact about this moment of the flow, not a mistake in the case, so the
        // run goes on and the next output tries again.
        std::cerr << "frmini: export t = " << t << ": no isosurface or picture (" << e.what() << ")\n";
        return;
      }
      if (!v.iso_out.empty()) {
        isos_.push_back({t, fs::path(v.iso_out).filename().string()});
        write_pvd((dir_ / (stem_ + "-iso.pvd")).string(), isos_);
      }
      if (!ctx.quiet && r.npolys >= 0)
        std::cerr << "frmini: export t = " << t << ": " << r.npolys << " isosurface "
                  << (s.ndims == 2 ? "segments" : "polygons") << "\n";
    }
  }

  fs::path dir_;
  std::string base_, stem_;
  bool volume_ = true, png_ = false;
  SolutionContext ctx_;
  ExportOptions opts_;
  BoundaryOptions bopts_;
  ViewOptions views_;
  std::vector<PvdEntry> vols_, bnds_, isos_;
};

}  // namespace

void register_export_plugin() {
  using T = config::ValueType;
  register_plugin({kSection,
                   {
      {"plugins.export", "VTK files and pictures every dt-out, as frmini export makes them "
                         "(docs/export.md), with .pvd collections kept up to date.",
       {{"dt-out", T::real, "", "output interval", {}, 0.0, 1e300, true},
        {"basedir", T::string, ".", "output folder, relative to the working directory"},
        {"basename", T::string, "export-{n}", "file names; {t} = time, {n} = output number"},
        {"volume", T::boolean, "true", "write the volume (<basename>.vtu)"},
        {"order", T::integer, "0", "Lagrange cell order (0: the solution's)", {}, 0, 12},
        {"divisor", T::integer, "0", "linear sub-cells per edge instead (0: Lagrange cells)", {}, 0, 64},
        {"fields", T::string, "", "point arrays of the volume, comma-separated (default all)"},
        {"boundary", T::string, "", "also this boundary with cp, cf (<basename>-<name>.vtp)"},
        {"isosurfaces", T::string, "", "isosurfaces, comma-separated FIELD=VALUE "
                                       "(<basename>-iso.vtp), e.g. \"qcrit=0.5, rho=0.99\""},
        {"color-by", T::string, "", "field coloured onto isosurfaces and pictures"},
        {"png", T::boolean, "false", "a picture (<basename>.png): 3D isosurfaces with the "
                                     "walls; 2D a colour map (vorticity by default)"}}}},
                   [](const Case& k, const PluginArgs&) -> std::unique_ptr<Plugin> {
                     return std::make_unique<ExportPlugin>(k);
                   }});
}

}  // namespace frmini::solver::exporter
