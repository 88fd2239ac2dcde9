// The NaN check: every nsteps, the solution is searched for a NaN; finding one stops the run
// with a clear message (a user error: the case diverged) naming the last good file.
#include <cmath>
#include <sstream>

#include "operators/error.hpp"
#include "solver/plugins/plugins_internal.hpp"

namespace frmini::solver {

namespace {
class NanCheck : public Plugin {
 public:
  explicit NanCheck(const Case& k) : nsteps_(k.cfg.integer("plugins.nancheck", "nsteps")) {}
  std::string name() const override { return "nancheck"; }
  void after_step(RunContext& ctx) override {
    const auto& st = ctx.intg.state();
    if (st.nsteps % nsteps_) return;
    for (const auto& g : ctx.sys.download_solution(ctx.intg.current()))
      for (double x : g)
        if (std::isnan(x)) {
          std::ostringstream o;
          o << "nancheck: NaN in the solution at step " << st.nsteps << ", t = " << st.t
            << " (the time step may be too large; last good file: "
            << (ctx.last_file.empty() ? "none written" : ctx.last_file) << ")";
          throw UserError(o.str());
        }
  }

 private:
  int64_t nsteps_;
};
}  // namespace

std::unique_ptr<Plugin> make_nancheck(const Case& k) { return std::make_unique<NanCheck>(k); }

}  // namespace frmini::solver
