// Per-step wall times (to CSV with [plugins.timing]) and the end-of-run report
// (docs/performance.md): time per step, DOF, DOF-stages/s and the matmul provider chosen for
// every operator product.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <numeric>
#include <string>
#include <utility>

#include "solver/plugins/history.hpp"
#include "solver/plugins/plugins_internal.hpp"
#include "solver/case/distributed.hpp"
#include "solver/system/step_floor.hpp"

namespace frmini::solver {

namespace {
double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

class Timing : public Plugin {
 public:
  explicit Timing(const Case& k) {
    if (k.cfg.has_section("plugins.timing")) {
      file_ = k.cfg.str("plugins.timing", "file");
      flushsteps_ = k.cfg.integer("plugins.timing", "flushsteps");
    }
  }
  std::string name() const override { return "timing"; }
  void start(RunContext& ctx) override {
    if (!file_.empty())
      hist_.open(file_, "step,t,wall_s", ctx.restarted ? ctx.intg.state().nsteps : -1,
                 flushsteps_, ctx.kase.cfg.filename() + ": [plugins.timing]");
    ctx.be.synchronize();
    last_ = clock::now();
  }
  void after_step(RunContext& ctx) override {
    // Synchronising each step costs GPUs a little overlap but gives true per-step times.
    ctx.be.synchronize();
    auto now = clock::now();
    const auto& st = ctx.intg.state();
    const double wall = std::chrono::duration<double>(now - last_).count();
    walls_.push_back(wall);
    last_ = now;
    // The exchanges' cost from the end of the first step on, as the step statistics.
    if (walls_.size() == 1) traffic0_ = ctx.sys.halo_traffic(), floor0_ = ctx.sys.floor_so_far();
    if (!hist_.is_open()) return;
    char b[128];
    std::snprintf(b, sizeof b, "%lld,%.10g,%.6e", (long long)st.nsteps, st.t, wall);
    hist_.append(b);
    hist_.step(st.nsteps);
  }
  void flush(RunContext&) override { hist_.flush(); }
  void finish(RunContext& ctx) override {
    hist_.close();
    floor_ = ctx.sys.floor_so_far() - floor0_;
    if (ctx.dist) {  // collective: every rank finishes, where failures may not
      halo_line(ctx);
      double b[3] = {floor_.registers, floor_.geometry, floor_.interfaces};
      ctx.dist->comm().sum(b, 3);
      floor_ = {b[0], b[1], b[2]};
    }
    report(ctx);
  }
  void failed(RunContext& ctx, const std::string& why) override {
    hist_.flush();
    floor_ = ctx.sys.floor_so_far() - floor0_;  // this rank's part
    report(ctx, why);
  }

