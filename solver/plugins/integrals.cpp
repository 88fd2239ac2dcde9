// Conserved totals: the integral of every conserved variable over the domain, sum over
// elements and solution points of W_i |J| u, every nsteps, to CSV. W_i = integral of the i-th
// nodal basis function = invvdm[i][0]*sqrt(|reference element|) (the first orthonormal basis
// function is the constant 1/sqrt(|ref|)).
#include <cmath>
#include <cstdio>

#include "operators/atomic_file.hpp"
#include "operators/error.hpp"
#include "operators/nodal.hpp"
#include "solver/plugins/integrals.hpp"
#include "solver/plugins/plugins_internal.hpp"

namespace frmini::solver {

std::vector<double> upts_weights(const operators::ElementOperators& ops) {
  static const std::map<std::string, double> vol = {{"quad", 4.0}, {"hex", 8.0}, {"tri", 2.0},
                                                    {"tet", 4.0 / 3.0}, {"pri", 4.0}, {"pyr", 8.0 / 3.0}};
  operators::NodalBasis b(ops.etype, ops.order, ops.upts);
  std::vector<double> w(ops.nupts);
  for (int i = 0; i < ops.nupts; ++i) w[i] = b.invvdm()(i, 0) * std::sqrt(vol.at(ops.etype));
  return w;
}

std::vector<std::vector<double>> group_weights(const System& sys) {
  std::vector<std::vector<double>> w;
  for (const auto& ops : sys.operators()) w.push_back(upts_weights(ops));
  return w;
}

std::vector<double> conserved_totals(System& sys, int reg) {
  return conserved_totals(sys, reg, group_weights(sys));
}

std::vector<double> conserved_totals(System& sys, int reg,
                                     const std::vector<std::vector<double>>& weights) {
  auto s = sys.download_solution(reg);
  std::vector<double> tot(sys.nvars(), 0.0);
  for (std::size_t g = 0; g < s.size(); ++g) {
    const auto& l = sys.layout()[g];
    const auto& geo = sys.geometry()[g];
    const auto& w = weights[g];
    for (int64_t e = 0; e < l.neles; ++e)
      for (int v = 0; v < sys.nvars(); ++v)
        for (int i = 0; i < l.nupts; ++i)
          tot[v] += w[i] * geo.djac_upts[std::size_t(i) * l.neles + e] *
                    s[g][(std::size_t(e) * sys.nvars() + v) * l.nupts + i];
  }
  return tot;
}

namespace {
class Integrals : public Plugin {
 public:
  explicit Integrals(const Case& k)
      : nsteps_(k.cfg.integer("plugins.integrals", "nsteps")),
        file_(k.cfg.str("plugins.integrals", "file")) {}
  std::string name() const override { return "integrals"; }
  void start(RunContext& ctx) override {
    weights_ = group_weights(ctx.sys);  // once: each is a Vandermonde inverse
    csv_ = "step,t";
    for (int v = 0; v < ctx.sys.nvars(); ++v) csv_ += ",total_u" + std::to_string(v);
    csv_ += "\n";
    sample(ctx);
  }
  void after_step(RunContext& ctx) override {
    if (ctx.intg.state().nsteps % nsteps_ == 0) sample(ctx);
  }
  void finish(RunContext&) override { write_text_atomically(file_, csv_); }

 private:
  void sample(RunContext& ctx) {
    char b[64];
    std::snprintf(b, sizeof b, "%lld,%.10g", (long long)ctx.intg.state().nsteps, ctx.intg.state().t);
    csv_ += b;
    for (double x : conserved_totals(ctx.sys, ctx.intg.current(), weights_)) {
      std::snprintf(b, sizeof b, ",%.17g", x);
      csv_ += b;
    }
    csv_ += "\n";
  }
  int64_t nsteps_;
  std::filesystem::path file_;
  std::string csv_;
  std::vector<std::vector<double>> weights_;
};
}  // namespace

std::unique_ptr<Plugin> make_integrals(const Case& k) { return std::make_unique<Integrals>(k); }

std::vector<std::unique_ptr<Plugin>> make_plugins(const Case& k, bool quiet) {
  std::vector<std::unique_ptr<Plugin>> p;
  if (k.cfg.has_section("plugins.writer")) p.push_back(make_writer(k));
  if (k.cfg.has_section("plugins.integrals")) p.push_back(make_integrals(k));
  if (k.cfg.has_section("plugins.nancheck")) p.push_back(make_nancheck(k));
  if (auto pr = make_progress(k, quiet)) p.push_back(std::move(pr));
  p.push_back(make_timing(k));  // last: its report closes the run
  for (const auto& f : k.cfg.subsections("plugins.forces"))
    throw UserError(k.cfg.filename() + ": [plugins.forces." + f +
                    "]: the forces plugin is not implemented yet in this version");
  return p;
}

}  // namespace frmini::solver
