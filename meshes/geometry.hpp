// Element geometry from the std_ele nodes: Jacobians, volumes and the "curved" flag. Pure C++
// (meshes/lagrange.hpp), so mesh-info and the solver's checks never need Gmsh.
#pragma once

#include <cstdint>
#include <vector>

#include "meshes/mesh.hpp"

namespace frmini::meshes {

struct GroupGeometry {
  double volume = 0.0;            // sum over elements of the integral of det J
  double min_jacobian = 1e300;    // smallest det J over quadrature points and nodes
  int64_t n_bad = 0;              // elements with det J <= 0 somewhere
  int64_t first_bad = -1;         // index of the first such element
};

// Volume and Jacobian checks of one element group; ndims is the mesh's dimension.
GroupGeometry analyse_group(const ElementGroup& g, int ndims);

// Curved flags, as PyFR: an element is straight when every high-order node lies within
// tol x (element size) of the vertex-linear map.
std::vector<uint8_t> curved_flags(const ElementGroup& g, int ndims, double tol = 1e-5);

}  // namespace frmini::meshes
