// The point sampler ([plugins.sampler], as PyFR's sampler plugin): the solution at fixed
// physical points every nsteps, one CSV row per point, a history written as the run goes and
// continued by a restart (history.hpp).
// Each point is located once at start (element and reference coordinates, curved elements
// included: solver/system/locate); a point in no element stops the run before its first step.
// Values are the element's own polynomial at the point (its nodal basis), gradients that
// polynomial's physical gradient (solver/system/gradients), so a solution the elements
// represent exactly is sampled exactly. Only the located elements' solution is read: gathered
// on the device and downloaded (element_gather.hpp), never the whole solution.
// Over several ranks each part locates the points in its own elements; a point found by
// several parts (on a face they share) belongs to the lowest rank; the owners' values are
// summed over the ranks (each value plus zeros, so the same digits as one rank) and rank 0
// writes the rows.
#include <array>
#include <cmath>
#include <cstdio>

#include "base/error.hpp"
#include "operators/nodal.hpp"
#include "solver/physics/host.hpp"
#include "solver/plugins/plugins_internal.hpp"
#include "solver/plugins/sampled_history.hpp"
#include "solver/system/element_gather.hpp"
#include "solver/system/gradients.hpp"
#include "solver/system/locate.hpp"

namespace frmini::solver {

namespace {

constexpr const char* kSection = "plugins.sampler";

std::string fmt_point(const std::array<double, 3>& p, int nd) {
  char b[96];
  if (nd == 2) std::snprintf(b, sizeof b, "(%g, %g)", p[0], p[1]);
  else std::snprintf(b, sizeof b, "(%g, %g, %g)", p[0], p[1], p[2]);
  return b;
}

class Sampler : public SampledHistory {
 public:
  explicit Sampler(const Case& k)
      : SampledHistory(k.cfg, kSection),
        file_(k.cfg.str(kSection, "file")),
        primitive_(k.cfg.str(kSection, "format") == "primitive"),
        gradients_(k.cfg.boolean(kSection, "gradients")) {
    const int nd = k.mesh.ndims;
    const bool has_points = k.cfg.has(kSection, "points");
    const bool has_line = k.cfg.has(kSection, "line-from") || k.cfg.has(kSection, "line-to");
    if (has_points == has_line)
      throw UserError(k.cfg.where(kSection, "points") + ": give either points or line-from, "
                      "line-to (and line-npts)");
    if (has_points) {
      pts_ = parse_points(k.cfg.str(kSection, "points"), nd, k.cfg.where(kSection, "points"));
    } else {
      auto a = parse_points(k.cfg.str(kSection, "line-from"), nd, k.cfg.where(kSection, "line-from"));
      auto b = parse_points(k.cfg.str(kSection, "line-to"), nd, k.cfg.where(kSection, "line-to"));
      if (a.size() != 1 || b.size() != 1)
        throw UserError(k.cfg.where(kSection, "line-from") + ": line-from and line-to are one point each");
      const long n = k.cfg.integer(kSection, "line-npts");
      for (long i = 0; i < n; ++i) {
        const double s = double(i) / double(n - 1);
        std::array<double, 3> p{};
        for (int c = 0; c < 3; ++c) p[std::size_t(c)] = (1 - s) * a[0][std::size_t(c)] + s * b[0][std::size_t(c)];
        pts_.push_back(p);
      }
    }
    where_ = k.cfg.where(kSection, has_points ? "points" : "line-from");
  }

  std::string name() const override { return "sampler"; }

