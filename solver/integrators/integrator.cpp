#include "solver/integrators/integrator.hpp"

#include <utility>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "base/error.hpp"
#include "base/literal.hpp"

namespace frmini::solver {

namespace {

// What every fixed-step scheme shares: whole steps, landing exactly on a target time.
class FixedStep : public Integrator {
 public:
  using Integrator::Integrator;
  void advance_to(double tend) override {
    while (st_.t < tend) step_once(tend);
  }

 protected:
  void finish(double t, double dt) {
    // Landing exactly on a target time keeps outputs and restarts on the requested times.
    st_.t = t + dt;
    ++st_.nsteps;
  }
};

// The classical four-stage scheme in three registers, as PyFR arranges it: u, an accumulator
// that becomes the next u, and a stage register whose derivative is computed in place (the
// RHS reads each element block's u before it writes that block's result). The updates after
// each RHS run inside it (System::rhs), on each block of elements as soon as its derivative
// is written, so the derivative is read back from cache: the step's register traffic (the
// RHS's writes of its derivative included) falls from 13 reads and 10 writes of a register to
// 6 reads and 8 writes.
// The accumulator and u swap roles every step.
class Rk4 : public FixedStep {
 public:
  // The registers alternate step by step: a restart at step n takes the register an
  // uninterrupted run would hold its solution in, so every later step runs the same kernel
  // instances (tuned per register) and the continuation is bit for bit.
  Rk4(System& sys, IntegratorOptions o, IntegratorState st)
      : FixedStep(sys, std::move(o), st), u_(int(st.nsteps % 2)) {}
  int current() const override { return u_; }
  int stages() const override { return 4; }
  void step_once(double tmax) override {
    const double t = st_.t, dt = std::min(st_.dt, tmax - t);
    const int u = u_, acc = 1 - u_, s = 2;
    const auto ax = &System::axnpby_kernel;
    // s = k1 is never stored: acc = k1, then s = u + dt/2 k1.
    // Each of the first three passes also prepares s, the next stage's input (System::rhs).
    sys_.rhs(t, u, acc, {ax(s, {{1.0, u}, {dt / 2, acc}})}, s);
    // s = k2; acc = u + dt/6 k1 + dt/3 k2; s = u + dt/2 k2.
    sys_.rhs(t + dt / 2, s, s,
             {ax(acc, {{dt / 6, acc}, {1.0, u}, {dt / 3, s}}), ax(s, {{dt / 2, s}, {1.0, u}})}, s);
    // s = k3; acc += dt/3 k3; s = u + dt k3.
    sys_.rhs(t + dt / 2, s, s, {ax(acc, {{1.0, acc}, {dt / 3, s}}), ax(s, {{dt, s}, {1.0, u}})}, s);
    // s = k4; acc += dt/6 k4: the new u.
    sys_.rhs(t + dt, s, s, {ax(acc, {{1.0, acc}, {dt / 6, s}})});
    u_ = acc;
    finish(t, dt);
  }

 private:
  int u_;
};

// Shu-Osher's TVD RK3 in three registers: 0 = u, 1 = derivative, 2 = stage.
class TvdRk3 : public FixedStep {
 public:
  using FixedStep::FixedStep;
  int current() const override { return 0; }
  int stages() const override { return 3; }
  void step_once(double tmax) override {
    const double t = st_.t, dt = std::min(st_.dt, tmax - t);
    // Each RHS runs the update after it on the blocks it has just finished (System::rhs).
    const auto ax = &System::axnpby_kernel;
    sys_.rhs(t, 0, 1, {ax(2, {{1.0, 0}, {dt, 1}})});
    sys_.rhs(t + dt, 2, 1, {ax(2, {{0.75, 0}, {0.25, 2}, {0.25 * dt, 1}})});
    sys_.rhs(t + 0.5 * dt, 2, 1, {ax(0, {{1.0 / 3, 0}, {2.0 / 3, 2}, {2.0 / 3 * dt, 1}})});
    finish(t, dt);
  }
};

// RK4(3)5[2R+] (Kennedy, Carpenter and Lewis 2000), van der Houwen two-register form as in
// PyFR: registers r1, r2 swap roles every stage; with the PI controller two more hold the
// previous solution and the error estimate.
class Rk45 : public Integrator {
 public:
  Rk45(System& sys, IntegratorOptions o, IntegratorState st)
      : Integrator(sys, std::move(o), st), errest_(o_.controller == "pi") {
    c_[0] = 0;
    double bs = 0;
    for (int i = 0; i < 4; ++i) {
      c_[i + 1] = bs + a_[i];
      bs += b_[i];
    }
    for (int i = 0; i < 5; ++i) e_[i] = b_[i] - bhat_[i];
  }
  int current() const override { return cur_; }
  int stages() const override { return 5; }

