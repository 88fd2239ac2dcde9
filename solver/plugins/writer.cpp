// The writer plugin: the solution every dt-out (landing exactly on the output times), named
// from basename with {t} (time) and {n} (output number), in basedir (relative to the working
// directory, as PyFR's writer; input files such as the mesh are relative to the case file).
#include <cmath>
#include <cstdio>

#include "solver/io/solution_file.hpp"
#include "solver/plugins/plugins_internal.hpp"

namespace frmini::solver {

std::string output_name(const std::string& basename, double t, int n) {
  std::string name = basename;
  char tb[64];
  std::snprintf(tb, sizeof tb, "%.4f", t);
  for (auto [key, val] : {std::pair<std::string, std::string>{"{t}", tb}, {"{n}", std::to_string(n)}})
    for (std::size_t p; (p = name.find(key)) != std::string::npos;) name.replace(p, key.size(), val);
  return name;
}

SolutionFile solution_header(RunContext& ctx) {
  SolutionFile f;
  f.config_text = ctx.kase.cfg.text();
  f.config_name = ctx.kase.cfg.filename();
  f.flags = ctx.flags;
  f.mesh_uuid = ctx.kase.mesh.uuid;
  f.system = ctx.sys.config().phys.system;
  f.order = ctx.sys.config().order;
  f.ndims = ctx.sys.ndims();
  f.nvars = ctx.sys.nvars();
  f.state = ctx.intg.state();
  for (const auto& l : ctx.sys.layout()) {
    f.etypes.push_back(l.etype);
    f.shapes.push_back({std::size_t(l.neles), std::size_t(ctx.sys.nvars()), std::size_t(l.nupts)});
  }
  return f;
}

SolutionFile current_solution(RunContext& ctx) {
  SolutionFile f = solution_header(ctx);
  f.soln = ctx.sys.download_solution(ctx.intg.current());
  return f;
}

std::string write_current_solution(RunContext& ctx, const std::filesystem::path& path) {
  const SolutionFile f = current_solution(ctx);
  std::filesystem::create_directories(path.parent_path().empty() ? "." : path.parent_path());
  write_solution(path.string(), f);
  ctx.last_file = path.string();
  return path.string();
}

namespace {

class Writer : public Plugin {
 public:
  explicit Writer(const Case& k)
      : clock_{k.tstart, k.cfg.real("plugins.writer", "dt-out")},
        dir_(k.cfg.str("plugins.writer", "basedir")),
        base_(k.cfg.str("plugins.writer", "basename")) {}
  std::string name() const override { return "writer"; }

  void start(RunContext& ctx) override {
    clock_.start(ctx.intg.state().t);
    if (ctx.intg.state().nsteps == 0) write(ctx);  // the initial condition
  }
  double next_time(const RunContext&) const override { return clock_.next(); }
  void after_step(RunContext& ctx) override {
    if (clock_.due(ctx.intg.state().t)) {
      write(ctx);
      ++clock_.k;
    }
  }
  // A run that stops between outputs (--steps, or tend not a multiple of dt-out) still leaves
  // its final state, so it can always be restarted.
  void finish(RunContext& ctx) override {
    if (last_step_ != ctx.intg.state().nsteps) write(ctx);
  }

 private:
  void write(RunContext& ctx) {
    write_current_solution(ctx, dir_ / (output_name(base_, ctx.intg.state().t, count_++) + ".h5"));
    last_step_ = ctx.intg.state().nsteps;
  }
  OutputClock clock_;
  std::filesystem::path dir_;
  std::string base_;
  int count_ = 0;
  int64_t last_step_ = -1;
};

}  // namespace

std::unique_ptr<Plugin> make_writer(const Case& k) { return std::make_unique<Writer>(k); }

}  // namespace frmini::solver
