// Progress of a run, off with --quiet or [plugins.progress] enabled = false:
//  - on a terminal, a bar on stderr with the time reached, step rate and ETA;
//  - when stderr is not a terminal (a batch job's log, where a bar redrawn with \r is noise),
//    one status line on stdout every log-interval seconds instead: step, t, dt, steps/s, wall
//    time, ETA and the latest force coefficients, so the log shows the run is alive.
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "solver/plugins/plugins_internal.hpp"

namespace frmini::solver {

namespace {

// h:mm:ss, the scale of batch jobs.
std::string hms(double s) {
  if (!(s >= 0) || s > 1e8) return "--:--:--";
  const long long n = (long long)(s + 0.5);
  char b[48];
  std::snprintf(b, sizeof b, "%lld:%02lld:%02lld", n / 3600, n / 60 % 60, n % 60);
  return b;
}

class Progress : public Plugin {
 public:
  // log_interval < 0: the terminal bar; otherwise status lines that often (seconds).
  explicit Progress(double log_interval) : log_interval_(log_interval) {}
  std::string name() const override { return "progress"; }
  void start(RunContext& ctx) override {
    t0_ = ctx.intg.state().t;
    w0_ = last_ = clock::now();
  }
  void after_step(RunContext& ctx) override {
    auto now = clock::now();
    if (!first_done_) {
      // Rates and ETA count from the end of the first step: it pays for compiling and tuning
      // the kernels, which would make the first estimates of a long run hours off.
      first_done_ = true;
      t1_ = ctx.intg.state().t, s1_ = ctx.intg.state().nsteps, w1_ = now;
    }
    const double every = log_interval_ < 0 ? 0.2 : log_interval_;
    if (std::chrono::duration<double>(now - last_).count() < every) return;
    last_ = now;
    if (log_interval_ < 0)
      draw(ctx, now);
    else
      log(ctx, now);
  }
  void finish(RunContext& ctx) override {
    if (log_interval_ >= 0) return;  // the run report follows in the log
    draw(ctx, clock::now());
    std::fputc('\n', stderr);
  }

 private:
  using clock = std::chrono::steady_clock;
  struct Rates {
    double f, wall, rate, eta;
  };
  Rates rates(const RunContext& ctx, clock::time_point now) const {
    const auto& st = ctx.intg.state();
    const double tend = ctx.kase.tend, f = tend > t0_ ? (st.t - t0_) / (tend - t0_) : 1.0;
    const double wall = std::chrono::duration<double>(now - w0_).count();
    const double since = std::chrono::duration<double>(now - w1_).count();
    if (!first_done_ || !(since > 0) || !(st.t > t1_)) return {f, wall, 0.0, -1.0};
    return {f, wall, double(st.nsteps - s1_) / since, (tend - st.t) * since / (st.t - t1_)};
  }
  void draw(RunContext& ctx, clock::time_point now) {
    const auto& st = ctx.intg.state();
    const Rates r = rates(ctx, now);
    char bar[31];
    int filled = int(r.f * 30);
    for (int i = 0; i < 30; ++i) bar[i] = i < filled ? '=' : (i == filled ? '>' : ' ');
    bar[30] = 0;
    const double eta = r.eta > 0 ? r.eta : 0.0;
    std::fprintf(stderr, "\r[%s] %5.1f%%  t = %-10.5g  step %-7lld %6.2f steps/s  ETA %02d:%02d ",
                 bar, 100 * r.f, st.t, (long long)st.nsteps, r.rate, int(eta) / 60, int(eta) % 60);
    std::fflush(stderr);
  }
  void log(RunContext& ctx, clock::time_point now) {
    const auto& st = ctx.intg.state();
    const Rates r = rates(ctx, now);
    std::string extra;
    for (const auto& [what, value] : ctx.latest) extra += "  " + what + " " + value;
    std::printf("frmini: step %lld  t = %.6g (%.1f%%)  dt = %.3g  %.3g steps/s  wall %s  ETA %s%s\n",
                (long long)st.nsteps, st.t, 100 * r.f, st.dt, r.rate, hms(r.wall).c_str(),
                hms(r.eta).c_str(), extra.c_str());
    // A log file is block-buffered: without this the line would wait for the buffer to fill.
    std::fflush(stdout);
  }
  double log_interval_;
  double t0_ = 0, t1_ = 0;
  int64_t s1_ = 0;
  bool first_done_ = false;
  clock::time_point w0_, w1_, last_;
};

std::unique_ptr<Plugin> make_progress(const Case& k, bool quiet) {
  const bool has = k.cfg.has_section("plugins.progress");
  if (quiet || (has && !k.cfg.boolean("plugins.progress", "enabled"))) return nullptr;
  if (::isatty(2)) return std::make_unique<Progress>(-1.0);
  const double every = has ? k.cfg.real("plugins.progress", "log-interval") : 60.0;
  return every > 0 ? std::make_unique<Progress>(every) : nullptr;
}
}  // namespace

// On in every run unless --quiet or enabled = false.
PluginType progress_plugin() {
  using T = config::ValueType;
  PluginType t;
  t.section = "plugins.progress";
  t.schema = {
      {"plugins.progress", "A progress bar with ETA and step rate on a terminal; when stderr is "
                           "not a terminal (a batch job's log), a status line on stdout every "
                           "log-interval seconds instead (both off with --quiet).",
       {{"enabled", T::boolean, "true", "show the bar or the status lines"},
        {"log-interval", T::real, "60", "seconds between status lines (step, t, dt, steps/s, "
                                        "wall time, ETA, latest Cd/Cl) when stderr is not a "
                                        "terminal; 0 = none", {}, 0.0}}}};
  t.make = [](const Case& k, const PluginArgs& a) -> std::unique_ptr<Plugin> {
    return make_progress(k, a.quiet);
  };
  t.always = true;
  return t;
}

}  // namespace frmini::solver
