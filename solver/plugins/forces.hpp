// Surface forces on a boundary (PyFR's fluidforce plugin): the pressure and viscous force the
// fluid exerts on the boundary, integrated with the flux points' face quadrature,
//   F_p = sum w |pnorm| p n,   F_v = -sum w |pnorm| tau.n,
// n the element's outward unit normal (into the body on a wall). The solution and its
// gradient are the element polynomials evaluated at the flux points (the gradient uncorrected,
// as PyFR's plugin does), on the host from a downloaded solution.
#pragma once

#include <string>
#include <vector>

#include "solver/system/system.hpp"

namespace frmini::solver {

struct SurfaceForce {
  std::vector<double> pressure, viscous;  // ndims components each (viscous all 0 for Euler)
};

// `soln` in System::download_solution's layout. Throws UserError when the mesh has no
// boundary called `boundary`.
SurfaceForce surface_force(const System& sys, const std::vector<std::vector<double>>& soln,
                           const std::string& boundary);

}  // namespace frmini::solver
