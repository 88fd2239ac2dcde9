// The writer plugin: the solution every dt-out (landing exactly on the output times), named
// from basename with {t} (time) and {n} (output number), in basedir (relative to the working
// directory, as PyFR's writer; input files such as the mesh are relative to the case file).
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "base/error.hpp"

#include "solver/case/distributed.hpp"
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

bool RunContext::root() const { return !dist || dist->rank() == 0; }

SolutionFile current_solution(RunContext& ctx) {
  return whole_solution(ctx, ctx.sys.download_solution(ctx.intg.current()));
}

SolutionFile whole_solution(RunContext& ctx, std::vector<std::vector<double>> local) {
  SolutionFile f = solution_header(ctx);
  f.soln = std::move(local);
  if (!ctx.dist) return f;
  // Several ranks: the whole mesh's layout, on rank 0 (every rank takes part).
  f.soln = ctx.dist->gather(f.soln);
  f.etypes.clear(), f.shapes.clear();
  if (!ctx.root()) return f;
  for (std::size_t g = 0; g < ctx.kase.mesh.groups.size(); ++g) {
    const auto& grp = ctx.kase.mesh.groups[g];
    const std::size_t nv = std::size_t(ctx.sys.nvars());
    f.etypes.push_back(grp.etype);
    f.shapes.push_back({std::size_t(grp.neles), nv, f.soln[g].size() / (std::size_t(grp.neles) * nv)});
  }
  return f;
}

std::string write_current_solution(RunContext& ctx, const std::filesystem::path& path) {
  // Never a non-finite solution under a solution file's name: the previous file stays the
  // last good one. Over several ranks every rank stops and one of them says where.
  if (ctx.dist && !ctx.sys.finite(ctx.intg.current()))
    stop_diverged_run(ctx, "writer (" + path.string() + ")");
  const SolutionFile f = current_solution(ctx);
  if (!ctx.root()) {
    // Rank 0 writes; the others keep the same count and name for their plugins' flushes.
    ctx.last_file = path.string();
    ++ctx.outputs;
    return path.string();
  }
  require_finite(ctx, f.soln, "writer (" + path.string() + ")");
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path().empty() ? "." : path.parent_path(), ec);
  if (ec) throw UserError(path.string() + ": cannot create its folder (" + ec.message() + ")");
  // A full disk or a folder that became read-only: the write goes to a temporary name
  // (base/atomic_file.hpp), so the previous files are untouched; the error names the file.
  try {
    write_solution(path.string(), f);
  } catch (const UserError&) {
    throw;
  } catch (const std::exception& e) {
    throw UserError(path.string() + ": cannot write the solution (" + e.what() + ")");
  }
  ctx.last_file = path.string();
  ++ctx.outputs;
  return path.string();
}

void check_output_folder(const std::filesystem::path& dir, const std::string& where) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    throw UserError(where + ": cannot create the output folder '" + dir.string() + "' (" +
                    ec.message() + ")");
  // Permissions alone do not say it (root, ACLs, read-only mounts): try a file.
  const fs::path probe = dir / (".frmini-write-test-" + std::to_string(::getpid()));
  std::FILE* f = std::fopen(probe.c_str(), "wb");
  const bool ok = f && std::fputc('x', f) != EOF && std::fclose(f) == 0;
  if (f && !ok) std::fclose(f);
  fs::remove(probe, ec);
  if (!ok)
    throw UserError(where + ": the output folder '" + dir.string() + "' is not writable (" +
                    std::strerror(errno) + ")");
  // Temporaries of runs killed mid-write ("NAME.h5.tmp-PID" of a process that is gone) are
  // never read as solutions; they are removed here, so they do not pile up.
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const auto at = name.find(".h5.tmp-");
    if (at == std::string::npos) continue;
    char* end = nullptr;
    const long pid = std::strtol(name.c_str() + at + 8, &end, 10);
    if (pid <= 0 || *end || (::kill(pid_t(pid), 0) != 0 && errno == ESRCH))
      fs::remove(entry.path(), ec);
  }
}

void PeriodicOutput::start(RunContext& ctx) {
  if (!folder_.empty()) check_output_folder(folder_, folder_where_);
  k_ = int64_t(std::floor((ctx.intg.state().t - t0_) / dt_ + 1e-9)) + 1;
  // A restart numbers its outputs as the uninterrupted run would ({n} in a basename): output
  // k is the one at t0 + k dt-out, so the earlier run's files keep their names and contents.
  if (ctx.intg.state().nsteps > 0) count_ = int(k_);
  if (ctx.intg.state().nsteps == 0) output(ctx);  // the initial condition
}

void PeriodicOutput::after_step(RunContext& ctx) {
  const double next = next_time(ctx);
  if (ctx.intg.state().t >= next - 1e-12 * std::max(1.0, std::abs(next))) {
    output(ctx);
    ++k_;
  }
}

// A run that stops between outputs still leaves its final state (the writer's: so it can
// always be restarted).
void PeriodicOutput::finish(RunContext& ctx) {
  if (last_step_ != ctx.intg.state().nsteps) output(ctx);
}

void PeriodicOutput::output(RunContext& ctx) {
  write(ctx, count_++);
  last_step_ = ctx.intg.state().nsteps;
}

namespace {

class Writer : public PeriodicOutput {
 public:
  explicit Writer(const Case& k)
      : PeriodicOutput(k.tstart, k.cfg.real("plugins.writer", "dt-out")),
        dir_(k.cfg.str("plugins.writer", "basedir")),
        base_(k.cfg.str("plugins.writer", "basename")) {
    output_folder(dir_, k.cfg.where("plugins.writer", "basedir"));
  }
  std::string name() const override { return "writer"; }

 private:
  void write(RunContext& ctx, int n) override {
    write_current_solution(ctx, dir_ / (output_name(base_, ctx.intg.state().t, n) + ".h5"));
  }
  std::filesystem::path dir_;
  std::string base_;
};

}  // namespace

// The solution writer.
PluginType writer_plugin() {
  using T = config::ValueType;
  PluginType t;
  t.section = "plugins.writer";
  t.schema = {
      {"plugins.writer", "Writes the solution to HDF5 every dt-out (temporary name + rename).",
       {{"dt-out", T::real, "", "output interval", {}, 0.0, 1e300, true},
        {"basedir", T::string, ".", "output folder, relative to the working directory"},
        {"basename", T::string, "soln-{t}", "file name; {t} = time, {n} = output number"}}}};
  t.make = [](const Case& k, const PluginArgs&) -> std::unique_ptr<Plugin> {
    return std::make_unique<Writer>(k);
  };
  return t;
}

}  // namespace frmini::solver