  void step_once(double tmax) override {
    if (!errest_) {
      take(st_.t, std::min(st_.dt, tmax - st_.t));
      ++st_.nsteps;
      return;
    }
    const double expa = o_.pi_alpha / 4, expb = o_.pi_beta / 4;
    for (;;) {
      const double t = st_.t;
      const double dt = std::min({tmax - t, st_.dt, o_.dt_max});
      const int prev = cur_;
      take(t, dt);  // solution now in cur_, previous in register 2, error in register 3
      double err = sys_.error_norm(cur_, 2, 3, o_.atol, o_.rtol, o_.l2_norm);
      // A non-finite estimate (NaN or Inf in the trial step) is a rejection at the smallest
      // factor: a step too large can overflow where a smaller one does not. Twenty in a row,
      // or a step that no longer moves t, is a solution that diverges (exit status 3).
      const bool finite = std::isfinite(err);
      nonfinite_ = finite ? 0 : nonfinite_ + 1;
      double fac = finite ? std::pow(err, -expa) * std::pow(st_.errprev, expb) : 0.0;
      fac = std::min(o_.max_fact, std::max(o_.min_fact, o_.safety * fac));
      st_.dt = fac * dt;
      if (finite && err < 1.0) {
        st_.errprev = err;
        ++st_.nsteps;
        return;
      }
      // Rejected: back to the previous solution (restored below), with the smaller step.
      ++st_.nrejected;
      st_.t = t;
      sys_.copy_register(prev, 2);
      cur_ = prev;
      check_rejection(t, dt, err);
    }
  }
  void advance_to(double tend) override {
    while (st_.t < tend) step_once(tend);
  }

 private:
  void check_rejection(double t, double dt, double err) const {
    char b[256];
    if (nonfinite_ >= 20) {
      std::snprintf(b, sizeof b, "time integration: every trial step from t = %.9g holds NaN or "
                    "infinite values (%d in a row, the last with dt = %.3g): the solution diverges", t,
                    nonfinite_, dt);
      throw DivergedError(b);
    }
    // Below this a step no longer changes t in double precision.
    if (st_.dt < 1e-13 * std::max(1.0, std::abs(t))) {
      std::snprintf(b, sizeof b, "time integration: the step size fell to %.3g at t = %.9g, "
                    "every trial step rejected (the last error estimate %.3g): the solution "
                    "diverges, or atol/rtol are too tight for the precision", st_.dt, t, err);
      throw DivergedError(b);
    }
    if (st_.nrejected > 100000) throw DivergedError("time integration: over 100000 rejected steps");
  }

  // One step of size dt from t; leaves the solution in cur_ and advances st_.t.
  void take(double t, double dt) {
    int r1 = cur_, r2 = 1 - cur_;
    for (int i = 0; i < 5; ++i) {
      sys_.rhs(t + c_[i] * dt, i > 0 ? r2 : r1, r2, {stage_update(i, r1, r2, dt)});
      std::swap(r1, r2);
    }
    cur_ = r2;
    st_.t = t + dt;
  }

