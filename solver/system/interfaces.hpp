// The interfaces of a mesh as lists of flux-point pairs. Each side of a pair is a flux point
// of one element of one group, so one interface list spans every element type (PyFR's
// IntInters); the solver turns the sides into views (gather tables) into the groups' flux-point
// arrays. Flux points of the two faces are paired by physical location (after the periodic
// transform for periodic faces), so no orientation tables are needed.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "meshes/mesh.hpp"
#include "meshes/mesh_part.hpp"
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

// What a part's MPI exchanges have cost so far (Halo, frmini bench scaling, the run report):
// the bytes and messages it sent, the wall time it spent waiting for them (where the exchange
// was not hidden behind the part's own kernels), and how many parts it borders.
struct HaloTraffic {
  double bytes = 0, messages = 0, wait_s = 0, neighbours = 0;
};

// The faces one part of a partitioned mesh shares with another part (meshes/mesh_part.hpp):
// this side's flux points in an order both parts derive alone, from the global numbers of the
// two sides: first the faces whose left side (as a one-part run would orient them: the side
// with the lower face, group, element) lies on the lower-numbered part, then the others;
// within each set by the left side's global (face, group, element); within a face in the left
// side's flux-point order, the right side's points paired to them by position. Point k here
// and point k on the other part are then the same point, so the parts exchange plain arrays.
struct MpiInterfaces {
  int part = 0;  // the other part
  int ndims = 0;
  std::vector<FacePoint> left;  // this side's points
  std::vector<double> nrm;      // [n][ndims] this side's outward unit normal
  std::vector<double> magn;     // [n] |pnorm| of this side
  std::size_t nfirst = 0;       // points of the faces whose left side is on the lower part
  bool lower = false;           // this part's number is the lower of the two
  std::size_t size() const { return left.size(); }
  // Points [begin, end) on faces where this side is the one-part run's left side, then the
  // range where it is the right side (one-sided LDG takes a side by that orientation).
  std::pair<std::size_t, std::size_t> as_left() const { return lower ? std::pair{std::size_t(0), nfirst} : std::pair{nfirst, size()}; }
  std::pair<std::size_t, std::size_t> as_right() const { return lower ? std::pair{nfirst, size()} : std::pair{std::size_t(0), nfirst}; }
};

struct Interfaces {
  InternalInterfaces internal;             // internal and periodic faces
  std::vector<BoundaryInterfaces> boundaries;  // one per Mesh::boundaries, same order
  std::vector<MpiInterfaces> mpi;          // one per neighbouring part, by part number
};

// `geos[g]` and `fpts_face[g]` (the face of each flux point) belong to mesh.groups[g].
// Throws UserError if the flux points of two matched faces do not coincide (a mesh whose
// faces are not conforming, or a periodic transform that does not map one onto the other).
// FaceLink::remote faces are left out: they are the parts' (below). `numbers` (a part's
// MeshPart::gelem): the whole mesh's element numbers, by which a pair's side is chosen as on
// the whole mesh; null: the mesh's own.
Interfaces build_interfaces(const meshes::Mesh& mesh, const std::vector<GroupGeometry>& geos,
                            const std::vector<std::vector<int>>& fpts_face,
                            const std::vector<std::vector<int64_t>>* numbers = nullptr);

// Building the MPI interfaces of a part takes one exchange of flux-point positions: first the
// positions this part sends each neighbouring part (those of the faces where it is the left
// side, in the order above), then, given what every neighbour sent, the interfaces (mesh =
// part.mesh). Throws UserError when the received points do not match this side's.
std::map<int, std::vector<double>> mpi_face_positions(const meshes::MeshPart& part,
                                                      const std::vector<GroupGeometry>& geos,
                                                      const std::vector<std::vector<int>>& fpts_face);
std::vector<MpiInterfaces> build_mpi_interfaces(const meshes::MeshPart& part,
                                                const std::vector<GroupGeometry>& geos,
                                                const std::vector<std::vector<int>>& fpts_face,
                                                const std::map<int, std::vector<double>>& received);

}  // namespace frmini::solver
