// Everything outside the right-hand side is a plugin (Trixi.jl's callbacks, PyFR's plugins):
// the solution writer, the NaN check, the progress bar, per-step timing and the run report,
// conserved integrals. A plugin sees the run through RunContext and may ask the runner to stop
// at a time (next_time) so outputs land exactly on their times.
#pragma once

#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernels/backend.hpp"
#include "solver/config/schema.hpp"
#include "solver/integrators/integrator.hpp"
#include "solver/case/case.hpp"
#include "solver/system/system.hpp"

namespace frmini::solver {

class Distribution;

struct RunContext {
  const Case& kase;
  System& sys;
  Integrator& intg;
  kernels::Backend& be;
  std::string flags;      // command-line overrides, recorded in solution files
  bool quiet = false;
  double setup_seconds = 0;
  std::string last_file;  // the last solution file written (nancheck names it)
  // Lines plugins add in finish() for the run report (the timing plugin, last, prints them).
  std::vector<std::string> report;
  // `frmini restart`: histories continue the earlier run's files instead of replacing them.
  bool restarted = false;
  // Solution files written so far (write_current_solution): the runner asks every plugin to
  // flush its histories after a step that wrote one, so a file and its histories agree.
  int64_t outputs = 0;
  // The latest values plugins publish for the batch-log status line (forces: "<boundary>" ->
  // "Cd 1.23 Cl -0.045").
  std::map<std::string, std::string> latest;
  // A run over several ranks (distributed.hpp): this rank's part of the mesh; nullptr on one.
  const Distribution* dist = nullptr;
  bool root() const;  // the rank that prints and writes files (the only one without `dist`)
};

class Plugin {
 public:
  virtual ~Plugin() = default;
  virtual std::string name() const = 0;
  virtual void start(RunContext&) {}
  virtual void after_step(RunContext&) {}
  virtual void finish(RunContext&) {}
  // The run stopped on an error (the solution diverged) instead of finishing: `why` is the
  // message. finish() is not called then, so no plugin writes the bad state.
  virtual void failed(RunContext&, const std::string& /*why*/) {}
  // Write the rows held in memory to the plugin's history files (solver/plugins/history.hpp):
  // called at every solution output and checkpoint, on a signal and before failed().
  virtual void flush(RunContext&) {}
  // The next time the run must land on exactly (infinity = none).
  virtual double next_time(const RunContext&) const { return std::numeric_limits<double>::infinity(); }
};

// A kind of plugin, by the case-file section that enables it (PyFR finds its plugins by name):
// what a new plugin registers: a built-in one with one line in plugins_internal.hpp, one from
// elsewhere (the export plugin, a test's) with a register_plugin call before the case is
// read.
struct PluginArgs {
  std::string table;   // a "plugins.forces.*" plugin: the table it is made for ("wall")
  bool quiet = false;  // frmini run --quiet, or not the rank that prints
};
struct PluginType {
  // "plugins.writer"; a last component "*" makes one plugin per table ("plugins.forces.*").
  std::string section;
  // Its case-file sections, `section` first: keys, types, defaults and help for validation and
  // --help-config.
  std::vector<config::SectionSpec> schema;
  // Null when the case turns the plugin off.
  std::unique_ptr<Plugin> (*make)(const Case&, const PluginArgs&);
  bool always = false;    // made whether or not the case has the section
  bool required = false;  // made also under frmini run --no-plugins (nancheck, timing)
  int place = 0;          // the order plugins are made and called in: lower first
};
// Registers the type and its schema sections (again: replaces it).
void register_plugin(PluginType t);
// The built-in plugins and the physics' schema choices, once: the frmini executable and every
// binary linking frmini_solver do it before main (plugins/at_start.cpp); a program of its own
// calls it before reading a case.
void register_builtin_plugins();

// The plugins a case enables ([plugins.*] sections) and the ones every run has, by place.
std::vector<std::unique_ptr<Plugin>> make_plugins(const Case& k, bool quiet);
// Only the plugins every run has whatever its case says: the blow-up check and the timing
// report (frmini run --no-plugins, for timing a case as it steps).
std::vector<std::unique_ptr<Plugin>> make_required_plugins(const Case& k);

// A solution file's description of this run (case, mesh, discretisation, integrator state,
// element groups) with no data yet; the current state in memory (downloaded from the
// device); and that written to `path` (the writer, and the runner at the end).
struct SolutionFile;
SolutionFile solution_header(RunContext& ctx);
SolutionFile current_solution(RunContext& ctx);
// A file of this part's values per element (download_solution's layout, any number of
// variables per point) in the whole mesh's layout: over several ranks gathered on rank 0
// (collective; the other ranks get the header alone).
SolutionFile whole_solution(RunContext& ctx, std::vector<std::vector<double>> local);
std::string write_current_solution(RunContext& ctx, const std::filesystem::path& path);

// A plugin that writes output number n at t0 + n dt_out (computed, never a running sum, so a
// restart lands on the same times), also at the start of a fresh run and at the end of a run
// that stopped between outputs (--steps, or tend not a multiple of dt-out): the writer's and
// the export plugin's schedule. Subclasses say what one output is.
class PeriodicOutput : public Plugin {
 public:
  PeriodicOutput(double t0, double dt_out) : t0_(t0), dt_(dt_out) {}
  void start(RunContext& ctx) override;
  double next_time(const RunContext&) const override { return t0_ + double(k_) * dt_; }
  void after_step(RunContext& ctx) override;
  void finish(RunContext& ctx) override;

 protected:
  virtual void write(RunContext& ctx, int n) = 0;
  // The folder the outputs go to: start() checks that it can be written (before the first
  // step; `where` names the config key for the message) and removes stale temporaries.
  void output_folder(std::filesystem::path dir, std::string where) {
    folder_ = std::move(dir), folder_where_ = std::move(where);
  }

 private:
  void output(RunContext& ctx);
  std::filesystem::path folder_;
  std::string folder_where_;
  double t0_, dt_;
  int64_t k_ = 1, last_step_ = -1;
  int count_ = 0;
};

// Creates `dir` and checks that a file can be written there (UserError naming `where`); removes
// the temporaries ("*.h5.tmp-PID") that runs killed mid-write left there.
void check_output_folder(const std::filesystem::path& dir, const std::string& where);

// An output's file name from a basename: {t} = the time (4 decimals), {n} = the output number
// (the writer, tavg and export plugins name files alike).
std::string output_name(const std::string& basename, double t, int n);

}  // namespace frmini::solver
