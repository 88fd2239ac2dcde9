// Domain integrals of the solution (conservation checks, the integrals plugin).
#pragma once

#include <vector>

#include "operators/operators.hpp"
#include "solver/system/system.hpp"

namespace frmini::solver {

// The integral of each nodal basis function over the reference element.
std::vector<double> upts_weights(const operators::ElementOperators& ops);
// The integral over the domain of every conserved variable in register `reg`.
std::vector<double> conserved_totals(System& sys, int reg);

}  // namespace frmini::solver
