// The interfaces of a mesh as lists of flux-point pairs. Each side of a pair is a flux point
// of one element of one group, so one interface list spans every element type (PyFR's
// IntInters); the solver turns the sides into views (gather tables) into the groups' flux-point
// arrays. Flux points of the two faces are paired by physical location (after the periodic
// transform for periodic faces), so no orientation tables are needed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "meshes/mesh.hpp"
#include "solver/system/geometry.hpp"

namespace frmini::solver {

struct FacePoint {
  int32_t group = 0;  // index into Mesh::groups
  int32_t fpt = 0;    // flux point of the element (face by face, as the operators order them)
  int64_t elem = 0;
};

struct InternalInterfaces {
  int ndims = 0;
  std::vector<FacePoint> left, right;  // paired point by point
  std::vector<double> nrm;             // [n][ndims] unit normal of the left side (outward)
  std::vector<double> magn;            // [n] |pnorm| of the left side
  std::size_t size() const { return left.size(); }
};

struct BoundaryInterfaces {
  std::string name;
  int ndims = 0;
  std::vector<FacePoint> left;
  std::vector<double> nrm, magn;
  std::vector<double> ploc;  // [n][ndims] physical location (BC expressions of x, y, z)
  std::size_t size() const { return left.size(); }
};

struct Interfaces {
  InternalInterfaces internal;             // internal and periodic faces
  std::vector<BoundaryInterfaces> boundaries;  // one per Mesh::boundaries, same order
};

// `geos[g]` and `fpts_face[g]` (the face of each flux point) belong to mesh.groups[g].
// Throws UserError if the flux points of two matched faces do not coincide (a mesh whose
// faces are not conforming, or a periodic transform that does not map one onto the other).
Interfaces build_interfaces(const meshes::Mesh& mesh, const std::vector<GroupGeometry>& geos,
                            const std::vector<std::vector<int>>& fpts_face);

}  // namespace frmini::solver