 private:
  using clock = std::chrono::steady_clock;
  // `failure`: the run stopped on it (the report says so, and skips the kernel table).
  void report(RunContext& ctx, const std::string& failure = "") {
    if (!ctx.root()) return;  // one report per run, from rank 0 (its part's kernel times)
    const auto& st = ctx.intg.state();
    std::vector<double> w;
    // The first step pays for compilation and tuning: leave it out of the statistics.
    for (std::size_t i = walls_.size() > 1 ? 1 : 0; i < walls_.size(); ++i) w.push_back(walls_[i]);
    // The median, as `frmini bench solver` and tools/pyfr-compare report: one figure for a
    // step whichever command measured it (wall time of whole synchronised steps).
    double mean = w.empty() ? 0 : std::accumulate(w.begin(), w.end(), 0.0) / double(w.size());
    double mn = w.empty() ? 0 : *std::min_element(w.begin(), w.end());
    double med = median(w);
    const double dofs = double(ctx.sys.global_ndofs());
    const bool stopped = failure.rfind("stopped by", 0) == 0;  // a signal, not a failure
    std::printf("\nfrmini run report%s\n",
                failure.empty() ? "" : stopped ? ": the run was interrupted" : ": the run FAILED");
    std::printf("  case            %s\n", ctx.kase.cfg.filename().c_str());
    if (!failure.empty()) std::printf("  %-15s %s\n", stopped ? "interrupted" : "failure", failure.c_str());
    std::printf("  mesh            %s:", ctx.kase.mesh_source.c_str());
    for (const auto& g : ctx.kase.mesh.groups) std::printf(" %lld %s", (long long)g.neles, g.etype.c_str());
    if (ctx.dist)
      std::printf(" on %d ranks (rank 0: %lld elements)", ctx.dist->comm().size(),
                  (long long)[&] { int64_t n = 0; for (const auto& l : ctx.sys.layout()) n += l.neles; return n; }());
    std::printf("\n  backend         %s (%s), %s precision, matmul %s\n", ctx.be.name().c_str(),
                ctx.be.device_description().c_str(), kernels::to_string(ctx.sys.config().precision),
                ctx.sys.config().matmul.c_str());
    if (const std::string n = ctx.be.notes(); !n.empty()) std::printf("                  %s\n", n.c_str());
    std::printf("  system          %s, order %d, %.0f solution points (DOF), %d variables\n",
                ctx.sys.config().phys.system.c_str(), ctx.sys.config().order, dofs, ctx.sys.nvars());
    if (ctx.sys.config().antialias_flux) {
      std::printf("  anti-alias      flux, the flux at");
      for (const auto& op : ctx.sys.operators())
        std::printf(" %s %d points (degree %d)", op.etype.c_str(), op.nqpts, op.qdeg);
      std::printf("\n");
    }
    if (ctx.sys.config().antialias_surf) {
      std::printf("  anti-alias      surf-flux, the common flux at");
      std::map<std::string, std::pair<std::string, int>> rules;
      for (const auto& op : ctx.sys.operators())
        for (const auto& [kind, file] : op.surf_qrule_names) rules[kind] = {file, op.surf_qdeg.at(kind)};
      for (const auto& [kind, r] : rules)
        std::printf(" %s faces %s (degree %d)", kind.c_str(), r.first.c_str(), r.second);
      std::printf("\n");
    }
    std::printf("  steps           %lld (%lld rejected), t = %.6g, scheme %s\n",
                (long long)st.nsteps, (long long)st.nrejected, st.t, ctx.intg.options().scheme.c_str());
    std::printf("  setup           %.2f s (mesh, geometry, kernels compiled on first use)\n",
                ctx.setup_seconds);
    if (!w.empty()) {
      std::printf("  time per step   median %.4g s (min %.4g s, mean %.4g s; %zu steps after the first)\n",
                  med, mn, mean, w.size());
      std::printf("  DOF-stages/s    %.4g\n", dofs * ctx.intg.stages() / med);
      floor_line(ctx, med, double(w.size()));
    }
    for (const auto& l : ctx.report) std::printf("  %s\n", l.c_str());
    if (!halo_.empty()) std::printf("  %s\n", halo_.c_str());
    std::printf("  matmul providers chosen:\n");
    for (const auto& [op, choice] : ctx.sys.matmul_choices())
      std::printf("    %-18s %s\n", op.c_str(), choice.c_str());
    if (failure.empty()) kernel_table(ctx);
  }

  // The least bytes a step moves (step_floor.hpp) over the device's triad bandwidth, beside
  // the measured median: how far the step is from the memory floor.
  void floor_line(RunContext& ctx, double med, double steps) {
    const double triad = ctx.be.bandwidth().triad_gbs * 1e9;
    const StepFloor f = floor_ / steps;
    if (triad <= 0 || f.total() <= 0) return;
    const double t = f.total() / triad;
    std::printf("  floor           %.4g s a step: %.4g MB at least (registers %.3g, metric terms "
                "%.3g, interfaces %.3g) at the triad's %.1f GB/s; measured / floor %.2f\n",
                t, f.total() * 1e-6, f.registers * 1e-6, f.geometry * 1e-6, f.interfaces * 1e-6,
                triad * 1e-9, med / t);
    // The same with what the pipeline keeps between its passes: how near the passes run to
    // the memory's speed, and what fusing them could save.
    const double tl = f.laid_out() / triad;
    std::printf("  as laid out     %.4g s a step: %.4g MB (%.3g MB between the RHS's passes); "
                "measured / laid out %.2f\n",
                tl, f.laid_out() * 1e-6, f.between * 1e-6, med / tl);
  }

