// The CFL number of a time step on a solution, with PyFR's definition:
//   CFL = dt (2p + 1) max over solution points of sum_i (|grad xi_i . v| + c |grad xi_i|)
// (grad xi_i = S_i/|J|), and the largest stable value of each scheme for linear advection
// (PyFR's documentation: tvd-rk3 2.51, rk4 2.79, rk45 4.82). Printed when a run starts.
#pragma once

#include <string>
#include <vector>

#include "solver/system/system.hpp"

namespace frmini::solver {

double cfl_number(const System& sys, const std::vector<std::vector<double>>& soln, double dt);
double cfl_limit(const std::string& scheme);

}  // namespace frmini::solver
