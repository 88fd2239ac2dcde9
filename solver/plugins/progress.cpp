// A progress bar on stderr with the time reached, step rate and ETA; off with --quiet, when
// stderr is not a terminal, or with [plugins.progress] enabled = false.
#include <unistd.h>

#include <chrono>
#include <cstdio>

#include "solver/plugins/plugins_internal.hpp"

namespace frmini::solver {

namespace {
class Progress : public Plugin {
 public:
  std::string name() const override { return "progress"; }
  void start(RunContext& ctx) override {
    t0_ = ctx.intg.state().t;
    s0_ = ctx.intg.state().nsteps;
    w0_ = clock::now();
  }
  void after_step(RunContext& ctx) override {
    auto now = clock::now();
    if (std::chrono::duration<double>(now - last_).count() < 0.2) return;
    last_ = now;
    draw(ctx, now);
  }
  void finish(RunContext& ctx) override {
    draw(ctx, clock::now());
    std::fputc('\n', stderr);
  }

 private:
  using clock = std::chrono::steady_clock;
  void draw(RunContext& ctx, clock::time_point now) {
    const auto& st = ctx.intg.state();
    double tend = ctx.kase.tend, f = tend > t0_ ? (st.t - t0_) / (tend - t0_) : 1.0;
    double wall = std::chrono::duration<double>(now - w0_).count();
    double rate = wall > 0 ? double(st.nsteps - s0_) / wall : 0.0;
    double eta = f > 0 ? wall * (1 - f) / f : 0.0;
    char bar[31];
    int filled = int(f * 30);
    for (int i = 0; i < 30; ++i) bar[i] = i < filled ? '=' : (i == filled ? '>' : ' ');
    bar[30] = 0;
    std::fprintf(stderr, "\r[%s] %5.1f%%  t = %-10.5g  step %-7lld %6.2f steps/s  ETA %02d:%02d ",
                 bar, 100 * f, st.t, (long long)st.nsteps, rate, int(eta) / 60, int(eta) % 60);
    std::fflush(stderr);
  }
  double t0_ = 0;
  int64_t s0_ = 0;
  clock::time_point w0_, last_;
};
}  // namespace

std::unique_ptr<Plugin> make_progress(const Case& k, bool quiet) {
  bool on = !quiet && ::isatty(2) &&
            (!k.cfg.has_section("plugins.progress") || k.cfg.boolean("plugins.progress", "enabled"));
  return on ? std::make_unique<Progress>() : nullptr;
}

}  // namespace frmini::solver