  // Over several ranks: what each rank's exchanges sent per step (mean and largest over the
  // ranks) and how long it waited for them, per step after the first, as the step times
  // (frmini bench scaling reads this line).
  void halo_line(RunContext& ctx) {
    const double steps = double(walls_.size() > 1 ? walls_.size() - 1 : 0);
    const HaloTraffic now = ctx.sys.halo_traffic();
    double neles = 0;
    for (const auto& l : ctx.sys.layout()) neles += double(l.neles);
    const double per[5] = {steps > 0 ? (now.bytes - traffic0_.bytes) / steps : 0,
                           steps > 0 ? (now.messages - traffic0_.messages) / steps : 0,
                           steps > 0 ? (now.wait_s - traffic0_.wait_s) / steps : 0, now.neighbours,
                           neles};
    double sum[5], mx[5];
    std::copy(per, per + 5, sum), std::copy(per, per + 5, mx);
    auto& comm = ctx.dist->comm();
    comm.sum(sum, 5);
    comm.max(mx, 5);
    const double n = comm.size();
    char b[400];
    std::snprintf(b, sizeof b,
                  "halo exchange   %.4g MB sent per step per rank (mean; max %.4g MB), %.3g messages "
                  "per step per rank, up to %.0f neighbours, %.0f elements per rank (max); waited "
                  "%.4g ms per step (mean; max %.4g ms)",
                  sum[0] / n * 1e-6, mx[0] * 1e-6, sum[1] / n, mx[3], mx[4], sum[2] / n * 1e3,
                  mx[2] * 1e3);
    halo_ = b;
  }

  // Every kernel's time and the bytes it must move, against the device's measured bandwidth:
  // which kernels sit at the memory floor and which do not.
  void kernel_table(RunContext& ctx) {
    if (ctx.intg.state().nsteps == 0) return;
    const auto& bw = ctx.be.bandwidth();
    auto rows = ctx.sys.profile(5);
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.seconds > b.seconds; });
    double total = 0;
    for (const auto& r : rows) total += r.seconds;
    std::printf("  kernels (median of 5 runs each; GB/s on the bytes each must move; device triad %.1f GB/s):\n",
                bw.triad_gbs);
    std::printf("    %-34s %10s %8s %8s %8s\n", "kernel", "time ms", "share", "GB/s", "%triad");
    for (const auto& r : rows) {
      double gbs = r.seconds > 0 ? r.bytes / r.seconds * 1e-9 : 0;
      std::printf("    %-34s %10.4f %7.1f%% %8.1f %7.0f%%\n", r.name.substr(0, 34).c_str(),
                  r.seconds * 1e3, total > 0 ? 100 * r.seconds / total : 0.0, gbs,
                  bw.triad_gbs > 0 ? 100 * gbs / bw.triad_gbs : 0.0);
    }
  }
  std::filesystem::path file_;
  int64_t flushsteps_ = 500;
  HistoryFile hist_;
  std::vector<double> walls_;  // this run's steps (the report's statistics)
  HaloTraffic traffic0_;       // the exchanges' cost at the end of the first step
  StepFloor floor0_, floor_;   // the floor then, and of the steps since (every rank's)
  std::string halo_;           // the report's line on them (several ranks)
  clock::time_point last_;
};
}  // namespace

// On in every run, and last: its report closes the run.
PluginType timing_plugin() {
  using T = config::ValueType;
  PluginType t;
  t.section = "plugins.timing";
  t.schema = {
      {"plugins.timing", "Per-step wall times to CSV (written as the run goes, continued by a "
                         "restart) and the end-of-run report.",
       {{"file", T::string, "timings.csv", "CSV file, relative to the working directory"},
        {"flushsteps", T::integer, "500", "write the rows held in memory to the file at least "
                                          "every flushsteps steps (also at every solution file, "
                                          "on SIGINT/SIGTERM and at the end)", {}, 1, 1e9},
      }}};
  t.make = [](const Case& k, const PluginArgs&) -> std::unique_ptr<Plugin> {
    return std::make_unique<Timing>(k);
  };
  t.always = true;
  t.required = true;
  t.place = 1;
  return t;
}

}  // namespace frmini::solver
