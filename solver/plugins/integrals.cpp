// Conserved totals and residual norms, every nsteps, to CSV.
// Totals: the integral of every conserved variable over the domain, sum over elements and
// solution points of W_i |J| u. W_i = integral of the i-th nodal basis function =
// invvdm[i][0]*sqrt(|reference element|) (the first orthonormal basis function is the
// constant 1/sqrt(|ref|)).
// Residuals (PyFR's residual plugin, volume-weighted): for each variable the L2 norm of the
// rate of change over the sample's last step, sqrt(sum W_i |J| (u_n - u_{n-1})^2 / V) / dt,
// V the domain's volume: the root-mean-square of du/dt, which falls to zero as a run
// reaches a steady state.
#include <cmath>
#include <map>
#include <cstdio>

#include "base/error.hpp"
#include "operators/nodal.hpp"
#include "solver/plugins/expr_integrals.hpp"
#include "solver/plugins/integrals.hpp"
#include "solver/plugins/plugins_internal.hpp"
#include "solver/plugins/sampled_history.hpp"

namespace frmini::solver {

std::vector<double> upts_weights(const operators::ElementOperators& ops) {
  static const std::map<std::string, double> vol = {{"quad", 4.0}, {"hex", 8.0}, {"tri", 2.0},
                                                    {"tet", 4.0 / 3.0}, {"pri", 4.0}, {"pyr", 8.0 / 3.0}};
  operators::NodalBasis b(ops.etype, ops.order, ops.upts);
  std::vector<double> w(ops.nupts);
  for (int i = 0; i < ops.nupts; ++i) w[i] = b.invvdm()(i, 0) * std::sqrt(vol.at(ops.etype));
  return w;
}

std::vector<std::vector<double>> group_weights(const System& sys) {
  std::vector<std::vector<double>> w;
  for (const auto& ops : sys.operators()) w.push_back(upts_weights(ops));
  return w;
}

std::vector<double> conserved_totals(System& sys, int reg) {
  return conserved_totals(sys, reg, group_weights(sys));
}

std::vector<double> conserved_totals(System& sys, int reg,
                                     const std::vector<std::vector<double>>& weights) {
  return integrate_solution(sys, sys.download_solution(reg), weights);
}

std::vector<double> integrate_solution(const System& sys,
                                       const std::vector<std::vector<double>>& s,
                                       const std::vector<std::vector<double>>& weights) {
  std::vector<double> tot(sys.nvars(), 0.0);
  for (std::size_t g = 0; g < s.size(); ++g) {
    const auto& l = sys.layout()[g];
    const auto& geo = sys.geometry()[g];
    const auto& w = weights[g];
    for (int64_t e = 0; e < l.neles; ++e)
      for (int v = 0; v < sys.nvars(); ++v)
        for (int i = 0; i < l.nupts; ++i)
          tot[v] += w[i] * geo.djac_upts[std::size_t(i) * l.neles + e] *
                    s[g][(std::size_t(e) * sys.nvars() + v) * l.nupts + i];
  }
  return tot;
}

std::vector<double> residual_sums(const System& sys, const std::vector<std::vector<double>>& prev,
                                  const std::vector<std::vector<double>>& cur,
                                  const std::vector<std::vector<double>>& weights) {
  std::vector<double> sum(std::size_t(sys.nvars()) + 1, 0.0);
  double& vol = sum.back();
  for (std::size_t g = 0; g < cur.size(); ++g) {
    const auto& l = sys.layout()[g];
    const auto& geo = sys.geometry()[g];
    const auto& w = weights[g];
    for (int64_t e = 0; e < l.neles; ++e)
      for (int i = 0; i < l.nupts; ++i) {
        const double wj = w[i] * geo.djac_upts[std::size_t(i) * l.neles + e];
        vol += wj;
        for (int v = 0; v < sys.nvars(); ++v) {
          const std::size_t k = (std::size_t(e) * sys.nvars() + v) * l.nupts + i;
          sum[v] += wj * (cur[g][k] - prev[g][k]) * (cur[g][k] - prev[g][k]);
        }
      }
  }
  return sum;
}

std::vector<double> residual_norms_from_sums(const std::vector<double>& sums, double dt) {
  std::vector<double> r(sums.begin(), sums.end() - 1);
  for (double& x : r) x = std::sqrt(x / sums.back()) / dt;
  return r;
}

std::vector<double> residual_norms(const System& sys, const std::vector<std::vector<double>>& prev,
                                   const std::vector<std::vector<double>>& cur, double dt,
                                   const std::vector<std::vector<double>>& weights) {
  return residual_norms_from_sums(residual_sums(sys, prev, cur, weights), dt);
}

namespace {
class Integrals : public SampledHistory {
 public:
  explicit Integrals(const Case& k)
      : SampledHistory(k.cfg, "plugins.integrals"), file_(k.cfg.str("plugins.integrals", "file")), exprs_(k) {}
  std::string name() const override { return "integrals"; }
  void start(RunContext& ctx) override {
    weights_ = group_weights(ctx.sys);  // once: each is a Vandermonde inverse
    std::string head = "step,t";
    for (int v = 0; v < ctx.sys.nvars(); ++v) head += ",total_u" + std::to_string(v);
    for (int v = 0; v < ctx.sys.nvars(); ++v) head += ",resid_u" + std::to_string(v);
    for (const auto& name : exprs_.names()) head += ",int_" + name;
    open_history(ctx, file_, head);
    // The earlier run's row at the restart step keeps its residual.
    sample_start(ctx);
    if ((ctx.intg.state().nsteps + 1) % nsteps_ == 0) keep(ctx);
  }
  void after_step(RunContext& ctx) override {
    SampledHistory::after_step(ctx);
    // The solution one step before the next sample, for its residual.
    if ((ctx.intg.state().nsteps + 1) % nsteps_ == 0) keep(ctx);
  }

