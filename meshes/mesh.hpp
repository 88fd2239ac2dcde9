// The in-memory frmini mesh: what the solver reads. Element groups per type (PyFR std_ele node
// order, geometric order k), every face's neighbour, the boundary names, the periodic transforms
// and any number of partitionings. Built by meshes/connectivity.hpp from a RawMesh (importers,
// generators) or loaded from a mesh file (meshes/mesh_file.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace frmini::meshes {

// A 4x4 affine transform, row-major, acting on (x, y, z, 1).
using Affine = std::array<double, 16>;

struct FaceLink {
  // remote: the neighbour lies on another part of a partitioned mesh (meshes/mesh_part.hpp;
  // only in a part's mesh, never in a mesh file).
  enum Kind : int32_t { unset = -1, internal = 0, boundary = 1, periodic = 2, remote = 3 };
  int32_t kind = unset;
  int32_t index = -1;      // internal/periodic: neighbour's group index; boundary: boundary
                           // index; remote: index into MeshPart::remote
  int32_t elem = -1;       // neighbour element within its group (-1 for a boundary)
  int32_t face = -1;       // neighbour's face number (PyFR numbering; -1 for a boundary)
  int32_t transform = -1;  // periodic: Mesh::transforms[t] maps this face onto its partner
};

struct ElementGroup {
  std::string etype;  // tri quad tet pri pyr hex
  int order = 1;      // geometric order k
  int nnodes = 0;     // std_ele lattice size of order k
  int nfaces = 0;
  int64_t neles = 0;
  std::vector<double> nodes;     // [neles][nnodes][ndims]
  std::vector<uint8_t> curved;   // [neles]: high-order nodes off the linear map
  std::vector<FaceLink> faces;   // [neles][nfaces]

  const FaceLink& link(int64_t e, int f) const { return faces[size_t(e) * nfaces + f]; }
  FaceLink& link(int64_t e, int f) { return faces[size_t(e) * nfaces + f]; }
};

struct Partitioning {
  int nparts = 1;
  std::string weights;                      // as given, e.g. "hex:3,pri:2" ("" = unit)
  std::vector<std::vector<int32_t>> parts;  // [group][element] -> part
};

struct Mesh {
  int ndims = 0;
  std::vector<ElementGroup> groups;      // sorted by etype name
  std::vector<std::string> boundaries;   // sorted; FaceLink::index for boundary faces
  std::vector<Affine> transforms;        // periodic transforms (each with its inverse)
  std::vector<Partitioning> partitionings;
  std::string uuid;                      // hash of the content (not of the partitionings)

  int group_index(const std::string& etype) const;  // -1 if absent
  int64_t total_elements() const;
};

// Face counts, as mesh-info reports them.
struct FaceCounts {
  int64_t internal = 0;                   // matched pairs of element faces
  int64_t periodic = 0;                   // periodic pairs
  std::vector<int64_t> boundary;          // per Mesh::boundaries
  int64_t unset = 0;                      // never nonzero in a valid mesh
};
FaceCounts count_faces(const Mesh& m);

// Recomputes Mesh::uuid: a 128-bit hash of types, orders, nodes, face links, boundary names
// and transforms, printed as a UUID. Partitionings are not part of it, so partitioning a mesh
// does not invalidate solutions that refer to it.
std::string mesh_uuid(const Mesh& m);

}  // namespace frmini::meshes