  void start(RunContext& ctx) override {
    const auto& mesh = ctx.dist ? ctx.dist->part().mesh : ctx.kase.mesh;
    const int nd = mesh.ndims;
    loc_ = locate_points(mesh, pts_);
    if (ctx.dist) {
      // Owner: the lowest rank that found the point (-rank, maximised; -inf where none did).
      std::vector<double> owner(pts_.size());
      for (std::size_t i = 0; i < pts_.size(); ++i)
        owner[i] = loc_[i].group >= 0 ? -double(ctx.dist->rank()) : -1e300;
      ctx.dist->comm().max(owner.data(), owner.size());
      for (std::size_t i = 0; i < pts_.size(); ++i) {
        if (owner[i] < -1e299) continue;  // in no part: said below, by every rank alike
        if (-owner[i] != double(ctx.dist->rank())) loc_[i].group = -2;
      }
    }
    for (std::size_t i = 0; i < pts_.size(); ++i)
      if (loc_[i].group == -1)
        throw UserError(where_ + ": point " + std::to_string(i) + " " + fmt_point(pts_[i], nd) +
                        " lies in no element of the mesh");
    std::vector<std::pair<int, int64_t>> eles;
    for (const auto& l : loc_)
      if (l.group >= 0) eles.emplace_back(l.group, l.elem);
    gather_ = std::make_unique<ElementGather>(ctx.sys, eles);
    // Each point's row of its element's nodal basis, once.
    const auto& ops = ctx.sys.operators();
    rows_.resize(pts_.size());
    for (std::size_t i = 0; i < pts_.size(); ++i) {
      if (loc_[i].group < 0) continue;  // another rank's
      const auto& o = ops[std::size_t(loc_[i].group)];
      if (o.etype != mesh.groups[std::size_t(loc_[i].group)].etype)
        throw std::logic_error("sampler: system and mesh groups differ");
      operators::NodalBasis basis(o.etype, o.order, o.upts);
      operators::Matrix x(1, std::size_t(nd));
      for (int c = 0; c < nd; ++c) x(0, std::size_t(c)) = loc_[i].xi[std::size_t(c)];
      rows_[i] = basis.at(x).data;
    }
    // The header: step, t, point, coordinates, variables[, d var / d x_j].
    static const char* axes[3] = {"x", "y", "z"};
    std::vector<std::string> vars = primitive_ ? std::vector<std::string>{"rho", "u", "v", "w", "p"}
                                               : std::vector<std::string>{"rho", "rhou", "rhov", "rhow", "E"};
    if (nd == 2) vars.erase(vars.begin() + 3);
    std::string head = "step,t,point";
    for (int c = 0; c < nd; ++c) head += std::string(",") + axes[c];
    for (const auto& v : vars) head += "," + v;
    if (gradients_)
      for (const auto& v : vars)
        for (int c = 0; c < nd; ++c) head += ",grad_" + v + "_" + axes[c];
    open_history(ctx, file_, head);
    sample_start(ctx);
  }