 private:
  void sample(RunContext& ctx) override {
    // Over several ranks each part integrates its own elements (every sum below is over
    // elements) and the sums are added up; rank 0 writes the row.
    auto reduce = [&](std::vector<double>& v) {
      if (ctx.dist) ctx.dist->comm().sum(v.data(), v.size());
    };
    char b[64];
    std::snprintf(b, sizeof b, "%lld,%.10g", (long long)ctx.intg.state().nsteps, ctx.intg.state().t);
    std::string csv = b;
    auto cur = ctx.sys.download_solution(ctx.intg.current());
    auto totals = integrate_solution(ctx.sys, cur, weights_);
    reduce(totals);
    for (double x : totals) {
      std::snprintf(b, sizeof b, ",%.17g", x);
      csv += b;
    }
    // Blank at the start of a run (no previous step yet); every rank kept the same steps.
    const double dt = ctx.intg.state().t - prev_t_;
    const bool have = !prev_.empty() && prev_n_ + 1 == ctx.intg.state().nsteps && dt > 0;
    if (have) {
      auto sums = residual_sums(ctx.sys, prev_, cur, weights_);
      reduce(sums);
      for (double x : residual_norms_from_sums(sums, dt)) {
        std::snprintf(b, sizeof b, ",%.10g", x);
        csv += b;
      }
    } else {
      csv += std::string(std::size_t(ctx.sys.nvars()), ',');
    }
    std::vector<std::vector<double>> grads;
    if (exprs_.uses_gradients() && exprs_.corrected())
      grads = ctx.sys.corrected_gradients(ctx.intg.current(), ctx.intg.state().t, cur);
    auto ints = exprs_.integrate(ctx.sys, cur, ctx.intg.state().t, weights_, grads.empty() ? nullptr : &grads);
    reduce(ints);
    for (double x : ints) {
      std::snprintf(b, sizeof b, ",%.17g", x);
      csv += b;
    }
    append(ctx, csv);
    prev_.clear();
  }
  void keep(RunContext& ctx) {
    prev_ = ctx.sys.download_solution(ctx.intg.current());
    prev_t_ = ctx.intg.state().t;
    prev_n_ = ctx.intg.state().nsteps;
  }
  std::vector<std::vector<double>> prev_;
  double prev_t_ = 0;
  int64_t prev_n_ = -1;
  std::filesystem::path file_;
  std::vector<std::vector<double>> weights_;
  ExpressionIntegrals exprs_;
};
}  // namespace

// Conserved totals, residuals and the user's integrals.
PluginType integrals_plugin() {
  using T = config::ValueType;
  PluginType t;
  t.section = "plugins.integrals";
  t.schema = {
      {"plugins.integrals", "Conserved totals, residual norms and the integrals of "
                            "[plugins.integrals.expressions] to CSV (written as the run goes, "
                            "continued by a restart).",
       {{"nsteps", T::integer, "10", "every nsteps steps", {}, 1, 1e9},
        {"file", T::string, "integrals.csv", "CSV file, relative to the working directory"},
        {"gradients", T::choice, "uncorrected",
         "the grad_<var>_<axis> of the expressions: uncorrected = of each element's own polynomial; "
         "corrected = the LDG-corrected gradient of the viscous flux, as PyFR's integrate plugin "
         "(navier-stokes)", {"uncorrected", "corrected"}},
        {"region", T::string, "", "integrate the expressions over this box only: "
                                  "\"(x0, y0[, z0]), (x1, y1[, z1])\" (default: the domain)"},
        {"flushsteps", T::integer, "500", "write the rows held in memory to the file at least "
                                          "every flushsteps steps (also at every solution file, "
                                          "on SIGINT/SIGTERM and at the end)", {}, 1, 1e9},
      }},
      {"plugins.integrals.expressions",
       "name = expression, integrated over the domain into column int_<name>: expressions of x, "
       "y, z, t, rho, u, v, w, p and grad_<var>_<x|y|z>, e.g. ke = \"0.5*rho*(u*u + v*v + w*w)\"",
       {}, true, T::expression}};
  t.make = [](const Case& k, const PluginArgs&) -> std::unique_ptr<Plugin> {
    return std::make_unique<Integrals>(k);
  };
  return t;
}

}  // namespace frmini::solver
