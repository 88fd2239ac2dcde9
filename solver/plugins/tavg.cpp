// The time-average plugin ([plugins.tavg], PyFR's tavg in its continuous mode): from tstart,
// every nsteps steps, the primitive variables rho, u, v[, w], p at the solution points join a
// running time-weighted mean (time_average.hpp) over [tstart, t], accumulated on the device
// (time_average_device.hpp: a sample moves nothing to the host); every dt-out the mean so far
// is written as a solution file whose `variables` attribute is "primitive-mean", so every
// reader of solutions (export) reads it and restart refuses it. Mean fields of a statistically
// steady flow (mean Cd, the recirculation length) come from these files. With `moments`, the
// file also holds the window's means of uu, vv, ww, uv, uw, vw and pp (/moments), from which
// Reynolds stresses and rms pressure follow as <ab> - <a><b>.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "base/error.hpp"
#include "solver/case/distributed.hpp"
#include "solver/io/solution_file.hpp"
#include "solver/plugins/plugins_internal.hpp"
#include "solver/plugins/time_average_device.hpp"

namespace frmini::solver {

namespace {

class TimeAveragePlugin : public Plugin {
 public:
  explicit TimeAveragePlugin(const Case& k)
      : nsteps_(k.cfg.integer("plugins.tavg", "nsteps")),
        tstart_(k.cfg.real("plugins.tavg", "tstart")),
        dt_out_(k.cfg.real("plugins.tavg", "dt-out")),
        dir_(k.cfg.str("plugins.tavg", "basedir")),
        base_(k.cfg.str("plugins.tavg", "basename")),
        dir_where_(k.cfg.where("plugins.tavg", "basedir")),
        with_moments_(k.cfg.boolean("plugins.tavg", "moments")) {}
  std::string name() const override { return "tavg"; }

  void start(RunContext& ctx) override {
    check_output_folder(dir_.empty() ? "." : dir_, dir_where_);  // before the first step
    if (with_moments_) moments_ = velocity_pressure_moments(ctx.sys.ndims());
    acc_ = std::make_unique<DeviceTimeAverage>(ctx.sys, moments_.pairs);
    const double t = ctx.intg.state().t;
    // Output k is due at tstart + k dt_out, counted from tstart as the writer counts from t0.
    k_ = t <= tstart_ ? 1 : int64_t(std::floor((t - tstart_) / dt_out_ + 1e-9)) + 1;
    if (t >= tstart_ - tol(tstart_)) sample(ctx);
    if (ctx.restarted && t > tstart_ + tol(tstart_)) resume(ctx);
  }
  // Lands on tstart, so the window starts exactly there, and on every output time.
  double next_time(const RunContext&) const override {
    return !acc_ || acc_->empty() ? tstart_ : tstart_ + double(k_) * dt_out_;
  }
  void after_step(RunContext& ctx) override {
    const auto& st = ctx.intg.state();
    if (st.t < tstart_ - tol(tstart_)) return;
    const bool due = !acc_->empty() && st.t >= next_time(ctx) - tol(next_time(ctx));
    if (acc_->empty() || due || (st.nsteps - first_step_) % nsteps_ == 0) sample(ctx);
    if (due) {
      write(ctx);
      ++k_;
    }
  }
  // Stopped by a signal: the checkpoint's time gets a mean file too, so that `frmini restart`
  // from the checkpoint continues the window (a diverged state is not one to average).
  void failed(RunContext& ctx, const std::string& why) override {
    if (why.rfind("stopped by", 0) == 0) finish(ctx);
  }
  // A run that stops between outputs still leaves its mean so far.
  void finish(RunContext& ctx) override {
    if (!acc_ || acc_->empty()) return;
    if (acc_->tlast() < ctx.intg.state().t) sample(ctx);
    if (acc_->tlast() > last_written_) write(ctx);
  }

