// Surface forces on a boundary (PyFR's fluidforce plugin): the pressure and viscous force the
// fluid exerts on the boundary, integrated with the flux points' face quadrature,
//   F_p = sum w |pnorm| p n,   F_v = -sum w |pnorm| tau.n,
// n the element's outward unit normal (into the body on a wall). The solution and its
// gradient are the element polynomials evaluated at the flux points (the gradient uncorrected,
// as PyFR's plugin does). surface_force does it on the host from a downloaded solution; the
// plugin does the same integral on the device (forces_device.hpp). The plugin adds the
// coefficients C = F / (q S) (Cd, Cl, Cz along x, y, z) and, at the end of a run, the
// statistics of force_stats.hpp in the run report and a summary CSV.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "meshes/mesh.hpp"
#include "solver/system/system.hpp"

namespace frmini::solver {

struct SurfaceForce {
  std::vector<double> pressure, viscous;  // ndims components each (viscous all 0 for Euler)
};

// Element e of group g's [nvars][nupts] conserved values (download_solution's layout per
// element), for every element boundary_elements lists.
using ElementValues = std::function<const double*(int g, int64_t e)>;

// Throws UserError when the mesh has no boundary called `boundary`.
SurfaceForce surface_force(const System& sys, const ElementValues& soln, const std::string& boundary);
// The same from a whole solution in System::download_solution's layout.
SurfaceForce surface_force(const System& sys, const std::vector<std::vector<double>>& soln,
                           const std::string& boundary);
// The (group, element) pairs with a face on `boundary`, each once. Throws UserError for an
// unknown boundary.
std::vector<std::pair<int, int64_t>> boundary_elements(const System& sys, const std::string& boundary);

// The default reference sizes of the force coefficients (the flow along +x): `area` the
// boundary's frontal (projected) area, (1/2) sum w |pnorm| |n_x| (D x span for a cylinder,
// D per unit span in 2D); `span` the z extent of the elements on the boundary (1 in 2D);
// `length` = area / span, the body's extent across the flow (D). Throws UserError for an
// unknown boundary.
struct FrontalExtent {
  double area = 0, span = 1, length = 0;
  double zmin = 1e308, zmax = -1e308;  // 3D: the elements' z range (none: empty)
};
FrontalExtent frontal_extent(const System& sys, const meshes::Mesh& mesh, const std::string& boundary);

}  // namespace frmini::solver
