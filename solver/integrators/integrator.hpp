// Explicit Runge-Kutta time integration of a System: rk4 (classical), tvd-rk3 (Shu-Osher)
// and rk45 (Kennedy-Carpenter RK4(3)5[2R+], low storage, with an embedded error estimate),
// with a fixed step or PyFR's PI controller. The integrator owns the registers' meaning; its
// state (time, step, controller memory) is what a restart needs to continue bit for bit.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "solver/system/system.hpp"

namespace frmini::solver {

struct IntegratorOptions {
  std::string scheme = "rk4";       // rk4 | tvd-rk3 | rk45
  std::string controller = "none";  // none | pi (rk45 only)
  double dt = 1e-3;
  double atol = 1e-6, rtol = 1e-6;
  double safety = 0.8, min_fact = 0.3, max_fact = 2.5, dt_max = 1e300;
  double pi_alpha = 0.58, pi_beta = 0.42;
  bool l2_norm = true;
};

// Everything that restarts a run exactly.
struct IntegratorState {
  double t = 0;
  double dt = 0;         // the next step (controller) or the fixed step
  double errprev = 1.0;  // PI controller memory
  int64_t nsteps = 0, nrejected = 0;
};

class Integrator {
 public:
  virtual ~Integrator() = default;
  // Registers the scheme needs (SystemConfig::nregs). Throws UserError for an unknown scheme
  // or a controller the scheme cannot drive.
  static int registers(const IntegratorOptions& o);
  static std::unique_ptr<Integrator> make(System& sys, const IntegratorOptions& o,
                                          IntegratorState st);

  // Advances to exactly time t (the last step shortened to land on it).
  virtual void advance_to(double t) = 0;
  // Takes one step (the controller's or the fixed one, never beyond `tmax`).
  virtual void step_once(double tmax) = 0;
  // The register holding the current solution.
  virtual int current() const = 0;
  const IntegratorState& state() const { return st_; }
  const IntegratorOptions& options() const { return o_; }
  // Function evaluations per step, for DOF-stages/s.
  virtual int stages() const = 0;

 protected:
  Integrator(System& sys, IntegratorOptions o, IntegratorState st)
      : sys_(sys), o_(std::move(o)), st_(st) {}
  System& sys_;
  IntegratorOptions o_;
  IntegratorState st_;
};

}  // namespace frmini::solver
