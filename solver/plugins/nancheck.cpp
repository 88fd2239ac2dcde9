// The blow-up check, on in every run ([plugins.nancheck] only sets how often): every nsteps
// steps one reduction on the device asks whether the solution is still finite. At the first
// NaN or infinity the run stops with exit status 3 (DivergedError), naming the step, the time,
// the element, the variable and the position of the first bad value, and the last good file.
// The writer asks the same question of every state it is about to write (require_finite).
#include <cmath>
#include <cstdio>
#include <sstream>

#include "base/error.hpp"
#include "solver/case/distributed.hpp"
#include "solver/plugins/plugins_internal.hpp"

namespace frmini::solver {

namespace {
const char* variable_name(int k, int nvars, int ndims) {
  static const char* const names[] = {"rho", "rhou", "rhov", "rhow"};
  if (k == nvars - 1) return "E";
  return k <= ndims ? names[k] : "?";
}
}  // namespace

void require_finite(RunContext& ctx, const std::vector<std::vector<double>>& soln,
                    const std::string& who) {
  const auto& sys = ctx.sys;
  const int nv = sys.nvars(), nd = sys.ndims();
  for (std::size_t g = 0; g < soln.size(); ++g) {
    const auto& l = sys.layout()[g];
    const auto& u = soln[g];
    // [neles][nvars][nupts]: the first bad value in element order.
    for (std::size_t q = 0; q < u.size(); ++q) {
      if (std::isfinite(u[q])) continue;
      const int64_t e = int64_t(q / (std::size_t(nv) * l.nupts));
      const int k = int((q / std::size_t(l.nupts)) % std::size_t(nv));
      const int i = int(q % std::size_t(l.nupts));
      const auto& geo = sys.geometry()[g];
      std::ostringstream o;
      o.precision(6);
      const auto& st = ctx.intg.state();
      o << who << ": the solution diverged at step " << st.nsteps << ", t = " << st.t << ": "
        << variable_name(k, nv, nd) << " = " << u[q] << " in " << l.etype << " element "
        << (ctx.dist ? ctx.dist->whole_element(g, e) : e);
      if (ctx.dist) o << " (" << ctx.dist->where() << ")";
      o << ", solution point " << i << " at (";
      for (int c = 0; c < nd; ++c)
        o << (c ? ", " : "") << geo.ploc_upts[(std::size_t(i) * nd + c) * l.neles + e];
      o << "); the time step (dt = " << st.dt << ") may be too large; last good file: "
        << (ctx.last_file.empty() ? "none written" : ctx.last_file);
      throw DivergedError(o.str());
    }
  }
}

void stop_diverged_run(RunContext& ctx, const std::string& who) {
  const auto soln = ctx.sys.download_solution(ctx.intg.current());
  bool mine = false;
  for (const auto& u : soln)
    for (double x : u) mine = mine || !std::isfinite(x);
  // The lowest rank holding a bad value says where (a blow-up reaches the neighbouring parts
  // within a few stages, and one message is easier to read than several interleaved ones).
  auto& comm = ctx.dist->comm();
  double score = mine ? double(comm.size() - comm.rank()) : 0.0;
  comm.max(&score, 1);
  const int speaker = score > 0 ? comm.size() - int(score) : 0;
  if (comm.rank() == speaker) {
    require_finite(ctx, soln, who);
    throw DivergedError(who + ": a non-finite value in the solution registers");
  }
  throw DivergedError(who + ": the solution diverged on another rank");
}

namespace {
class NanCheck : public Plugin {
 public:
  explicit NanCheck(const Case& k) : nsteps_(k.cfg.integer("plugins.nancheck", "nsteps")) {}
  std::string name() const override { return "nancheck"; }
  void after_step(RunContext& ctx) override {
    if (ctx.intg.state().nsteps % nsteps_ == 0) check(ctx);
  }
  // And at the end: a run that ends between two checks must not end with status 0 on a
  // diverged state (the plugins finish in order, so this runs before the writer's last file).
  void finish(RunContext& ctx) override { check(ctx); }

 private:
  void check(RunContext& ctx) {
    const int reg = ctx.intg.current();
    if (ctx.sys.finite(reg)) return;  // over every rank
    if (ctx.dist) stop_diverged_run(ctx, "nancheck");
    require_finite(ctx, ctx.sys.download_solution(reg), "nancheck");
    throw DivergedError("nancheck: a non-finite value in the solution registers");
  }
  int64_t nsteps_;
};
}  // namespace

// On in every run, and first: no plugin sees a diverged state after a step.
PluginType nancheck_plugin() {
  using T = config::ValueType;
  PluginType t;
  t.section = "plugins.nancheck";
  t.schema = {
      {"plugins.nancheck", "The blow-up check, on in every run: at the first NaN or infinity "
                           "the run stops with exit status 3, keeping the last good file.",
       {{"nsteps", T::integer, "20", "check every nsteps steps (one reduction on the device)", {}, 1, 1e9}}}};
  t.make = [](const Case& k, const PluginArgs&) -> std::unique_ptr<Plugin> {
    return std::make_unique<NanCheck>(k);
  };
  t.always = true;
  t.required = true;
  t.place = -1;
  return t;
}

}  // namespace frmini::solver
