// Geometric face pairing through an affine transform: the periodic half of face matching.
// Periodic faces share no vertex ids with their partners, so they are paired by coordinates:
// face a pairs with face b when T maps every vertex of a onto a vertex of b.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "meshes/element_types.hpp"
#include "meshes/mesh.hpp"

namespace frmini::meshes {

struct FaceGeom {
  Point3 centroid{};
  std::array<Point3, 4> v{};
  int nv = 0;
};

Affine identity_affine();
Affine translation(const Point3& d);
Point3 apply(const Affine& t, const Point3& p);
Affine inverse(const Affine& t);  // throws std::runtime_error if singular
bool nearly_equal(const Affine& a, const Affine& b, double tol);

// For each face of `from`, the index in `to` of the face that T maps it onto (all vertices
// within tol), or -1. Spatial hashing on centroids: linear in the number of faces.
std::vector<int64_t> match_through_transform(const std::vector<FaceGeom>& from,
                                             const std::vector<FaceGeom>& to, const Affine& t,
                                             double tol);

}  // namespace frmini::meshes
