#include "solver/plugins/forces.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "solver/config/expression.hpp"
#include "solver/physics/host.hpp"
#include "solver/plugins/force_stats.hpp"
#include "solver/plugins/plugins_internal.hpp"
#include "solver/plugins/sampled_history.hpp"
#include "solver/plugins/forces_device.hpp"
#include "solver/system/gradients.hpp"

namespace frmini::solver {

namespace {
const BoundaryInterfaces& find_boundary(const System& sys, const std::string& boundary) {
  for (const auto& x : sys.interfaces().boundaries)
    if (x.name == boundary) return x;
  throw UserError("forces: the mesh has no boundary '" + boundary + "'");
}
}  // namespace

std::vector<std::pair<int, int64_t>> boundary_elements(const System& sys, const std::string& boundary) {
  std::vector<std::pair<int, int64_t>> r;
  for (const FacePoint& fp : find_boundary(sys, boundary).left) r.emplace_back(fp.group, fp.elem);
  std::sort(r.begin(), r.end());
  r.erase(std::unique(r.begin(), r.end()), r.end());
  return r;
}

SurfaceForce surface_force(const System& sys, const std::vector<std::vector<double>>& soln,
                           const std::string& boundary) {
  return surface_force(
      sys,
      [&](int g, int64_t e) {
        return soln[std::size_t(g)].data() + std::size_t(e) * std::size_t(sys.nvars()) *
                                                 std::size_t(sys.operators()[std::size_t(g)].nupts);
      },
      boundary);
}

SurfaceForce surface_force(const System& sys, const ElementValues& soln, const std::string& boundary) {
  const BoundaryInterfaces* b = &find_boundary(sys, boundary);
  const auto& ph = sys.config().phys;
  const int nd = sys.ndims(), nv = sys.nvars();
  SurfaceForce f{std::vector<double>(nd, 0.0), std::vector<double>(nd, 0.0)};
  std::map<std::pair<int, int64_t>, std::vector<double>> grads;  // per element, computed once
  for (std::size_t q = 0; q < b->size(); ++q) {
    const FacePoint& fp = b->left[q];
    const auto& ops = sys.operators()[std::size_t(fp.group)];
    const double* s = soln(fp.group, fp.elem);
    const int nu = ops.nupts;
    // u at the flux point: row fpt of M0.
    std::vector<double> u(nv, 0.0);
    for (int i = 0; i < nu; ++i) {
      const double m = ops.m0(std::size_t(fp.fpt), std::size_t(i));
      for (int v = 0; v < nv; ++v) u[v] += m * s[std::size_t(v) * nu + i];
    }
    double vel[3] = {0, 0, 0};
    for (int d = 0; d < nd; ++d) vel[d] = u[d + 1] / u[0];
    const double p = physics::pressure(nd, ph.gamma, u.data());
    const double wa = ops.fpts_wts[std::size_t(fp.fpt)] * b->magn[q];  // w |pnorm|
    const double* n = &b->nrm[q * std::size_t(nd)];
    for (int d = 0; d < nd; ++d) f.pressure[d] += wa * p * n[d];
    if (!ph.viscous()) continue;

    auto it = grads.find({fp.group, fp.elem});
    if (it == grads.end()) {
      std::vector<double> g(std::size_t(nd) * nv * nu);
      upts_gradient(ops, sys.geometry()[std::size_t(fp.group)], s, std::size_t(fp.elem), nv, g.data());
      it = grads.emplace(std::make_pair(fp.group, fp.elem), std::move(g)).first;
    }
    // Conserved gradients at the flux point, then velocity gradients dv[j][i] = dv_i/dx_j.
    std::vector<double> gu(std::size_t(nd) * nv, 0.0);
    for (int i = 0; i < nu; ++i) {
      const double m = ops.m0(std::size_t(fp.fpt), std::size_t(i));
      if (m == 0.0) continue;
      for (int j = 0; j < nd; ++j)
        for (int v = 0; v < nv; ++v)
          gu[std::size_t(j) * nv + v] += m * it->second[(std::size_t(j) * nv + v) * nu + i];
    }
    double dv[3][3] = {};
    for (int j = 0; j < nd; ++j)
      for (int i = 0; i < nd; ++i)
        dv[j][i] = (gu[std::size_t(j) * nv + i + 1] - vel[i] * gu[std::size_t(j) * nv]) / u[0];
    const double mu = physics::ViscosityLaw{ph.mu, ph.sutherland, ph.cptref, ph.cpts}(
        physics::cp_temperature(ph.gamma, u[0], p));
    // F_v,i = -sum_j tau_ij n_j (tau is symmetric: dv's transposed layout gives the same).
    for (int i = 0; i < nd; ++i)
      for (int j = 0; j < nd; ++j) f.viscous[i] -= wa * physics::viscous_stress(mu, dv, i, j) * n[j];
  }
  return f;
}

FrontalExtent frontal_extent(const System& sys, const meshes::Mesh& mesh,
                             const std::string& boundary) {
  const BoundaryInterfaces* b = &find_boundary(sys, boundary);
  const int nd = sys.ndims();
  FrontalExtent r;
  // A closed convex body's shadow on the plane across x is covered twice by its surface
  // (front and back), so the shadow's area is half the integral of |n_x|: D per unit span
  // in 2D, D x span for a 3D cylinder, by the same quadrature as the forces.
  for (std::size_t q = 0; q < b->size(); ++q) {
    const FacePoint& fp = b->left[q];
    const double wa = sys.operators()[std::size_t(fp.group)].fpts_wts[std::size_t(fp.fpt)] * b->magn[q];
    r.area += 0.5 * wa * std::abs(b->nrm[q * std::size_t(nd)]);
  }
  if (nd == 3) {
    // The span from the nodes of the elements on the boundary: flux points stop short of the
    // faces' edges, and an extruded mesh's elements span exactly what their faces do in z.
    double zmin = 1e308, zmax = -1e308;
    for (const auto& fp : b->left) {
      const auto& g = mesh.groups[std::size_t(fp.group)];
      for (int n = 0; n < g.nnodes; ++n) {
        const double z = g.nodes[(std::size_t(fp.elem) * g.nnodes + n) * 3 + 2];
        zmin = std::min(zmin, z), zmax = std::max(zmax, z);
      }
    }
    r.span = zmax > zmin ? zmax - zmin : 1.0;
    r.zmin = zmin, r.zmax = zmax;
  }
  r.length = r.area / r.span;
  return r;
}

namespace {

// A reference value: the key's, else the first of `fallbacks` that the case defines as a
// constant ([constants] key, or an [ics] expression of no coordinate), else `def`.
struct Ref {
  double value;
  std::string from;
};

std::optional<double> constant_ics(const config::Config& cfg, const std::string& key) {
  if (!cfg.has("ics", key)) return std::nullopt;
  auto e = config::Expression::parse(cfg.expr("ics", key), {"x", "y", "z"}, cfg.constants(),
                                     cfg.where("ics", key));
  for (const char* v : {"x", "y", "z"})
    if (e.uses(v)) return std::nullopt;
  return e.eval({{"x", 0.0}, {"y", 0.0}, {"z", 0.0}});
}

Ref ref_density(const config::Config& cfg, const std::string& sec) {
  if (cfg.has(sec, "ref-density")) return {cfg.real(sec, "ref-density"), "ref-density"};
  if (cfg.has("constants", "rhoinf")) return {cfg.real("constants", "rhoinf"), "[constants] rhoinf"};
  if (auto r = constant_ics(cfg, "rho")) return {*r, "[ics] rho"};
  return {1.0, "default 1"};
}

Ref ref_velocity(const config::Config& cfg, const std::string& sec) {
  if (cfg.has(sec, "ref-velocity")) return {cfg.real(sec, "ref-velocity"), "ref-velocity"};
  if (cfg.has("constants", "Uinf")) return {cfg.real("constants", "Uinf"), "[constants] Uinf"};
  double uu = 0;
  for (const char* v : {"u", "v", "w"}) {
    if (!cfg.has("ics", v)) continue;
    auto c = constant_ics(cfg, v);
    if (!c) return {1.0, "default 1 ([ics] velocity not constant)"};
    uu += *c * *c;
  }
  return uu > 0 ? Ref{std::sqrt(uu), "|[ics] velocity|"} : Ref{1.0, "default 1"};
}

std::string fmt(const char* f, double x) {
  char b[64];
  std::snprintf(b, sizeof b, f, x);
  return b;
}

class Forces : public SampledHistory {
 public:
  Forces(const Case& k, const std::string& boundary)
      : SampledHistory(k.cfg, "plugins.forces." + boundary),
        boundary_(boundary),
        file_(k.cfg.str(section_, "file").empty() ? "forces-" + boundary_ + ".csv"
                                                   : k.cfg.str(section_, "file")) {
    summary_ = file_.parent_path() / (file_.stem().string() + "-summary.csv");
    const auto& c = k.cfg;
    if (c.has(section_, "stats-tstart")) stats_.tstart = c.real(section_, "stats-tstart");
    stats_.discard = c.real(section_, "stats-discard");
    // Checked before the run starts, so a misspelt name costs no output and no time.
    std::string names;
    for (const auto& b : k.mesh.boundaries) {
      if (b == boundary_) return;
      names += (names.empty() ? "" : ", ") + b;
    }
    throw UserError(k.cfg.filename() + ": [" + section_ + "]: the mesh has no boundary '" +
                    boundary_ + "' (its boundaries: " + (names.empty() ? "none" : names) + ")");
  }
  std::string name() const override { return "forces"; }
  void start(RunContext& ctx) override {
    static const char* ax = "xyz";
    const int nd = ctx.sys.ndims();
    reference(ctx);
    device_ = std::make_unique<DeviceSurfaceForce>(ctx.sys, boundary_);
    std::string head = "step,t";
    for (const char* part : {"p", "v"})
      for (int d = 0; d < nd; ++d) head += std::string(",") + part + ax[d];
    head += nd == 3 ? ",cd,cl,cz" : ",cd,cl";
    open_history(ctx, file_, head);
    // The statistics at the end cover the whole history, the earlier runs' part included.
    for (const auto& r : hist_.kept())
      keep(history_row_field(r, 1), history_row_field(r, 2 + 2 * std::size_t(nd)),
           history_row_field(r, 3 + 2 * std::size_t(nd)));
    sample_start(ctx);
  }
  void finish(RunContext& ctx) override {
    hist_.close();
    if (ctx.root()) summarise(ctx);
  }