  // The register update after stage i's RHS (which leaves the derivative in r2).
  System::RegisterKernel stage_update(int i, int r1, int r2, double dt) const {
    using namespace kernels::pointwise;
    Spec s;
    s.name = "rkvdh2";
    s.space = Space::points;
    s.args = {{"r1", ArgKind::array, Intent::inout, {1}}, {"r2", ArgKind::array, Intent::inout, {1}}};
    std::vector<int> regs{r1, r2};
    if (errest_) {
      // The first stage saves the previous solution and starts the error estimate.
      if (i == 0) {
        s.args.push_back({"rold", ArgKind::array, Intent::out, {1}});
        regs.push_back(2);
      }
      s.args.push_back({"rerr", ArgKind::array, i == 0 ? Intent::out : Intent::inout, {1}});
      regs.push_back(3);
    }
    s.args.push_back({"dt", ArgKind::scalar, Intent::in, {}});
    auto lit = [](double v) { return literal(v); };
    std::string body = "const fpdtype_t u1 = r1[0], du = r2[0];\n";
    if (errest_) {
      if (i == 0) body += "rold[0] = u1;\nrerr[0] = dt*" + lit(e_[i]) + "*du;\n";
      else body += "rerr[0] += dt*" + lit(e_[i]) + "*du;\n";
    }
    if (i < 4) {
      body += "r1[0] = u1 + dt*" + lit(a_[i]) + "*du;\n";
      body += "r2[0] = u1 + dt*" + lit(b_[i]) + "*du;\n";
    } else {
      body += "r1[0] = u1 + dt*" + lit(b_[i]) + "*du;\n";
    }
    s.body = body;
    return {s, regs, {dt}};
  }

  bool errest_;
  int cur_ = 0;
  int nonfinite_ = 0;  // consecutive trial steps whose error estimate was not finite
  double c_[5], e_[5];
  static constexpr double a_[4] = {970286171893.0 / 4311952581923.0,
                                   6584761158862.0 / 12103376702013.0,
                                   2251764453980.0 / 15575788980749.0,
                                   26877169314380.0 / 34165994151039.0};
  static constexpr double b_[5] = {1153189308089.0 / 22510343858157.0,
                                   1772645290293.0 / 4653164025191.0,
                                   -1672844663538.0 / 4480602732383.0,
                                   2114624349019.0 / 3568978502595.0,
                                   5198255086312.0 / 14908931495163.0};
  static constexpr double bhat_[5] = {1016888040809.0 / 7410784769900.0,
                                      11231460423587.0 / 58533540763752.0,
                                      -1563879915014.0 / 6823010717585.0,
                                      606302364029.0 / 971179775848.0,
                                      1097981568119.0 / 3980877426909.0};
};

}  // namespace

int Integrator::registers(const IntegratorOptions& o) {
  if (o.controller != "none" && o.controller != "pi")
    throw UserError("[time] controller: unknown controller '" + o.controller + "'");
  if (o.controller == "pi" && o.scheme != "rk45")
    throw UserError("[time] controller = \"pi\" needs scheme = \"rk45\" (an embedded pair)");
  if (o.scheme == "rk4") return 3;
  if (o.scheme == "tvd-rk3") return 3;
  if (o.scheme == "rk45") return o.controller == "pi" ? 4 : 2;
  throw UserError("[time] scheme: unknown scheme '" + o.scheme + "'");
}

std::unique_ptr<Integrator> Integrator::make(System& sys, const IntegratorOptions& o,
                                             IntegratorState st) {
  registers(o);
  if (st.dt <= 0) st.dt = o.dt;
  if (o.scheme == "rk4") return std::unique_ptr<Integrator>(new Rk4(sys, o, st));
  if (o.scheme == "tvd-rk3") return std::unique_ptr<Integrator>(new TvdRk3(sys, o, st));
  return std::unique_ptr<Integrator>(new Rk45(sys, o, st));
}

}  // namespace frmini::solver
