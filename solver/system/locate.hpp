// Points located in a mesh: which element holds each physical point and where in it (the
// reference coordinates the element's map sends there), curved elements included. The map is
// the element's own geometry (its Gmsh nodes and their Lagrange basis), inverted by Newton's
// method from the reference element's centroid. Used by the sampler plugin.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "meshes/mesh.hpp"

namespace frmini::solver {

struct Location {
  int group = -1;      // mesh group; -1 = the point lies in no element
  int64_t elem = -1;
  std::array<double, 3> xi{};  // reference coordinates (the first ndims used)
};

// Whether reference point xi lies in the reference element of `etype`, within tol.
bool in_reference_element(const std::string& etype, const double* xi, double tol);

// Each point (x, y[, z]; the first mesh.ndims components used) located once.
std::vector<Location> locate_points(const meshes::Mesh& mesh,
                                    const std::vector<std::array<double, 3>>& pts);

}  // namespace frmini::solver
