// The shape every sampling plugin shares (forces, integrals, sampler): a sample every `nsteps`
// steps into a HistoryFile (history.hpp) flushed every `flushsteps`, continued by a restart on
// the step grid a run never restarted would have had, each step once.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "solver/plugins/history.hpp"
#include "solver/plugins/plugin.hpp"
#include "solver/case/case.hpp"
#include "solver/case/distributed.hpp"

namespace frmini::solver {

class SampledHistory : public Plugin {
 public:
  void after_step(RunContext& ctx) override {
    const int64_t n = ctx.intg.state().nsteps;
    if (n % nsteps_ == 0) sample(ctx);
    hist_.step(n);
  }
  void flush(RunContext&) override { hist_.flush(); }
  void finish(RunContext&) override { hist_.close(); }

 protected:
  // Reads nsteps and flushsteps from `section`.
  SampledHistory(const config::Config& cfg, std::string section)
      : section_(std::move(section)),
        nsteps_(cfg.integer(section_, "nsteps")),
        flushsteps_(cfg.integer(section_, "flushsteps")) {}

  virtual void sample(RunContext& ctx) = 0;

  // In start(): opens the history (a restart keeps the earlier run's rows up to its step).
  // Over several ranks rank 0 keeps the file; every rank samples (a sample is collective).
  void open_history(RunContext& ctx, const std::filesystem::path& file, const std::string& header) {
    if (!ctx.root()) return;
    hist_.open(file, header, ctx.restarted ? ctx.intg.state().nsteps : -1, flushsteps_,
               ctx.kase.cfg.filename() + ": [" + section_ + "]");
  }
  // Then: a fresh run samples its initial state; a restart keeps the earlier run's row there
  // (rank 0 knows; the others follow it).
  void sample_start(RunContext& ctx) {
    const int64_t n = ctx.intg.state().nsteps;
    double have = hist_.has_row_at(n) ? 1 : 0;
    if (ctx.dist) ctx.dist->comm().max(&have, 1);
    if (n % nsteps_ == 0 && have == 0) sample(ctx);
  }
  // A row from rank 0 (the others' rows would only wait in memory).
  void append(RunContext& ctx, const std::string& row) {
    if (ctx.root()) hist_.append(row);
  }

  std::string section_;
  int64_t nsteps_, flushsteps_;
  HistoryFile hist_;
};

}  // namespace frmini::solver