 private:
  // q and S from the keys or the case: q = rho U^2 / 2, S = the boundary's frontal area.
  void reference(RunContext& ctx) {
    const auto& c = ctx.kase.cfg;
    FrontalExtent ext;
    try {
      ext = frontal_extent(ctx.sys, ctx.dist ? ctx.dist->part().mesh : ctx.kase.mesh, boundary_);
    } catch (const UserError& e) {
      throw UserError(c.filename() + ": [" + section_ + "]: " + e.what());
    }
    if (ctx.dist) {
      // Over the parts: the area adds up, the span is the z extent of all of them.
      double a[3] = {ext.area, ext.zmax, -ext.zmin};
      ctx.dist->comm().sum(a, 1);
      ctx.dist->comm().max(a + 1, 2);
      ext.area = a[0];
      if (ctx.sys.ndims() == 3) ext.span = a[1] > -a[2] ? a[1] + a[2] : 1.0;
      ext.length = ext.area / ext.span;
    }
    const Ref rho = ref_density(c, section_), u = ref_velocity(c, section_);
    uref_ = u.value;
    qref_ = c.has(section_, "ref-pressure") ? c.real(section_, "ref-pressure")
                                            : 0.5 * rho.value * u.value * u.value;
    aref_ = c.has(section_, "ref-area") ? c.real(section_, "ref-area") : ext.area;
    lref_ = c.has(section_, "ref-length") ? c.real(section_, "ref-length") : ext.length;
    if (!(qref_ > 0) || !(aref_ > 0) || !(lref_ > 0) || !(uref_ > 0))
      throw UserError(c.filename() + ": [" + section_ + "]: the reference pressure, area, length "
                      "and velocity must be positive (set ref-pressure, ref-area, ref-length, "
                      "ref-velocity)");
    refs_ = "q = " + fmt("%.6g", qref_) +
            (c.has(section_, "ref-pressure") ? " (ref-pressure)"
                                             : " (rho U^2/2, rho from " + rho.from + ", U from " + u.from + ")") +
            ", S = " + fmt("%.6g", aref_) +
            (c.has(section_, "ref-area") ? " (ref-area)" : " (frontal area, D x span)") +
            ", D = " + fmt("%.6g", lref_) + (c.has(section_, "ref-length") ? " (ref-length)" : "");
  }

