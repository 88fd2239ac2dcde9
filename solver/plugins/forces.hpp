// Surface forces on a boundary (PyFR's fluidforce plugin): the pressure and viscous force the
// fluid exerts on the boundary, integrated with the flux points' face quadrature,
//   F_p = sum w |pnorm| p n,   F_v = -sum w |pnorm| tau.n,
// n the element's outward unit normal (into the body on a wall). The solution and its
// gradient are the element polynomials evaluated at the flux points (the gradient uncorrected,
// as PyFR's plugin does), on the host from a downloaded solution. The plugin adds the
// coefficients C = F / (q S) (Cd, Cl, Cz along x, y, z) and, at the end of a run, the
// statistics of force_stats.hpp in the run report and a summary CSV.
#pragma once

#include <string>
#include <vector>

#include "meshes/mesh.hpp"
#include "solver/system/system.hpp"

namespace frmini::solver {

struct SurfaceForce {
  std::vector<double> pressure, viscous;  // ndims components each (viscous all 0 for Euler)
};

// `soln` in System::download_solution's layout. Throws UserError when the mesh has no
// boundary called `boundary`.
SurfaceForce surface_force(const System& sys, const std::vector<std::vector<double>>& soln,
                           const std::string& boundary);

// The default reference sizes of the force coefficients (the flow along +x): `area` the
// boundary's frontal (projected) area, (1/2) sum w |pnorm| |n_x| (D x span for a cylinder,
// D per unit span in 2D); `span` the z extent of the elements on the boundary (1 in 2D);
// `length` = area / span, the body's extent across the flow (D). Throws UserError for an
// unknown boundary.
struct FrontalExtent {
  double area = 0, span = 1, length = 0;
};
FrontalExtent frontal_extent(const System& sys, const meshes::Mesh& mesh, const std::string& boundary);

}  // namespace frmini::solver
