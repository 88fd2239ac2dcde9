// The shape every sampling plugin shares (forces, integrals, sampler): a sample every `nsteps`
// steps into a HistoryFile (history.hpp) flushed every `flushsteps`, continued by a restart on
// the step grid a run never restarted would have had, each step once.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "solver/plugins/history.hpp"
#include "solver/plugins/plugin.hpp"
#include "solver/run/case.hpp"

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
  void open_history(RunContext& ctx, const std::filesystem::path& file, const std::string& header) {
    hist_.open(file, header, ctx.restarted ? ctx.intg.state().nsteps : -1, flushsteps_,
               ctx.kase.cfg.filename() + ": [" + section_ + "]");
  }
  // Then: a fresh run samples its initial state; a restart keeps the earlier run's row there.
  void sample_start(RunContext& ctx) {
    const int64_t n = ctx.intg.state().nsteps;
    if (n % nsteps_ == 0 && !hist_.has_row_at(n)) sample(ctx);
  }

  std::string section_;
  int64_t nsteps_, flushsteps_;
  HistoryFile hist_;
};

}  // namespace frmini::solver
