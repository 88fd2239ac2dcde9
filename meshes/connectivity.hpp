// From raw elements to a Mesh: every element face is matched exactly once - with a neighbour
// face (any element type), a periodic partner, or a named boundary face - and the geometry is
// checked. Importers and generators produce a RawMesh; this is the only place where faces are
// matched, so every mesh source obeys the same rules and gives the same errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "meshes/mesh.hpp"

namespace frmini::meshes {

struct RawMesh {
  std::string source;  // file name, for error messages
  int ndims = 0;

  struct Group {
    std::string etype;
    int order = 1;
    std::vector<double> nodes;    // [neles][nnodes][ndims], std_ele order
    std::vector<int64_t> verts;   // [neles][nverts]: vertex ids (PyFR vertex order)
  };
  std::vector<Group> groups;

  // Named boundary faces, each a list of vertex ids (any order).
  struct Boundary {
    std::string name;
    std::vector<std::vector<int64_t>> faces;
  };
  std::vector<Boundary> boundaries;

  // Periodic pairs named by boundaries (PyFR's periodic_<id>_l / _r): the faces of `left` are
  // paired with those of `right` through the translation between the two sets of faces.
  struct NamedPeriodic {
    std::string id, left, right;
  };
  std::vector<NamedPeriodic> named_periodic;

  // Periodic transforms from the mesh file's periodic entity information: T maps master faces
  // onto slave faces. Faces are paired wherever T maps an unmatched face onto another one.
  std::vector<Affine> entity_periodic;
};

// Matches faces, checks Jacobians, computes curved flags and the UUID. Throws UserError naming
// raw.source for unmatched faces, faces shared by three elements, periodic faces without a
// partner and non-positive Jacobians.
Mesh build_mesh(RawMesh raw);

// Checks geometry only (used by build_mesh and by loading).
void check_jacobians(const Mesh& m, const std::string& source);

}  // namespace frmini::meshes
