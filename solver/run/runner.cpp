#include "solver/run/runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "base/error.hpp"
#include "operators/projection.hpp"
#include "operators/shapes.hpp"
#include "solver/case/distributed.hpp"
#include "solver/physics/host.hpp"
#include "solver/plugins/plugin.hpp"
#include "solver/run/cfl.hpp"
#include "solver/run/signals.hpp"

namespace frmini::solver {

namespace {

// A restart must continue the same problem: same mesh, system and element types (the file
// holds the whole mesh's layout whatever number of ranks wrote or reads it). Another order
// is projected (project_restart); the file's own layout must then be that of its order.
void check_restart(const Case& k, const System& sys, const SolutionFile& f, IntegratorState& st) {
  const std::string& name = f.config_name;
  auto bad = [&](const std::string& what) {
    throw UserError("restart: the solution file (written for " + name + ") " + what);
  };
  if (f.mesh_uuid != k.mesh.uuid) bad("belongs to another mesh (mesh UUID differs)");
  if (f.system != sys.config().phys.system) bad("is a " + f.system + " solution");
  if (f.etypes.size() != k.mesh.groups.size()) bad("has other element types");
  for (std::size_t g = 0; g < f.etypes.size(); ++g) {
    const std::string& etype = k.mesh.groups[g].etype;
    bool ok = f.etypes[g] == etype && int64_t(f.shapes[g][0]) == k.mesh.groups[g].neles &&
              int(f.shapes[g][1]) == sys.nvars() &&
              int(f.shapes[g][2]) == operators::nupts_for(etype, f.order);
    if (!ok) bad("does not match the mesh's " + etype + " elements");
  }
  st = f.state;
  if (f.order != sys.config().order) {
    // The step the file's order allowed is not stable at a higher order (nor the
    // controller's memory of its error): both start again from the case.
    st.dt = k.intg.dt;
    st.errprev = IntegratorState{}.errprev;
  }
}

// The file's solution (this rank's elements, each group [neles][nvars][nupts at order p])
// at this run's order q: each element's every variable through the reference element's L2
// projection (operators/projection.hpp), with the case's solution point set.
std::vector<std::vector<double>> project_restart(const System& sys, int p,
                                                 std::vector<std::vector<double>> soln) {
  const int q = sys.config().order;
  if (p == q) return soln;
  const std::size_t nv = std::size_t(sys.nvars());
  for (std::size_t g = 0; g < soln.size(); ++g) {
    const auto& l = sys.layout()[g];
    const auto it = sys.config().upts.find(l.etype);
    const std::string upts = it == sys.config().upts.end() ? "" : it->second;
    const operators::Matrix P = operators::projection_matrix(l.etype, p, q, upts);
    const std::size_t np = P.cols, nq = P.rows, rows = std::size_t(l.neles) * nv;
    if (soln[g].size() != rows * np || nq != std::size_t(l.nupts))
      throw std::logic_error("project_restart: " + l.etype + " group holds " +
                             std::to_string(soln[g].size()) + " values, not " +
                             std::to_string(rows) + " x " + std::to_string(np));
    std::vector<double> out(rows * nq);
    for (std::size_t r = 0; r < rows; ++r)  // one (element, variable) row at a time
      for (std::size_t i = 0; i < nq; ++i) {
        double s = 0.0;
        for (std::size_t j = 0; j < np; ++j) s += P(i, j) * soln[g][r * np + j];
        out[r * nq + i] = s;
      }
    soln[g] = std::move(out);
  }
  return soln;
}

// The starting state must be a physical one: finite, with rho > 0 and p > 0 at every solution
// point (a negative density or pressure makes the sound speed imaginary and the run produces
// NaNs a few steps later, far from the cause). `source` names the input at fault.
void check_physical(const Case& k, System& sys, int reg, const std::string& source,
                    const Distribution* dist) {
  const auto soln = sys.download_solution(reg);
  const int nv = sys.nvars(), nd = sys.ndims();
  const double gamma = k.sys.phys.gamma;
  for (std::size_t g = 0; g < soln.size(); ++g) {
    const auto& l = sys.layout()[g];
    const auto& u = soln[g];
    for (int64_t e = 0; e < l.neles; ++e)
      for (int i = 0; i < l.nupts; ++i) {
        auto at = [&](int v) { return u[(std::size_t(e) * nv + v) * l.nupts + i]; };
        const double rho = at(0), p = physics::pressure(nd, gamma, at);
        bool ok = std::isfinite(rho) && std::isfinite(p) && rho > 0 && p > 0;
        for (int v = 0; v < nv; ++v) ok = ok && std::isfinite(at(v));
        if (ok) continue;
        std::ostringstream o;
        o.precision(6);
        o << source << " gives a non-physical state (rho and p must be positive and finite): rho = "
          << rho << ", p = " << p << " at (";
        const auto& geo = sys.geometry()[g];
        for (int c = 0; c < nd; ++c)
          o << (c ? ", " : "") << geo.ploc_upts[(std::size_t(i) * nd + c) * l.neles + e];
        o << "), " << l.etype << " element " << (dist ? dist->whole_element(g, e) : e);
        if (dist) o << " (" << dist->where() << ")";
        o << ", solution point " << i;
        throw UserError(o.str());
      }
  }
}

// Where a signal's checkpoint goes: beside the writer's files if the case has a writer, else
// in the working directory; named after the case and the step, so it overwrites nothing.
std::filesystem::path checkpoint_path(const Case& k, int64_t nsteps) {
  std::filesystem::path dir = ".";
  if (k.cfg.has_section("plugins.writer")) dir = k.cfg.str("plugins.writer", "basedir");
  const std::string stem = std::filesystem::path(k.cfg.filename()).stem().string();
  return dir / (stem + "-checkpoint-" + std::to_string(nsteps) + ".h5");
}

// The signal this rank must stop for, if any. Over several ranks every rank stops after the
// same step (the checkpoint is written by all of them), and `to_whom` names the lowest rank
// the signal reached. Collective.
int pending_signal(StopSignals& signals, const Distribution* dist, std::string& to_whom) {
  int sig = signals.pending();
  if (!dist) return sig;
  auto& comm = dist->comm();
  double s[2] = {double(sig), sig ? double(comm.size() - comm.rank()) : 0.0};
  comm.max(s, 2);
  sig = int(s[0]);
  if (sig) to_whom = " (to rank " + std::to_string(comm.size() - int(s[1])) +
                     " of " + std::to_string(comm.size()) + ")";
  return sig;
}

bool g_in_loop = false;

}  // namespace

bool in_time_loop() { return g_in_loop; }

IntegratorState run_case(const Case& k, const RunOptions& o) {
  auto t0 = std::chrono::steady_clock::now();
  // Several ranks (mpirun): each builds its part of the mesh; rank 0 prints and writes.
  comm::Comm& comm = comm::world();
  std::unique_ptr<Distribution> dist;
  std::string note;
  if (comm.size() > 1) {
    dist = std::make_unique<Distribution>(k.mesh, comm, note);
  }
  const bool root = comm.rank() == 0;
  auto be = kernels::make_backend(k.backend, k.bopts);
  auto sysp = dist ? std::make_unique<System>(*be, dist->part(), comm, k.sys)
                   : std::make_unique<System>(*be, k.mesh, k.sys);
  System& sys = *sysp;
  if (!note.empty() && root && !o.quiet) std::printf("frmini: %s\n", note.c_str());
  IntegratorState st;
  st.t = k.tstart;
  if (o.restart) check_restart(k, sys, *o.restart, st);
  auto intg = Integrator::make(sys, k.intg, st);
  const bool reorder = o.restart && o.restart->order != k.sys.order;
  if (o.restart) {
    if (reorder && root && !o.quiet)
      std::printf("frmini: restart: the solution projected from order %d to order %d\n",
                  o.restart->order, k.sys.order);
    sys.upload_solution(intg->current(),
                        project_restart(sys, o.restart->order,
                                        dist ? dist->scatter(o.restart->soln) : o.restart->soln));
  } else {
    k.set_initial_solution(sys, intg->current());
  }
  {
    const std::string source =
        !o.restart ? k.cfg.filename() + ": [ics]"
                   : o.restart_path + ": the solution" +
                         (reorder ? " projected to order " + std::to_string(k.sys.order) : "");
    std::string bad;
    try {
      check_physical(k, sys, intg->current(), source, dist.get());
    } catch (const UserError& e) {
      if (!dist) throw;
      bad = e.what();
    }
    if (dist) {
      double any = bad.empty() ? 0 : 1;
      comm.max(&any, 1);
      if (!bad.empty()) throw comm::PartError(bad);
      if (any > 0) throw UserError(source + " gives a non-physical state on another rank");
    }
  }
  if (!o.quiet) {
    double cfl = cfl_number(sys, sys.download_solution(intg->current()), intg->state().dt);
    if (dist) comm.max(&cfl, 1);
    if (root)
      std::printf("frmini: %s, CFL %.3g at t = %g with dt = %g (%s is stable to about %.3g%s)\n",
                  k.cfg.filename().c_str(), cfl, intg->state().t, intg->state().dt,
                  k.intg.scheme.c_str(), cfl_limit(k.intg.scheme),
                  k.intg.controller == "pi" ? "; the PI controller adapts dt" : "");
    std::fflush(stdout);
  }
  auto plugins = o.no_plugins ? make_required_plugins(k) : make_plugins(k, o.quiet || !root);

  RunContext ctx{k, sys, *intg, *be, o.flags, o.quiet || !root, 0.0, "", {}, o.restart != nullptr, 0, {}, dist.get()};
  ctx.setup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (auto& p : plugins) p->start(ctx);
  // The histories' files are written once every plugin has started: a run refused before its
  // first step (a history with another header, a bad reference value) changes none of them.
  for (auto& p : plugins) p->flush(ctx);
  const int64_t first = intg->state().nsteps;
  StopSignals signals;
  g_in_loop = true;
  try {
    while (intg->state().t < k.tend && (o.max_steps < 0 || intg->state().nsteps - first < o.max_steps)) {
      double tmax = k.tend;
      for (auto& p : plugins) tmax = std::min(tmax, p->next_time(ctx));
      intg->step_once(tmax);
      const int64_t outputs = ctx.outputs;
      for (auto& p : plugins) p->after_step(ctx);
      // A solution file was written: the histories reach at least as far (a restart from it
      // finds every row up to its step).
      if (ctx.outputs != outputs)
        for (auto& p : plugins) p->flush(ctx);
      std::string to_whom;
      const int sig = pending_signal(signals, dist.get(), to_whom);
      if (sig) {
        // The step is complete: its state is a checkpoint `frmini restart` continues bit for
        // bit (the writer's own files are the same kind).
        const auto& s = intg->state();
        const std::string file = write_current_solution(ctx, checkpoint_path(k, s.nsteps));
        const std::string why = std::string("stopped by ") + signal_name(sig) + to_whom +
                                " after step " + std::to_string(s.nsteps) + "; checkpoint " + file;
        for (auto& p : plugins) p->flush(ctx);
        for (auto& p : plugins) p->failed(ctx, why);
        throw Interrupted(sig, file,
                          why + " (continue with: frmini restart " + k.cfg.filename() + " " + file + ")");
      }
    }
    for (auto& p : plugins) p->finish(ctx);
  } catch (const DivergedError& e) {
    // The report says the run failed; the plugins after the one that found it do not
    // finish, so nothing writes the state. The histories up to the blow-up are kept: they
    // show how it came.
    for (auto& p : plugins) try {
        p->flush(ctx);
      } catch (const UserError&) {
        // A history that cannot be written must not hide the blow-up's message.
      }
    for (auto& p : plugins) p->failed(ctx, e.what());
    throw;
  }
  return intg->state();
}

}  // namespace frmini::solver
