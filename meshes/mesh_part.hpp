// One part of a partitioned mesh, as one MPI rank holds it (PyFR's per-rank mesh): the part's
// elements renumbered within their groups (groups with no element on the part left out), links
// inside the part kept, and every face whose neighbour lies on another part turned into a
// FaceLink::remote naming that part and the neighbour by its number in the whole mesh. Both
// parts of such a face then know the pair by the same global numbers, which is what lets them
// list the shared faces in one order without exchanging anything but flux-point positions.
#pragma once

#include <cstdint>
#include <vector>

#include "meshes/mesh.hpp"

namespace frmini::meshes {

struct RemoteFace {
  int32_t group = 0;      // this side, in the part's numbering
  int64_t elem = 0;
  int32_t face = 0;
  int32_t part = 0;       // the part that holds the neighbour
  // Both sides in the whole mesh's numbering (group index, element within it, face).
  int32_t ggroup = 0, nbr_ggroup = 0;
  int64_t gelem = 0, nbr_gelem = 0;
  int32_t nbr_face = 0;
};

struct MeshPart {
  int part = 0, nparts = 1;
  Mesh mesh;                                  // the part's elements; uuid that of the whole mesh
  std::vector<int32_t> ggroup;                // part group -> group of the whole mesh
  std::vector<std::vector<int64_t>> gelem;    // [part group][element] -> element in the whole group
  std::vector<RemoteFace> remote;             // every face with its neighbour on another part
  // [part group] how many elements lead the group that have a face on another part: each
  // group lists those first (then the others, both in the whole mesh's order), so a run does
  // their work, posts the exchange, and does the others' while the messages travel.
  std::vector<int64_t> nhalo;
  int64_t total_elements = 0;                 // of the whole mesh
};

// `parts`: [group][element] -> part, as Partitioning::parts. Throws UserError when a periodic
// pair is split between parts (frmini partition never does that) or a part number is out of
// range.
MeshPart extract_part(const Mesh& whole, const std::vector<std::vector<int32_t>>& parts, int nparts,
                      int part);

}  // namespace frmini::meshes
