// Domain integrals of the solution (conservation checks, the integrals plugin).
#pragma once

#include <vector>

#include "operators/operators.hpp"
#include "solver/system/system.hpp"

namespace frmini::solver {

// The integral of each nodal basis function over the reference element.
std::vector<double> upts_weights(const operators::ElementOperators& ops);
// upts_weights of every element group of a system.
std::vector<std::vector<double>> group_weights(const System& sys);
// The integral over the domain of every conserved variable in register `reg` (with the
// weights of group_weights, computed once by callers that integrate repeatedly).
std::vector<double> conserved_totals(System& sys, int reg);
std::vector<double> conserved_totals(System& sys, int reg,
                                     const std::vector<std::vector<double>>& weights);
// The same of a downloaded solution (System::download_solution's layout).
std::vector<double> integrate_solution(const System& sys,
                                       const std::vector<std::vector<double>>& soln,
                                       const std::vector<std::vector<double>>& weights);
// What residual_norms is made of, sums over elements that add up over the parts of a mesh:
// per variable the integral of (cur - prev)^2, then the volume.
std::vector<double> residual_sums(const System& sys, const std::vector<std::vector<double>>& prev,
                                  const std::vector<std::vector<double>>& cur,
                                  const std::vector<std::vector<double>>& weights);
std::vector<double> residual_norms_from_sums(const std::vector<double>& sums, double dt);
// Per variable, the volume-weighted L2 norm of (cur - prev)/dt: sqrt(integral of
// ((cur - prev)/dt)^2 / volume).
std::vector<double> residual_norms(const System& sys, const std::vector<std::vector<double>>& prev,
                                   const std::vector<std::vector<double>>& cur, double dt,
                                   const std::vector<std::vector<double>>& weights);

}  // namespace frmini::solver