  void sample(RunContext& ctx) override {
    // The step's kernels may still be queued (opencl, cuda): wait for them first, so the time
    // below is the sample's alone (its download would otherwise wait for the whole step).
    ctx.sys.backend().synchronize();
    const auto t0 = std::chrono::steady_clock::now();
    SurfaceForce f = device_->compute(ctx.intg.current());
    if (ctx.dist) {
      // Each rank integrates over its part of the boundary.
      ctx.dist->comm().sum(f.pressure.data(), f.pressure.size());
      ctx.dist->comm().sum(f.viscous.data(), f.viscous.size());
    }
    sample_s_.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    const double t = ctx.intg.state().t;
    char b[64];
    std::snprintf(b, sizeof b, "%lld,%.10g", (long long)ctx.intg.state().nsteps, t);
    std::string row = b;
    for (const auto* v : {&f.pressure, &f.viscous})
      for (double x : *v) row += fmt(",%.10g", x);
    double coef[3] = {0, 0, 0};
    for (std::size_t d = 0; d < f.pressure.size(); ++d) {
      coef[d] = (f.pressure[d] + f.viscous[d]) / (qref_ * aref_);
      row += fmt(",%.10g", coef[d]);
    }
    append(ctx, row);
    keep(t, coef[0], coef[1]);
    ctx.latest[boundary_] = "Cd " + fmt("%.5g", coef[0]) + " Cl " + fmt("%.5g", coef[1]);
  }
  void keep(double t, double cd, double cl) {
    // A rejected step can revisit a time; keep the history increasing.
    if (!std::isfinite(t) || (!t_.empty() && t <= t_.back())) return;
    t_.push_back(t), cd_.push_back(cd), cl_.push_back(cl);
  }

