// Integrals of user expressions over the domain or a box inside it (PyFR's integrate plugin):
// [plugins.integrals.expressions] name = "expression" of x, y, z, t, the primitive variables
// rho, u, v, w, p and their gradients grad_<var>_<x|y|z>, e.g.
//     ke = "0.5*rho*(u*u + v*v + w*w)"
//     enstrophy = "0.5*rho*((grad_w_y - grad_v_z)^2 + (grad_u_z - grad_w_x)^2 + (grad_v_x - grad_u_y)^2)"
// Each is evaluated at every solution point from the element's own polynomial (its values and
// its physical gradient, as the sampler gives them; [plugins.integrals] gradients = "corrected":
// the LDG-corrected gradient instead, PyFR's choice) and integrated with the element quadrature
// W_i |J_i| (integrals.hpp). [plugins.integrals] region = "(x0, y0[, z0]), (x1, y1[, z1])"
// keeps the solution points inside that box: exact for boxes made of whole elements, a
// quadrature of the masked field otherwise.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "solver/config/expression.hpp"
#include "solver/case/case.hpp"
#include "solver/system/system.hpp"

namespace frmini::solver {

class ExpressionIntegrals {
 public:
  explicit ExpressionIntegrals(const Case& k);
  bool empty() const { return exprs_.empty(); }
  const std::vector<std::string>& names() const { return names_; }
  // Whether some expression reads a gradient, and which gradient ([plugins.integrals]
  // gradients): the element's own polynomial's (false) or the LDG-corrected one the scheme's
  // viscous flux uses, as PyFR's integrate plugin reads it (true; Navier-Stokes only).
  bool uses_gradients() const { return grads_; }
  bool corrected() const { return corrected_; }
  // The integrals of solution `soln` (download_solution's layout) at time t; `weights` from
  // group_weights. `grads`: its gradients as System::corrected_gradients gives them (null:
  // the element's own, computed here).
  std::vector<double> integrate(const System& sys, const std::vector<std::vector<double>>& soln,
                                double t, const std::vector<std::vector<double>>& weights,
                                const std::vector<std::vector<double>>* grads = nullptr) const;

 private:
  std::vector<std::string> names_;
  std::vector<config::Expression> exprs_;
  std::vector<std::string> used_;  // variables some expression uses (bound at each point)
  bool grads_ = false, corrected_ = false;
  bool has_region_ = false;
  std::array<double, 3> lo_{}, hi_{};
};

}  // namespace frmini::solver
