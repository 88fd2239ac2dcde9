// Partitioning: the element dual graph (neighbours through faces), with elements paired across
// periodic faces merged into one graph vertex so that periodic partners always share a part
// (as PyFR's _group_periodic_eles), split by METIS.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "meshes/mesh.hpp"

namespace frmini::meshes {

// The weighted graph handed to the partitioner (CSR, METIS conventions).
struct DualGraph {
  std::vector<int64_t> xadj, adjncy, vwgt;
  std::vector<int64_t> vertex_of;  // global element index -> graph vertex
};

// weights: "hex:3,pri:2,tet:1" (types not listed weigh 1). Throws UserError for a malformed
// list or an unknown type name.
DualGraph dual_graph(const Mesh& m, const std::string& weights);

// Adds (or replaces) the partitioning with nparts parts.
void add_partitioning(Mesh& m, int nparts, const std::string& weights);

// The graph partitioner: METIS, or a stub that throws NotBuiltError (chosen by CMake).
std::vector<int32_t> partition_graph(const DualGraph& g, int nparts);

}  // namespace frmini::meshes
