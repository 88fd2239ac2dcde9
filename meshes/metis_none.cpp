// Built without METIS: partitioning into more than one part is unavailable.
#include "meshes/partition.hpp"
#include "operators/error.hpp"

namespace frmini::meshes {

std::vector<int32_t> partition_graph(const DualGraph&, int) {
  throw NotBuiltError("METIS", "partition");
}

}  // namespace frmini::meshes