  void summarise(RunContext& ctx) {
    stats_.lref = lref_, stats_.uref = uref_;
    const ForceStats s = force_stats(t_, cd_, cl_, stats_);
    const std::string st = s.cycles_found ? fmt("%.6g", s.strouhal) : "";
    std::string csv = "boundary,t0,t1,ncycles,strouhal,mean_cd,rms_cl,mean_cl,ref_pressure,"
                      "ref_area,ref_length,note\n";
    csv += boundary_ + fmt(",%.10g", s.t0) + fmt(",%.10g", s.t1) + "," + std::to_string(s.ncycles) +
           "," + st + fmt(",%.10g", s.mean_cd) + fmt(",%.10g", s.rms_cl) + fmt(",%.10g", s.mean_cl) +
           fmt(",%.10g", qref_) + fmt(",%.10g", aref_) + fmt(",%.10g", lref_) + "," + s.note + "\n";
    write_text_atomically(summary_, csv);
    ctx.report.push_back("forces on " + boundary_ + ": " + refs_);
    if (!sample_s_.empty()) {
      // What a sample costs: the integral on the device and the download of its sums.
      std::vector<double> s = sample_s_;
      std::nth_element(s.begin(), s.begin() + std::ptrdiff_t(s.size() / 2), s.end());
      ctx.report.push_back("  " + std::to_string(sample_s_.size()) + " samples, median " +
                           fmt("%.3g", s[s.size() / 2] * 1e3) + " ms each, integrated on the "
                           "device over the " + std::to_string(device_->npoints()) +
                           " flux points of the boundary");
    }
    ctx.report.push_back("  t " + fmt("%.6g", s.t0) + " to " + fmt("%.6g", s.t1) + ": mean Cd " +
                         fmt("%.5g", s.mean_cd) + ", rms Cl " + fmt("%.5g", s.rms_cl) +
                         (s.cycles_found ? ", St " + st + " over " + std::to_string(s.ncycles) + " cycles"
                                         : ", St: " + s.note) +
                         " (" + summary_.string() + ")");
  }

  std::string boundary_;
  std::filesystem::path file_, summary_;
  std::string refs_;
  std::unique_ptr<DeviceSurfaceForce> device_;
  std::vector<double> sample_s_;  // wall seconds of each sample
  ForceStatsOptions stats_;
  double qref_ = 1, aref_ = 1, lref_ = 1, uref_ = 1;
  std::vector<double> t_, cd_, cl_;
};

}  // namespace

// One per [plugins.forces.<boundary>] table.
PluginType forces_plugin() {
  using T = config::ValueType;
  PluginType t;
  t.section = "plugins.forces.*";
  t.schema = {
      {"plugins.forces.*", "Pressure and viscous force on a boundary (table name = boundary), "
                           "Cd, Cl (Cz) = F / (q S) along x, y (z), and at the end mean Cd, rms Cl "
                           "and the Strouhal number in the report and <file>-summary.csv.",
       {{"nsteps", T::integer, "10", "every nsteps steps", {}, 1, 1e9},
        {"file", T::string, "", "CSV file (default forces-<name>.csv), written as the run goes "
                                "and continued by a restart"},
        {"flushsteps", T::integer, "500", "write the rows held in memory to the file at least "
                                          "every flushsteps steps (also at every solution file, "
                                          "on SIGINT/SIGTERM and at the end)", {}, 1, 1e9},
        {"ref-density", T::real, "", "rho for q (default: [constants] rhoinf, else a constant "
                                     "[ics] rho, else 1)", {}, 0.0},
        {"ref-velocity", T::real, "", "U for q and St (default: [constants] Uinf, else |[ics] "
                                      "velocity| if constant, else 1)", {}, 0.0},
        {"ref-pressure", T::real, "", "dynamic pressure q (default rho U^2 / 2)", {}, 0.0},
        {"ref-area", T::real, "", "reference area S (default the boundary's frontal area across "
                                  "x: D x span in 3D, D in 2D)", {}, 0.0},
        {"ref-length", T::real, "", "D for St = f D / U (default frontal area / span)", {}, 0.0},
        {"stats-tstart", T::real, "", "statistics from this time (default: after stats-discard)"},
        {"stats-discard", T::real, "0.5", "fraction of the history discarded as transient", {},
         0.0, 0.99}}}};
  t.make = [](const Case& k, const PluginArgs& a) -> std::unique_ptr<Plugin> {
    return std::make_unique<Forces>(k, a.table);
  };
  return t;
}

}  // namespace frmini::solver
