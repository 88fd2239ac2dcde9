// The time-average plugin ([plugins.tavg], PyFR's tavg in its continuous mode): from tstart,
// every nsteps steps, the primitive variables rho, u, v[, w], p at the solution points join a
// running time-weighted mean (time_average.hpp) over [tstart, t]; every dt-out the mean so far
// is written as a solution file whose `variables` attribute is "primitive-mean", so every
// reader of solutions (export) reads it and restart refuses it. Mean fields of a statistically
// steady flow (mean Cd, the recirculation length) come from these files.
#include <algorithm>
#include <cmath>

#include "solver/io/solution_file.hpp"
#include "solver/plugins/plugins_internal.hpp"
#include "solver/plugins/time_average.hpp"

namespace frmini::solver {

namespace {

class TimeAveragePlugin : public Plugin {
 public:
  explicit TimeAveragePlugin(const Case& k)
      : nsteps_(k.cfg.integer("plugins.tavg", "nsteps")),
        tstart_(k.cfg.real("plugins.tavg", "tstart")),
        dt_out_(k.cfg.real("plugins.tavg", "dt-out")),
        dir_(k.cfg.str("plugins.tavg", "basedir")),
        base_(k.cfg.str("plugins.tavg", "basename")) {}
  std::string name() const override { return "tavg"; }

  void start(RunContext& ctx) override {
    const double t = ctx.intg.state().t;
    // Output k is due at tstart + k dt_out, counted from tstart as the writer counts from t0.
    k_ = t <= tstart_ ? 1 : int64_t(std::floor((t - tstart_) / dt_out_ + 1e-9)) + 1;
    if (t >= tstart_ - tol(tstart_)) sample(ctx);
  }
  // Lands on tstart, so the window starts exactly there, and on every output time.
  double next_time(const RunContext&) const override {
    return acc_.empty() ? tstart_ : tstart_ + double(k_) * dt_out_;
  }
  void after_step(RunContext& ctx) override {
    const auto& st = ctx.intg.state();
    if (st.t < tstart_ - tol(tstart_)) return;
    const bool due = !acc_.empty() && st.t >= next_time(ctx) - tol(next_time(ctx));
    if (acc_.empty() || due || (st.nsteps - first_step_) % nsteps_ == 0) sample(ctx);
    if (due) {
      write(ctx);
      ++k_;
    }
  }
  // A run that stops between outputs still leaves its mean so far.
  void finish(RunContext& ctx) override {
    if (acc_.empty()) return;
    if (acc_.tlast() < ctx.intg.state().t) sample(ctx);
    if (acc_.tlast() > last_written_) write(ctx);
  }

 private:
  static double tol(double t) { return 1e-12 * std::max(1.0, std::abs(t)); }
  void sample(RunContext& ctx) {
    if (acc_.empty()) first_step_ = ctx.intg.state().nsteps;
    auto u = ctx.sys.download_solution(ctx.intg.current());
    std::vector<std::size_t> nupts;
    for (const auto& l : ctx.sys.layout()) nupts.push_back(std::size_t(l.nupts));
    conserved_to_primitive(u, ctx.sys.ndims(), nupts, ctx.sys.config().phys.gamma);
    acc_.add(ctx.intg.state().t, u);
  }
  // Over several ranks each part averages its own elements (every sample is element by
  // element); the file is gathered into the whole mesh's layout and rank 0 writes it.
  void write(RunContext& ctx) {
    const std::string n = output_name(base_, ctx.intg.state().t, count_++);
    SolutionFile f = whole_solution(ctx, acc_.mean());
    last_written_ = acc_.tlast();
    if (!ctx.root()) return;
    f.variables = "primitive-mean";
    const auto path = dir_ / (n + ".h5");
    std::filesystem::create_directories(path.parent_path().empty() ? "." : path.parent_path());
    write_solution(path.string(), f);
  }

  int64_t nsteps_;
  double tstart_, dt_out_;
  std::filesystem::path dir_;
  std::string base_;
  TimeAverage acc_;
  int64_t k_ = 1, first_step_ = 0;
  int count_ = 0;
  double last_written_ = -1e308;
};

}  // namespace

std::unique_ptr<Plugin> make_tavg(const Case& k) { return std::make_unique<TimeAveragePlugin>(k); }

}  // namespace frmini::solver