 private:
  void sample(RunContext& ctx) override {
    const int nd = ctx.sys.ndims(), nv = ctx.sys.nvars();
    const double gamma = ctx.sys.config().phys.gamma;
    gather_->download(ctx.intg.current());
    const auto& ops = ctx.sys.operators();
    std::vector<double> q(std::size_t(nv), 0.0), dq(std::size_t(nd * nv), 0.0), grad;
    // Each point's columns (variables, then gradients), zero where another rank owns it.
    const std::size_t ncols = std::size_t(nv) * (gradients_ ? std::size_t(nd + 1) : 1);
    std::vector<double> cols(pts_.size() * ncols, 0.0);
    for (std::size_t i = 0; i < pts_.size(); ++i) {
      if (loc_[i].group < 0) continue;
      const auto g = std::size_t(loc_[i].group);
      const auto e = std::size_t(loc_[i].elem);
      const int nupts = ops[g].nupts;
      const double* s = gather_->values(loc_[i].group, loc_[i].elem);
      const auto& lrow = rows_[i];
      for (int v = 0; v < nv; ++v) {
        double x = 0;
        for (int u = 0; u < nupts; ++u) x += lrow[std::size_t(u)] * s[v * nupts + u];
        q[std::size_t(v)] = x;
      }
      if (gradients_) {
        grad.resize(std::size_t(nd * nv * nupts));
        upts_gradient(ops[g], ctx.sys.geometry()[g], s, e, nv, grad.data());
        for (int j = 0; j < nd * nv; ++j) {
          double x = 0;
          for (int u = 0; u < nupts; ++u) x += lrow[std::size_t(u)] * grad[std::size_t(j * nupts + u)];
          dq[std::size_t(j)] = x;  // d q_v / d x_c at j = c*nv + v
        }
      }
      // Columns: the variables, then d var / d x_c variable by variable.
      std::vector<double> vals(q), dvals, d(dq);
      if (primitive_)
        physics::conserved_to_primitive(nd, gamma, q.data(), gradients_ ? dq.data() : nullptr,
                                        vals.data(), d.data());
      if (gradients_)
        for (int v = 0; v < nv; ++v)
          for (int c = 0; c < nd; ++c) dvals.push_back(d[std::size_t(c * nv + v)]);
      std::copy(vals.begin(), vals.end(), cols.begin() + std::ptrdiff_t(i * ncols));
      std::copy(dvals.begin(), dvals.end(), cols.begin() + std::ptrdiff_t(i * ncols + vals.size()));
    }
    if (ctx.dist) ctx.dist->comm().sum(cols.data(), cols.size());
    if (!ctx.root()) return;
    char b[64];
    std::string row;
    for (std::size_t i = 0; i < pts_.size(); ++i) {
      std::snprintf(b, sizeof b, "%lld,%.17g,%zu", (long long)ctx.intg.state().nsteps,
                    ctx.intg.state().t, i);
      row = b;
      for (int c = 0; c < nd; ++c) {
        std::snprintf(b, sizeof b, ",%.17g", pts_[i][std::size_t(c)]);
        row += b;
      }
      for (std::size_t j = 0; j < ncols; ++j) {
        std::snprintf(b, sizeof b, ",%.17g", cols[i * ncols + j]);
        row += b;
      }
      append(ctx, row);
    }
  }

  std::filesystem::path file_;
  bool primitive_, gradients_;
  std::string where_;
  std::vector<std::array<double, 3>> pts_;
  std::vector<Location> loc_;
  std::vector<std::vector<double>> rows_;
  std::unique_ptr<ElementGather> gather_;
};

}  // namespace

// The solution at fixed points.
PluginType sampler_plugin() {
  using T = config::ValueType;
  PluginType t;
  t.section = "plugins.sampler";
  t.schema = {
      {"plugins.sampler", "The solution at fixed points every nsteps, one CSV row per point, "
                          "written as the run goes and continued by a restart (PyFR's "
                          "sampler); each point located once at start, a point outside the "
                          "mesh an error.",
       {{"nsteps", T::integer, "10", "every nsteps steps (and at the start)", {}, 1, 1e9},
        {"points", T::string, "", "points as tuples, e.g. \"(1.0, 0.5), (2.0, 0.5)\" "
                                  "((x, y, z) in 3D)"},
        {"line-from", T::string, "", "instead of points: a line of line-npts equispaced points "
                                     "from this point, e.g. \"(0.5, 0)\""},
        {"line-to", T::string, "", "... to this one"},
        {"line-npts", T::integer, "20", "points on the line, ends included", {}, 2, 1000000},
        {"format", T::choice, "primitive", "variables written: rho, u, v[, w], p or the "
                                           "conserved rho, rhou, rhov[, rhow], E",
         {"primitive", "conservative"}},
        {"gradients", T::boolean, "false", "also the physical gradient of each variable "
                                            "(grad_<var>_<x|y|z>)"},
        {"file", T::string, "sampler.csv", "CSV file, relative to the working directory"},
        {"flushsteps", T::integer, "500", "write the rows held in memory to the file at least "
                                          "every flushsteps steps (also at every solution file, "
                                          "on SIGINT/SIGTERM and at the end)", {}, 1, 1e9}}}};
  t.make = [](const Case& k, const PluginArgs&) -> std::unique_ptr<Plugin> {
    return std::make_unique<Sampler>(k);
  };
  return t;
}

}  // namespace frmini::solver