 private:
  static double tol(double t) { return 1e-12 * std::max(1.0, std::abs(t)); }
  void sample(RunContext& ctx) {
    if (acc_->empty()) first_step_ = ctx.intg.state().nsteps;
    acc_->add(ctx.intg.state().t, ctx.intg.current());
  }
  // A restart continues the mean that the stopped run left in basedir: of the primitive-mean
  // files of this mesh whose window ends at the restart time (the earlier run writes one when
  // it stops), the one with the longest window. Without one the mean starts again here, and
  // the run says so.
  void resume(RunContext& ctx) {
    const double t = ctx.intg.state().t;
    std::filesystem::path best;
    double best_start = 0;
    std::string skipped;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir_.empty() ? "." : dir_, ec)) {
      if (e.path().extension() != ".h5") continue;
      try {
        const SolutionFile h = read_solution(e.path().string(), false);
        if (h.variables != "primitive-mean" || !std::isfinite(h.window_start) ||
            h.mesh_uuid != ctx.kase.mesh.uuid || std::abs(h.state.t - t) > tol(t) ||
            h.window_start < tstart_ - tol(tstart_))
          continue;
        if (h.order != ctx.sys.config().order) {
          skipped = "its order changed from " + std::to_string(h.order) + " to " +
                    std::to_string(ctx.sys.config().order);
          continue;
        }
        if (with_moments_ && h.moment_names != moments_.names) {
          skipped = e.path().string() + " holds other moments than this run's";
          continue;
        }
        if (best.empty() || h.window_start < best_start) best = e.path(), best_start = h.window_start;
      } catch (const UserError&) {  // not a solution file of ours: not the one to continue
      }
    }
    if (best.empty()) {
      if (ctx.root() && skipped.empty())
        std::printf("tavg: no mean in %s ends at t = %g; the average starts again here\n",
                    dir_.string().c_str(), t);
      else if (ctx.root())
        std::printf("tavg: the mean in %s ending at t = %g is not continued (%s); the average "
                    "starts again here\n", dir_.string().c_str(), t, skipped.c_str());
      return;
    }
    SolutionFile f = read_solution(best.string());
    auto local = [&](const GroupFields& whole) { return ctx.dist ? ctx.dist->scatter(whole) : whole; };
    acc_->resume(f.window_start, local(f.soln), with_moments_ ? local(f.moments) : GroupFields{});
    last_written_ = t;
    if (ctx.root())
      std::printf("tavg: continuing the mean over [%g, %g] of %s\n", f.window_start, t,
                  best.string().c_str());
  }

  // Over several ranks each part averages its own elements (every sample is element by
  // element); the file is gathered into the whole mesh's layout and rank 0 writes it.
  void write(RunContext& ctx) {
    const std::string n = output_name(base_, ctx.intg.state().t, count_++);
    SolutionFile f = whole_solution(ctx, acc_->mean());
    if (with_moments_) f.moments = ctx.dist ? ctx.dist->gather(acc_->moments()) : acc_->moments();
    last_written_ = acc_->tlast();
    if (!ctx.root()) return;
    f.variables = "primitive-mean";
    if (with_moments_) f.moment_names = moments_.names;
    f.window_start = acc_->tfirst();
    const auto path = dir_ / (n + ".h5");
    std::filesystem::create_directories(path.parent_path().empty() ? "." : path.parent_path());
    write_solution(path.string(), f);
  }

  int64_t nsteps_;
  double tstart_, dt_out_;
  std::filesystem::path dir_;
  std::string base_, dir_where_;
  bool with_moments_;
  Moments moments_;  // none without `moments`
  std::unique_ptr<DeviceTimeAverage> acc_;  // made in start(), on the run's system
  int64_t k_ = 1, first_step_ = 0;
  int count_ = 0;
  double last_written_ = -1e308;
};

}  // namespace

// Time averages.
PluginType tavg_plugin() {
  using T = config::ValueType;
  PluginType t;
  t.section = "plugins.tavg";
  t.schema = {
      {"plugins.tavg", "Running time-weighted means of rho, u, v[, w], p from tstart, written "
                       "every dt-out as solution files (variables = primitive-mean).",
       {{"nsteps", T::integer, "1", "sample every nsteps steps (and at every output)", {}, 1, 1e9},
        {"tstart", T::real, "0", "start of the averaging window (start after the transient)"},
        {"dt-out", T::real, "", "output interval", {}, 0.0, 1e300, true},
        {"basedir", T::string, ".", "output folder, relative to the working directory"},
        {"basename", T::string, "tavg-{t}", "file name; {t} = time, {n} = output number"},
        {"moments", T::boolean, "false", "also the means of uu, vv, ww, uv, uw, vw and pp (2D: uu, "
         "vv, uv, pp), for Reynolds stresses <u'v'> = <uv> - <u><v> and rms pressure; doubles the "
         "plugin's memory"}}}};
  t.make = [](const Case& k, const PluginArgs&) -> std::unique_ptr<Plugin> {
    return std::make_unique<TimeAveragePlugin>(k);
  };
  return t;
}

}  // namespace frmini::solver
