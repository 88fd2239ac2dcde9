// PyFR's reference elements, written once: vertex coordinates, faces in PyFR's numbering and the
// equispaced "std_ele" node lattice of geometric order k. Everything else in meshes/ (Gmsh node
// permutations, face matching, Jacobians) is derived from these tables in code, so there is no
// hand-written node-ordering table to get wrong.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace frmini::meshes {

using Point3 = std::array<double, 3>;  // unused coordinates are 0

struct ShapeInfo {
  std::string name;   // "tri", "quad", "tet", "pri", "pyr", "hex"
  int ndims = 0;
  std::vector<Point3> verts;             // PyFR vertex order
  std::vector<std::vector<int>> faces;   // vertex indices of each face, PyFR face numbering
  std::vector<Point3> face_normals;      // outward reference normals (unnormalised, as PyFR)
};

// All six shapes, in the fixed order tri, quad, tet, pri, pyr, hex.
const std::vector<ShapeInfo>& all_shapes();
// The shape called `name`, or nullptr.
const ShapeInfo* find_shape(const std::string& name);
const ShapeInfo& shape(const std::string& name);  // throws std::out_of_range if unknown

// Number of nodes of the std_ele lattice of order k (k >= 1).
int lattice_size(const std::string& name, int k);
// The std_ele lattice: equispaced points of order k on the reference element, x fastest, then
// y, then z (for the pyramid: layer by layer in z, each layer a shrinking square grid).
std::vector<Point3> lattice(const std::string& name, int k);
// The geometric order k whose lattice has `nnodes` nodes, or 0 if none (k <= 8 searched).
int order_from_nnodes(const std::string& name, int nnodes);

// Name of the face shape ("line", "tri" or "quad") of face f of `s`.
std::string face_shape(const ShapeInfo& s, int f);

}  // namespace frmini::meshes
